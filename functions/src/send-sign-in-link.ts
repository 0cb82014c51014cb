// sendSignInLink: mails a passwordless sign-in link to someone allowed to sign in. Sign-up is
// closed: the address must belong to an account with access, or match an email key.
import type { Firestore } from 'firebase-admin/firestore'
import type { Auth, UserRecord } from 'firebase-admin/auth'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { signInMessages, type SignInResponse } from '#domain/sign-in.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { adminAuth, adminDb } from './admin.ts'
import { appOrigins, mailConfig } from './config.ts'
import { findEmailKey } from './email-keys.ts'
import { sendMail } from './mailer.ts'
import { continueUrlFor } from './origins.ts'
import { defineCallable } from './define-callable.ts'
import { consumeRateLimits, type RateLimit } from './rate-limit.ts'
import { signInMail } from './sign-in-mail.ts'

const WINDOW_MS = 15 * 60_000
// Per address: a person retrying a few times. Per IP: an office behind one address.
export const SIGN_IN_RATE_LIMITS = {
  address: { kind: 'sign-in-address', limit: 5, windowMs: WINDOW_MS },
  ip: { kind: 'sign-in-ip', limit: 30, windowMs: WINDOW_MS },
} as const

const failure = (message: string): SignInResponse => ({ success: false, message })

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}

// Logged instead of the error object itself: some errors carry the request that failed.
function errorSummary(error: unknown): Record<string, string | undefined> {
  return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), code: errorCode(error) }
}

async function userByEmail(auth: Auth, email: string): Promise<UserRecord | null> {
  try {
    return await auth.getUserByEmail(email)
  } catch (error) {
    if (errorCode(error) === 'auth/user-not-found') return null
    throw error
  }
}

// Whether the address may get a link. For an email key without an account, the account is
// created now (email unverified, no claims), so that sign-in works with sign-up disabled in
// Firebase Auth; handleSignIn gives it access once the link proved the address.
async function mayReceiveLink(auth: Auth, db: Firestore, email: string): Promise<boolean> {
  const user = await userByEmail(auth, email)
  if (user?.disabled) return false
  if (user && (await db.doc(userAccessPath(user.uid)).get()).exists) return true
  if (!(await findEmailKey(db, email))) return false
  if (!user) {
    try {
      await auth.createUser({ email, emailVerified: false })
    } catch (error) {
      // A concurrent request created it first.
      if (errorCode(error) !== 'auth/email-already-exists') throw error
    }
  }
  return true
}

export const sendSignInLink = defineCallable('sendSignInLink', {}, async (_caller, { email, url, timeZone }, request) => {
  const requestedAt = new Date()

  let origins: string[]
  try {
    origins = appOrigins()
  } catch (error) {
    logger.error('sendSignInLink: APP_ORIGINS is misconfigured', errorSummary(error))
    return failure(signInMessages.cannotSend)
  }
  const continueUrl = continueUrlFor(url, origins)
  if (!continueUrl) throw new HttpsError('invalid-argument', 'Invalid url')

  const db = adminDb()
  const auth = adminAuth()
  const limits: RateLimit[] = [{ ...SIGN_IN_RATE_LIMITS.address, key: email }]
  const ip = request.rawRequest.ip
  if (ip) limits.push({ ...SIGN_IN_RATE_LIMITS.ip, key: ip })

  try {
    if (!(await consumeRateLimits(db, limits, requestedAt.getTime()))) {
      logger.warn('sendSignInLink: rate limited', { domain: email.slice(email.indexOf('@')) })
      return failure(signInMessages.tooMany)
    }
    if (!(await mayReceiveLink(auth, db, email))) return failure(signInMessages.notAuthorized)
  } catch (error) {
    logger.error('sendSignInLink: checking the request failed', errorSummary(error))
    return failure(signInMessages.cannotSend)
  }

  try {
    const config = mailConfig()
    const link = await auth.generateSignInWithEmailLink(email, { url: continueUrl, handleCodeInApp: true })
    await sendMail(config, { to: email, ...signInMail({ link, email, requestedAt, timeZone }) })
  } catch (error) {
    logger.error('sendSignInLink: the link could not be sent', errorSummary(error))
    return failure(signInMessages.cannotSend)
  }
  return { success: true, message: signInMessages.sent }
})
