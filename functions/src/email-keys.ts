// The email key that lets an address sign up (email-keys.ts of the domain holds the document).
import type { Firestore, Transaction } from 'firebase-admin/firestore'
import { EMAIL_KEYS_COLLECTION, emailKeyFromDocument, emailKeyMatches, pickEmailKey, type EmailKey } from '#domain/email-keys.ts'

export interface FoundEmailKey {
  id: string
  key: EmailKey
}

// The key for an address now: one for the exact address wins over one for its domain; revoked,
// expired and malformed keys, and domain keys on consumer mail domains, are skipped. With `tx`,
// the read is part of that transaction.
export async function findEmailKey(db: Firestore, email: string, tx?: Transaction): Promise<FoundEmailKey | null> {
  const query = db.collection(EMAIL_KEYS_COLLECTION).where('match', 'in', emailKeyMatches(email)).limit(50)
  const snapshot = tx ? await tx.get(query) : await query.get()
  const keys = snapshot.docs.flatMap((doc) => {
    const key = emailKeyFromDocument(doc.data())
    return key ? [{ id: doc.id, key }] : []
  })
  return pickEmailKey(keys, email, Date.now())
}
