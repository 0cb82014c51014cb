// The email key that lets an address sign up (email-keys.ts of the domain holds the document).
import type { Firestore, Transaction } from 'firebase-admin/firestore'
import { EMAIL_KEYS_COLLECTION, emailKeyFromDocument, emailKeyMatches, type EmailKey } from '#domain/email-keys.ts'

// The key for an address: one for the exact address wins over one for its domain. Malformed key
// documents are skipped. With `tx`, the read is part of that transaction.
export async function findEmailKey(db: Firestore, email: string, tx?: Transaction): Promise<EmailKey | null> {
  const matches = emailKeyMatches(email)
  const query = db.collection(EMAIL_KEYS_COLLECTION).where('match', 'in', matches).limit(20)
  const snapshot = tx ? await tx.get(query) : await query.get()
  const keys = snapshot.docs.flatMap((doc) => emailKeyFromDocument(doc.data()) ?? [])
  for (const match of matches) {
    const key = keys.find((k) => k.match === match)
    if (key) return key
  }
  return null
}
