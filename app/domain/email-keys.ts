// email_keys/{id}: an address, or a whole domain, that a platform admin opened for sign-up, with
// the company and access its first sign-in receives. An exact address beats
// its domain; a key expires, counts its uses and can be revoked; consumer mail domains never get
// a domain key, as anyone can own an address there.
import * as v from 'valibot'
import { LEVEL, USER_TYPES } from './access.ts'
import { TimestampSchema } from './stored.ts'
import { accessGrantEntries, consistentGrant } from './users-access.ts'

export const EMAIL_KEYS_COLLECTION = 'email_keys'

export const emailKeyPath = (id: string) => `${EMAIL_KEYS_COLLECTION}/${id}`

const DAY_MS = 24 * 3600_000

/** A key this close to its expiry reads "expiring soon" (and counts on /admin). */
export const EMAIL_KEY_EXPIRING_MS = 14 * DAY_MS

/** How far ahead a key may expire. */
export const EMAIL_KEY_MAX_LIFETIME_MS = 365 * DAY_MS

/** Domains where anyone can get an address: a domain key there would let in the whole world. */
export const CONSUMER_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'aol.com',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.co.uk',
  'hotmail.com',
  'hotmail.fr',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'tutanota.com',
  'web.de',
  'yahoo.co.uk',
  'yahoo.com',
  'yahoo.fr',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
])

export const isConsumerMailDomain = (domain: string) => CONSUMER_MAIL_DOMAINS.has(domain.toLowerCase().replace(/^@/, ''))

const StoredEmailKeySchema = v.pipe(
  v.object({
    // 'alice@x.example' or '@x.example', lowercase.
    match: v.string(),
    company: v.pipe(v.string(), v.minLength(1)),
    ...accessGrantEntries,
    // Keys written before expiries existed have none.
    expiresAt: v.optional(v.nullable(TimestampSchema), null),
    uses: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
    lastUsedAt: v.optional(v.nullable(TimestampSchema), null),
    revokedAt: v.optional(v.nullable(TimestampSchema), null),
    revokedBy: v.optional(v.nullable(v.string()), null),
    createdAt: v.optional(v.nullable(TimestampSchema), null),
    createdBy: v.optional(v.nullable(v.string()), null),
  }),
  // A key grants no more than a person could hold: analyst levels to analysts only.
  consistentGrant(),
)

export type EmailKey = v.InferOutput<typeof StoredEmailKeySchema>

/** The key an email_keys document holds, or null when it is malformed. */
export function emailKeyFromDocument(data: unknown): EmailKey | null {
  const parsed = v.safeParse(StoredEmailKeySchema, data)
  return parsed.success ? parsed.output : null
}

/** The `match` values that open an address: the address itself, then its domain. */
export function emailKeyMatches(email: string): [string, string] {
  const address = email.toLowerCase()
  return [address, address.slice(address.lastIndexOf('@'))]
}

export const isDomainMatch = (match: string) => match.startsWith('@')

export type EmailKeyState = 'active' | 'expiring' | 'expired' | 'revoked'

export function emailKeyState(key: Pick<EmailKey, 'expiresAt' | 'revokedAt'>, now: number): EmailKeyState {
  if (key.revokedAt !== null) return 'revoked'
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired'
  if (key.expiresAt !== null && key.expiresAt - now <= EMAIL_KEY_EXPIRING_MS) return 'expiring'
  return 'active'
}

/** Whether a key lets a first sign-in in now: not revoked, not expired, and no domain key on a consumer domain. */
export const emailKeyUsable = (key: EmailKey, now: number) =>
  emailKeyState(key, now) !== 'revoked' &&
  emailKeyState(key, now) !== 'expired' &&
  !(isDomainMatch(key.match) && isConsumerMailDomain(key.match))

/**
 * The key among `keys` that opens `email` now: one for the exact address wins over one for its
 * domain; among several for the same match, the newest.
 */
export function pickEmailKey<K extends { key: EmailKey }>(keys: readonly K[], email: string, now: number): K | null {
  for (const match of emailKeyMatches(email)) {
    const usable = keys.filter(({ key }) => key.match === match && emailKeyUsable(key, now))
    usable.sort((a, b) => (b.key.createdAt ?? 0) - (a.key.createdAt ?? 0))
    if (usable[0]) return usable[0]
  }
  return null
}

export const emailKeyMessages = {
  match: 'Enter an address (name@example.com) or a domain (@example.com)',
  consumer: 'Personal mail domains cannot have a domain key: add the exact address instead',
  company: 'Choose a company',
  level: 'Choose a level',
  typeLevel: 'Clients have level 1 to 3, analysts 5 to 9',
  expiry: 'Choose an expiry within the next 365 days',
  exists: 'This address or domain already has a key in use: revoke it first',
  noKey: 'No such key',
} as const

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** A domain's ASCII form (IDN to punycode), or null when it is not a domain with at least two labels. */
function asciiDomain(domain: string): string | null {
  let host: string
  try {
    host = new URL(`http://${domain}`).hostname
  } catch {
    return null
  }
  if (host !== host.replace(/\.$/, '') || host.length > 253) return null
  const labels = host.split('.')
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1) ?? '') ? host : null
}

/** 'Alice@Example.COM', '@example.com' or 'example.com.' as stored: 'alice@example.com' or '@example.com'; null when neither. */
export function normaliseEmailKeyMatch(input: string): string | null {
  const text = input.trim().toLowerCase().replace(/\.$/, '')
  const at = text.lastIndexOf('@')
  const local = at > 0 ? text.slice(0, at) : ''
  if (at > 0 && /[\s@]/.test(local)) return null
  const domain = asciiDomain(at >= 0 ? text.slice(at + 1) : text)
  if (!domain) return null
  return at > 0 ? `${local}@${domain}` : `@${domain}`
}

export const EmailKeyMatchSchema = v.pipe(
  v.string(emailKeyMessages.match),
  v.maxLength(254, emailKeyMessages.match),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const match = normaliseEmailKeyMatch(dataset.value)
    if (match === null) {
      addIssue({ message: emailKeyMessages.match })
      return NEVER
    }
    return match
  }),
  v.check((match) => !(isDomainMatch(match) && isConsumerMailDomain(match)), emailKeyMessages.consumer),
)

const CLIENT_LEVELS: number[] = [LEVEL.clientViewer, LEVEL.clientManager, LEVEL.companyAdmin]

/** A level fits its type: clients 1 to 3, analysts 5 to 9. */
export const levelFitsType = (accessLevel: number, userType: string) =>
  userType === 'client'
    ? CLIENT_LEVELS.includes(accessLevel)
    : Object.values(LEVEL).includes(accessLevel as never) && accessLevel >= LEVEL.analyst

export const CreateEmailKeyRequestSchema = v.pipe(
  v.strictObject({
    match: EmailKeyMatchSchema,
    company: v.pipe(
      v.string(emailKeyMessages.company),
      v.trim(),
      v.minLength(1, emailKeyMessages.company),
      v.maxLength(100, emailKeyMessages.company),
    ),
    userType: v.picklist(USER_TYPES, emailKeyMessages.level),
    accessLevel: v.pipe(v.number(emailKeyMessages.level), v.integer(emailKeyMessages.level)),
    /** Epoch milliseconds. */
    expiresAt: v.pipe(
      v.number(emailKeyMessages.expiry),
      v.check((at) => Number.isFinite(at) && at > Date.now() && at <= Date.now() + EMAIL_KEY_MAX_LIFETIME_MS, emailKeyMessages.expiry),
    ),
  }),
  v.forward(
    v.check(({ accessLevel, userType }) => levelFitsType(accessLevel, userType), emailKeyMessages.typeLevel),
    ['accessLevel'],
  ),
)

export type CreateEmailKeyRequest = v.InferInput<typeof CreateEmailKeyRequestSchema>

export const CreateEmailKeyResponseSchema = v.strictObject({ id: v.string() })

export const RevokeEmailKeyRequestSchema = v.strictObject({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) })

export const RevokeEmailKeyResponseSchema = v.strictObject({ revoked: v.boolean() })

/** An email key as /admin/keys_email lists it. */
export interface EmailKeyRow extends EmailKey {
  id: string
}

export const emailKeyRowFromDocument = (id: string, data: unknown): EmailKeyRow | null => {
  const key = emailKeyFromDocument(data)
  return key ? { id, ...key } : null
}
