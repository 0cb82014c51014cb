// What an administrator does behind the user's back, through the Admin SDK against the emulators.
import { getApps, initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { FieldValue, getFirestore } from 'firebase-admin/firestore'
import { emulatorClientEnv, PROJECT_ID } from '../../../emulators/firebase/env.ts'

Object.assign(process.env, emulatorClientEnv())
const app = getApps()[0] ?? initializeApp({ projectId: PROJECT_ID })

/** Revokes every sign-in of the user now, the way the product's revocation does. */
export async function revokeSignIns(uid: string): Promise<void> {
  await getAuth(app).revokeRefreshTokens(uid)
  const user = await getAuth(app).getUser(uid)
  await getAuth(app).setCustomUserClaims(uid, { ...user.customClaims, revoked: Math.floor(Date.now() / 1000) })
  await getFirestore(app).doc(`users_access/${uid}`).update({ 'claims.revoked': FieldValue.serverTimestamp() })
}

/** Turns company service switches on or off, as an administrator editing the company would. */
export async function setCompanyFlags(slug: string, flags: Record<string, boolean>): Promise<void> {
  await getFirestore(app)
    .doc(`companies/${slug}`)
    .update({ ...flags, updatedAt: FieldValue.serverTimestamp(), updatedBy: 'e2e-admin@sectest.example' })
}

/** The user's preferences document as stored. */
export async function preferencesOf(uid: string): Promise<Record<string, unknown>> {
  return (await getFirestore(app).doc(`users_preferences/${uid}`).get()).data() ?? {}
}

/** Changes the user's preferences from elsewhere (another of their browsers, say). */
export async function setPreferences(uid: string, changes: Record<string, unknown>): Promise<void> {
  await getFirestore(app)
    .doc(`users_preferences/${uid}`)
    .set({ ...changes, updatedAt: FieldValue.serverTimestamp() }, { merge: true })
}

/**
 * Opens new sign-in rate-limit windows. The suite signs in far more often than a person would
 * (the limits themselves are tested against the emulators in tests/emulators).
 */
export async function resetSignInRateLimits(): Promise<void> {
  await getFirestore(app).recursiveDelete(getFirestore(app).collection('rate_limits'))
}

/** A document as stored, or null when there is none. */
export async function documentOf(path: string): Promise<Record<string, unknown> | null> {
  return (await getFirestore(app).doc(path).get()).data() ?? null
}
