// inviteUser: creates the account and its access, records the invitation, then mails a sign-in
// link. A company admin invites clients into their own companies only, at most at their level.
import type { Auth, UserRecord } from 'firebase-admin/auth'
import { FieldValue } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { peopleMessages, type PersonAccess } from '#domain/admin-people-calls.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { appOrigins, mailConfig } from '../config.ts'
import { defineCallable } from '../define-callable.ts'
import { sendMail } from '../mailer.ts'
import { continueUrlFor } from '../origins.ts'
import { recordAuditEvent } from './audit.ts'
import { accessSnapshot, assertChangeAllowed, eventCompany, readActor } from './people.ts'
import { inviteMail } from './invite-mail.ts'

const errorCode = (error: unknown) => (typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined)

async function userByEmail(auth: Auth, email: string): Promise<UserRecord | null> {
  try {
    return await auth.getUserByEmail(email)
  } catch (error) {
    if (errorCode(error) === 'auth/user-not-found') return null
    throw error
  }
}

export const inviteUser = defineCallable('inviteUser', {}, async (caller, request) => {
  const { email, url, timeZone: _timeZone, ...fields } = request
  const continueUrl = continueUrlFor(url, appOrigins())
  if (!continueUrl) throw new HttpsError('invalid-argument', 'Invalid url')
  const after: PersonAccess = fields
  const db = adminDb()
  const auth = adminAuth()

  // Checked before the account exists, so a refused invitation creates nothing.
  await db.runTransaction(async (tx) => assertChangeAllowed(db, tx, await readActor(db, tx, caller), null, null, after))

  // An account without access (an email key's newcomer who never finished) is taken over.
  const existing = await userByEmail(auth, email)
  if (existing && (await db.doc(userAccessPath(existing.uid)).get()).exists) throw new HttpsError('already-exists', peopleMessages.exists)
  const user = existing ?? (await auth.createUser({ email, emailVerified: false }))

  try {
    await db.runTransaction(async (tx) => {
      const actor = await readActor(db, tx, caller)
      const accessRef = db.doc(userAccessPath(user.uid))
      const preferencesRef = db.doc(userPreferencesPath(user.uid))
      const [access, preferences] = await tx.getAll(accessRef, preferencesRef)
      if (access?.exists) throw new HttpsError('already-exists', peopleMessages.exists)
      await assertChangeAllowed(db, tx, actor, null, null, after)
      tx.create(accessRef, {
        claims: { userType: after.userType, accessLevel: after.accessLevel },
        companies: after.companies,
        servicesEnabled: after.servicesEnabled,
        servicesManaged: after.servicesManaged,
        updatedAt: FieldValue.serverTimestamp(),
        updatedBy: caller.email ?? caller.uid,
      })
      if (!preferences?.exists) tx.set(preferencesRef, { defaultCompany: after.companies[0] ?? null })
      recordAuditEvent(db, tx, {
        actor: { uid: caller.uid, email: caller.email },
        action: 'user.invited',
        target: { kind: 'user', id: user.uid, label: email },
        companyId: eventCompany(actor, null, after),
        before: null,
        after: { email, ...accessSnapshot(after) },
      })
    })
  } catch (error) {
    // The account was made for this invitation only: without its access it goes again.
    if (!existing) await auth.deleteUser(user.uid).catch(() => undefined)
    throw error
  }

  let mailed = true
  try {
    const link = await auth.generateSignInWithEmailLink(email, { url: continueUrl, handleCodeInApp: true })
    await sendMail(mailConfig(), { to: email, ...inviteMail({ link, email, invitedBy: caller.email ?? 'An administrator' }) })
  } catch (error) {
    mailed = false
    logger.error('inviteUser: the invitation could not be mailed', { error: error instanceof Error ? error.message : String(error) })
  }
  return { uid: user.uid, mailed }
})
