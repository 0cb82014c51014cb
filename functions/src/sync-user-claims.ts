// syncUserClaims: the one path from users_access to the ID token. Every write of users_access/{uid},
// by whichever function, script or console, sets the custom claims the rules, callables and edge go
// by and marks the document synced; a demotion, a removal or a document that asks for it also ends
// every sign-in (refresh tokens revoked, `revoked` claim and `claims.revoked` set). handleSignIn
// runs the same sync. It writes the document only when something changed, so its own write ends
// the chain of triggers.
import './options.ts'
import { Timestamp, FieldValue, type Firestore } from 'firebase-admin/firestore'
import type { Auth } from 'firebase-admin/auth'
import * as logger from 'firebase-functions/logger'
import { onDocumentWritten } from 'firebase-functions/v2/firestore'
import { planClaims, USERS_ACCESS_COLLECTION, userAccessPath } from '#domain/users-access.ts'
import { adminAuth, adminDb } from './admin.ts'

export interface ClaimsSync {
  /** The claims were set (and the document marked synced). */
  changed: boolean
  /** Every sign-in before this time (seconds) was revoked; null when nothing was revoked. */
  revokedAt: number | null
}

const codeOf = (error: unknown) => (typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined)

async function markSynced(db: Firestore, uid: string, revokedAt: number | null): Promise<void> {
  const marks: Record<string, unknown> = { 'claims.synced': FieldValue.serverTimestamp() }
  if (revokedAt !== null) marks['claims.revoked'] = Timestamp.fromMillis(revokedAt * 1000)
  try {
    await db.doc(userAccessPath(uid)).update(marks)
  } catch (error) {
    // Deleted meanwhile: its own trigger removes the claims.
    if (codeOf(error) !== 5) throw error
  }
}

/**
 * Brings the Auth user's claims in line with `document` (users_access as stored now, null when
 * there is none). Null when the Auth user does not exist (yet, or any more). `markSynced` marks the
 * document synced even when the claims already matched (a sign-in: the browser waits for it).
 */
export async function syncClaims(
  auth: Auth,
  db: Firestore,
  uid: string,
  document: unknown,
  options: { markSynced?: boolean } = {},
): Promise<ClaimsSync | null> {
  try {
    return await sync(auth, db, uid, document, options.markSynced ?? false)
  } catch (error) {
    // Deleted before or during the sync: nobody holds the claims any more.
    if (codeOf(error) === 'auth/user-not-found') return null
    throw error
  }
}

async function sync(auth: Auth, db: Firestore, uid: string, document: unknown, markSyncedAnyway: boolean): Promise<ClaimsSync> {
  const user = await auth.getUser(uid)
  const plan = planClaims(user.customClaims ?? {}, document)
  if (!plan.changed && !plan.revoke) {
    if (markSyncedAnyway && document != null) await markSynced(db, uid, null)
    return { changed: false, revokedAt: null }
  }

  let claims = plan.claims
  let revokedAt: number | null = null
  if (plan.revoke) {
    await auth.revokeRefreshTokens(uid)
    // Auth's own revocation time, so the claim, the document and Auth agree to the second.
    const validAfter = Date.parse((await auth.getUser(uid)).tokensValidAfterTime ?? '')
    revokedAt = Math.floor((Number.isFinite(validAfter) ? validAfter : Date.now()) / 1000)
    claims = { ...claims, revoked: revokedAt }
  }
  await auth.setCustomUserClaims(uid, claims)

  // After the claims: a client that sees `synced` move refreshes its token and gets them.
  if (document != null) await markSynced(db, uid, revokedAt)
  return { changed: true, revokedAt }
}

export const syncUserClaims = onDocumentWritten({ document: `${USERS_ACCESS_COLLECTION}/{uid}`, retry: true }, async (event) => {
  const { uid } = event.params
  const db = adminDb()
  // The document as it is now, not as the event saw it: late or repeated events converge.
  const snapshot = await db.doc(userAccessPath(uid)).get()
  const outcome = await syncClaims(adminAuth(), db, uid, snapshot.exists ? snapshot.data() : null)
  if (outcome?.revokedAt) logger.info('syncUserClaims: sign-ins revoked', { uid, revokedAt: outcome.revokedAt })
  else logger.debug('syncUserClaims', { uid, outcome })
})
