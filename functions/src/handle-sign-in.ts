// handleSignIn: called by the browser right after it completed an email-link sign-in. Provisions
// a first sign-in through an email key, brings the ID token's custom claims in line with the
// access document (the sync syncUserClaims runs on every write of it) and records the sign-in.
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { newEventDocument, EVENTS_COLLECTION } from '#domain/events.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import {
  accessGrant,
  newUserAccessDocument,
  storedEmail,
  USERS_ACCESS_COLLECTION,
  userAccessPath,
  type HandleSignInResponse,
} from '#domain/users-access.ts'
import { emailKeyPath } from '#domain/email-keys.ts'
import { adminAuth, adminDb } from './admin.ts'
import { recordAuditEvent } from './admin/audit.ts'
import { defineCallable } from './define-callable.ts'
import { findEmailKey } from './email-keys.ts'
import { syncClaims } from './sync-user-claims.ts'

// The access of `uid`: from users_access, or, on the first sign-in of an address that matches
// an email key, from a users_access (and users_preferences) created now. Null: no access.
// `address` is the account's, verified or not: a document written before users_access kept it
// (or by hand) gets it now, and so comes into the people lists.
async function accessOf(db: Firestore, uid: string, email: string | null, address: string | null): Promise<HandleSignInResponse | null> {
  const accessRef = db.doc(userAccessPath(uid))
  return db.runTransaction(async (tx) => {
    const access = await tx.get(accessRef)
    if (access.exists) {
      const grant = accessGrant(access.data())
      if (grant) {
        if (address !== null && access.get('email') !== storedEmail(address)) tx.update(accessRef, { email: storedEmail(address) })
        return grant
      }
      logger.error(`handleSignIn: ${USERS_ACCESS_COLLECTION} has no valid claims`, { uid })
      return null
    }
    if (!email) return null
    const found = await findEmailKey(db, email, tx)
    if (!found) return null
    const { id: keyId, key } = found
    const preferencesRef = db.doc(userPreferencesPath(uid))
    const preferences = await tx.get(preferencesRef)
    tx.create(accessRef, {
      ...newUserAccessDocument(key, [key.company], email),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: 'system',
    })
    if (!preferences.exists) tx.set(preferencesRef, { defaultCompany: key.company })
    tx.update(db.doc(emailKeyPath(keyId)), { uses: FieldValue.increment(1), lastUsedAt: FieldValue.serverTimestamp() })
    recordAuditEvent(db, tx, {
      actor: { uid, email },
      action: 'email_key.used',
      target: { kind: 'email_key', id: keyId, label: key.match },
      companyId: key.company,
      before: null,
      after: { uid, email, company: key.company, userType: key.userType, accessLevel: key.accessLevel },
    })
    logger.info('handleSignIn: provisioned through an email key', { uid, company: key.company })
    return { accessLevel: key.accessLevel, userType: key.userType }
  })
}

export const handleSignIn = defineCallable('handleSignIn', {}, async ({ uid, token }) => {
  // Only an address the link proved may be matched against the email keys.
  const email = token.email_verified === true && typeof token.email === 'string' ? token.email.toLowerCase() : null

  const db = adminDb()
  const auth = adminAuth()
  const access = await accessOf(db, uid, email, typeof token.email === 'string' ? token.email : null)
  if (!access) throw new HttpsError('permission-denied', 'You are not currently authorized to use this workspace.')

  // Other claims (e.g. revoked) stay; the access ones follow the document. The trigger would do the
  // same a moment later, but the browser refreshes its token as soon as this answers.
  const stored = await db.doc(userAccessPath(uid)).get()
  await syncClaims(auth, db, uid, stored.exists ? stored.data() : null, { markSynced: true })
  await db.collection(EVENTS_COLLECTION).add(newEventDocument('sign_in', uid, FieldValue.serverTimestamp()))
  return access
})
