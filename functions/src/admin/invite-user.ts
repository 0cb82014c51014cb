// inviteUser: creates the account and its access, records the invitation, then mails a sign-in
// link. A company admin invites clients into their own companies only, at most at their level.
//
// An address that already has an account: someone removed from a company the inviter administers
// is pointed to Restore (its admins list them as removed, decision 0041). Otherwise a platform
// admin, a senior analyst, or an admin who shares a company with the person (each can list them
// already) is told so. Anyone else gets the answer a new invitee's invitation gets, and nothing
// changes for that account: adding them would make their level and services (which hold in every
// company of theirs) those of a company that did not choose them, and a different answer would
// tell the admin that the address works with another company. The platform admins are told instead
// ('user.invitation_referred') and decide. Invitations are counted per inviter and per company,
// whatever the address, so probing addresses is slow and seen.
import type { Auth, UserRecord } from 'firebase-admin/auth'
import { FieldValue } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { seesAllCompanies } from '#domain/access.ts'
import { mayChangePeopleOf, mayManageEveryone, peopleMessages, type PersonAccess } from '#domain/admin-people-calls.ts'
import { readUserAccess, storedEmail, userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { appOrigins, mailConfig } from '../config.ts'
import { defineCallable } from '../define-callable.ts'
import { sendMail } from '../mailer.ts'
import { continueUrlFor } from '../origins.ts'
import { consumeRateLimits, type RateLimit } from '../rate-limit.ts'
import { recordAuditEvent } from './audit.ts'
import { accessSnapshot, assertChangeAllowed, readActor, readFlags, recordPersonEvents } from './people.ts'
import { inviteMail } from './invite-mail.ts'

const HOUR_MS = 60 * 60_000

// An admin onboarding a team; a company's admins together. Email keys let whole domains in.
export const INVITE_RATE_LIMITS = {
  inviter: { kind: 'invite-inviter', limit: 30, windowMs: HOUR_MS },
  company: { kind: 'invite-company', limit: 60, windowMs: HOUR_MS },
} as const

const inviteLimits = (uid: string, companies: readonly string[]): RateLimit[] => [
  { ...INVITE_RATE_LIMITS.inviter, key: uid },
  ...companies.map((company) => ({ ...INVITE_RATE_LIMITS.company, key: company })),
]

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
  const actor = await db.runTransaction(async (tx) => {
    const actor = await readActor(db, tx, caller)
    await assertChangeAllowed(db, tx, actor, null, null, after, await readFlags(db, tx, actor.companies))
    return actor
  })
  if (!(await consumeRateLimits(db, inviteLimits(caller.uid, after.companies)))) {
    throw new HttpsError('resource-exhausted', peopleMessages.tooManyInvitations)
  }

  // An account without access (an email key's newcomer who never finished) is taken over.
  const existing = await userByEmail(auth, email)
  const held = existing && (await db.doc(userAccessPath(existing.uid)).get())
  if (existing && held?.exists) {
    const { companies: theirs, removedFrom } = readUserAccess(held.data())
    // Someone removed from a company the inviter administers comes back through Restore, with the access they held.
    if (after.companies.some((company) => removedFrom.includes(company) && mayChangePeopleOf(actor, company))) {
      throw new HttpsError('already-exists', peopleMessages.removedHere)
    }
    if (mayManageEveryone(actor.access) || seesAllCompanies(actor.access)) throw new HttpsError('already-exists', peopleMessages.exists)
    if (theirs.some((company) => actor.companies.includes(company))) throw new HttpsError('already-exists', peopleMessages.alreadyYours)
    await db.runTransaction(async (tx) =>
      recordAuditEvent(db, tx, {
        actor: { uid: caller.uid, email: caller.email },
        action: 'user.invitation_referred',
        target: { kind: 'user', id: existing.uid, label: email },
        companyId: null,
        before: null,
        after: { email, ...accessSnapshot(after) },
      }),
    )
    return { mailed: true }
  }
  const user = existing ?? (await auth.createUser({ email, emailVerified: false }))

  try {
    await db.runTransaction(async (tx) => {
      const actor = await readActor(db, tx, caller)
      const accessRef = db.doc(userAccessPath(user.uid))
      const preferencesRef = db.doc(userPreferencesPath(user.uid))
      const [access, preferences] = await tx.getAll(accessRef, preferencesRef)
      if (access?.exists) throw new HttpsError('already-exists', peopleMessages.exists)
      const flags = await readFlags(db, tx, [...new Set([...actor.companies, ...after.companies])])
      await assertChangeAllowed(db, tx, actor, null, null, after, flags)
      tx.create(accessRef, {
        claims: { userType: after.userType, accessLevel: after.accessLevel },
        companies: after.companies,
        servicesEnabled: after.servicesEnabled,
        servicesManaged: after.servicesManaged,
        email: storedEmail(email),
        updatedAt: FieldValue.serverTimestamp(),
        updatedBy: caller.email ?? caller.uid,
      })
      if (!preferences?.exists) tx.set(preferencesRef, { defaultCompany: after.companies[0] ?? null })
      recordPersonEvents(
        db,
        tx,
        { actor: { uid: caller.uid, email: caller.email }, action: 'user.invited', target: { kind: 'user', id: user.uid, label: email } },
        null,
        after,
        flags,
        (_before, seen) => ({ before: null, after: { email, ...accessSnapshot(seen) } }),
      )
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
  return { mailed }
})
