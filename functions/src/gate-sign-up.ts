// gateSignUp: sign-up is open in Firebase Auth only through this gate. An account is created when
// someone completes an emailed sign-in link for an address that has none yet; that is allowed only
// for an address an email key matches (decision 0020). Accounts an administrator or the Admin SDK
// creates do not pass through here.
import * as logger from 'firebase-functions/logger'
import { beforeUserCreated, HttpsError } from 'firebase-functions/v2/identity'
import { signInMessages } from '#domain/sign-in.ts'
import { adminDb } from './admin.ts'
import { findEmailKey } from './email-keys.ts'

export const gateSignUp = beforeUserCreated(async (event) => {
  const email = event.data?.email?.toLowerCase()
  if (email && (await findEmailKey(adminDb(), email))) return
  logger.warn('gateSignUp: refused a sign-up', { domain: email ? email.slice(email.indexOf('@')) : null })
  throw new HttpsError('permission-denied', signInMessages.notAuthorized)
})
