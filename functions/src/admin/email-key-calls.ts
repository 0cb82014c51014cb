// createEmailKey and revokeEmailKey: platform admins open an address or a domain for first
// sign-ins into a company, and close it again. One key in use per address or domain.
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { companyPath } from '#domain/companies.ts'
import { EMAIL_KEYS_COLLECTION, emailKeyFromDocument, emailKeyMessages, emailKeyPath, emailKeyUsable } from '#domain/email-keys.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { recordAuditEvent } from './audit.ts'

export const createEmailKey = defineCallable('createEmailKey', {}, async (caller, request) => {
  const db = adminDb()
  const ref = db.collection(EMAIL_KEYS_COLLECTION).doc()
  await db.runTransaction(async (tx) => {
    const company = await tx.get(db.doc(companyPath(request.company)))
    if (!company.exists) throw new HttpsError('invalid-argument', emailKeyMessages.company)
    const same = await tx.get(db.collection(EMAIL_KEYS_COLLECTION).where('match', '==', request.match))
    const now = Date.now()
    if (
      same.docs.some((doc) => {
        const key = emailKeyFromDocument(doc.data())
        return key !== null && emailKeyUsable(key, now)
      })
    ) {
      throw new HttpsError('already-exists', emailKeyMessages.exists)
    }
    const key = {
      match: request.match,
      company: request.company,
      userType: request.userType,
      accessLevel: request.accessLevel,
      expiresAt: Timestamp.fromMillis(request.expiresAt),
      uses: 0,
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
      createdAt: FieldValue.serverTimestamp(),
      createdBy: caller.email ?? caller.uid,
    }
    tx.create(ref, key)
    recordAuditEvent(db, tx, {
      actor: { uid: caller.uid, email: caller.email },
      action: 'email_key.created',
      target: { kind: 'email_key', id: ref.id, label: request.match },
      companyId: request.company,
      before: null,
      after: {
        match: request.match,
        company: request.company,
        userType: request.userType,
        accessLevel: request.accessLevel,
        expiresAt: request.expiresAt,
      },
    })
  })
  return { id: ref.id }
})

export const revokeEmailKey = defineCallable('revokeEmailKey', {}, async (caller, { id }) => {
  const db = adminDb()
  const ref = db.doc(emailKeyPath(id))
  const revoked = await db.runTransaction(async (tx) => {
    const snapshot = await tx.get(ref)
    const key = snapshot.exists ? emailKeyFromDocument(snapshot.data()) : null
    if (!key) throw new HttpsError('not-found', emailKeyMessages.noKey)
    if (key.revokedAt !== null) return false
    tx.update(ref, { revokedAt: FieldValue.serverTimestamp(), revokedBy: caller.email ?? caller.uid })
    recordAuditEvent(db, tx, {
      actor: { uid: caller.uid, email: caller.email },
      action: 'email_key.revoked',
      target: { kind: 'email_key', id, label: key.match },
      companyId: key.company,
      before: { revoked: false },
      after: { revoked: true },
    })
    return true
  })
  return { revoked }
})
