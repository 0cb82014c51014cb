// What an administrator does behind the user's back, through the Admin SDK against the emulators.
import { FieldValue } from 'firebase-admin/firestore'
import type { CompanyFlags } from '#domain/access.ts'
import { userAccessPath } from '#domain/users-access.ts'
import type { Severity } from '#domain/template-vocabulary.ts'
import { monthKey } from '#domain/sla.ts'
import { serviceMonthPath } from '#domain/service-stats.ts'
import { companyPath } from '#domain/companies.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { sharedAdmin } from '../../../emulators/firebase/admin.ts'

const auth = () => sharedAdmin().auth
const db = () => sharedAdmin().db

/** Revokes every sign-in of the user now, the way the product's revocation does. */
export async function revokeSignIns(uid: string): Promise<void> {
  await auth().revokeRefreshTokens(uid)
  const user = await auth().getUser(uid)
  await auth().setCustomUserClaims(uid, { ...user.customClaims, revoked: Math.floor(Date.now() / 1000) })
  await db().doc(userAccessPath(uid)).update({ 'claims.revoked': FieldValue.serverTimestamp() })
}

/** Turns company service switches on or off, as an administrator editing the company would. */
export async function setCompanyFlags(slug: string, flags: CompanyFlags): Promise<void> {
  await db()
    .doc(companyPath(slug))
    .update({ ...flags, updatedAt: FieldValue.serverTimestamp(), updatedBy: 'e2e-admin@sectest.example' })
}

/** The user's preferences document as stored. */
export async function preferencesOf(uid: string): Promise<Record<string, unknown>> {
  return (await db().doc(userPreferencesPath(uid)).get()).data() ?? {}
}

/** Changes the user's preferences from elsewhere (another of their browsers, say). */
export async function setPreferences(uid: string, changes: Record<string, unknown>): Promise<void> {
  await db()
    .doc(userPreferencesPath(uid))
    .set({ ...changes, updatedAt: FieldValue.serverTimestamp() }, { merge: true })
}

/**
 * Opens new sign-in rate-limit windows. The suite signs in far more often than a person would
 * (the limits themselves are tested against the emulators in tests/emulators).
 */
export async function resetSignInRateLimits(): Promise<void> {
  await db().recursiveDelete(db().collection('rate_limits'))
}

/** A document as stored, or null when there is none. */
export async function documentOf(path: string): Promise<Record<string, unknown> | null> {
  return (await db().doc(path).get()).data() ?? null
}

/** How many documents of `collection` have `field` equal to `value`. */
export async function countWhere(collection: string, field: string, value: unknown): Promise<number> {
  return (await db().collection(collection).where(field, '==', value).count().get()).data().count
}

/** How many documents `collection` holds. */
export async function countIn(collection: string): Promise<number> {
  return (await db().collection(collection).count().get()).data().count
}

/**
 * Adds a fix of `days` to this month's remediation figures of a service, as a finding fixed now
 * would (an unlikely number of days, so that it is told from the demo's); returns the undo.
 */
export async function addFixThisMonth(company: string, service: string, severity: Severity, days: number): Promise<() => Promise<void>> {
  const month = db().doc(serviceMonthPath(company, service, monthKey(Date.now())))
  // Counted per tenth of a day, as the months store fixes.
  const tenth = String(Math.round(days * 10))
  await month.set({ remediationTenths: { [severity]: { [tenth]: FieldValue.increment(1) } } }, { merge: true })
  return async () => {
    await month.set({ remediationTenths: { [severity]: { [tenth]: FieldValue.increment(-1) } } }, { merge: true })
  }
}
