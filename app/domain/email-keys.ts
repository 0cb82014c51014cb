// email_keys/{id}: an address, or a whole domain, that a platform admin opened for sign-up, with
// the company and access its first sign-in receives (DESIGN.md section 5).
import * as v from 'valibot'
import { accessGrantEntries, consistentGrant } from './users-access.ts'

export const EMAIL_KEYS_COLLECTION = 'email_keys'

export const emailKeyPath = (id: string) => `${EMAIL_KEYS_COLLECTION}/${id}`

const EmailKeySchema = v.pipe(
  v.object({
    // 'alice@x.example' or '@x.example', lowercase.
    match: v.string(),
    company: v.pipe(v.string(), v.minLength(1)),
    ...accessGrantEntries,
  }),
  // A key grants no more than a person could hold: analyst levels to analysts only.
  consistentGrant(),
)

export type EmailKey = v.InferOutput<typeof EmailKeySchema>

/** The key an email_keys document holds, or null when it is malformed. */
export function emailKeyFromDocument(data: unknown): EmailKey | null {
  const parsed = v.safeParse(EmailKeySchema, data)
  return parsed.success ? parsed.output : null
}

/** The `match` values that open an address: the address itself, then its domain. */
export function emailKeyMatches(email: string): [string, string] {
  const address = email.toLowerCase()
  return [address, address.slice(address.lastIndexOf('@'))]
}
