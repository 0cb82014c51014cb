// Email keys: an address or a whole domain that an administrator opened for sign-up, with the
// company and access a first sign-in receives (collection email_keys).
import type { Firestore, Transaction } from 'firebase-admin/firestore'
import * as v from 'valibot'
import { UserTypeSchema } from '#domain/sign-in.ts'

export const EMAIL_KEYS_COLLECTION = 'email_keys'

const EmailKeySchema = v.object({
  // 'alice@x.example' or '@x.example', lowercase.
  match: v.string(),
  company: v.pipe(v.string(), v.minLength(1)),
  accessLevel: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(9)),
  userType: UserTypeSchema,
})

export type EmailKey = v.InferOutput<typeof EmailKeySchema>

// The `match` values that open an address: the address itself, then its domain.
export function emailKeyMatches(email: string): [string, string] {
  const address = email.toLowerCase()
  return [address, address.slice(address.lastIndexOf('@'))]
}

// The key for an address: one for the exact address wins over one for its domain. Malformed key
// documents are skipped. With `tx`, the read is part of that transaction.
export async function findEmailKey(db: Firestore, email: string, tx?: Transaction): Promise<EmailKey | null> {
  const matches = emailKeyMatches(email)
  const query = db.collection(EMAIL_KEYS_COLLECTION).where('match', 'in', matches).limit(20)
  const snapshot = tx ? await tx.get(query) : await query.get()
  const keys = snapshot.docs.flatMap((doc) => {
    const result = v.safeParse(EmailKeySchema, doc.data())
    return result.success ? [result.output] : []
  })
  for (const match of matches) {
    const key = keys.find((k) => k.match === match)
    if (key) return key
  }
  return null
}
