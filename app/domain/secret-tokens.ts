// The format every company token shares (DAST keys, API tokens): `<prefix><id><secret><checksum>`.
// - prefix: fixed per kind (`bwk_dast_`, `bwk_api_`), so people and secret scanners recognise a
//   leaked token and what it is;
// - id: 16 base62 characters, the token document's id, so a token is found by one read;
// - secret: 40 base62 characters (about 238 random bits);
// - checksum: CRC-32 of everything before it, 6 base62 characters, so a mistyped or truncated
//   token is refused before any read, and scanners tell a real token from a look-alike offline.
// Shown once; stored only as a keyed hash (functions/src/admin/secret-tokens.ts). Decisions 0024, 0050.

import * as v from 'valibot'
import { DAY_MS } from './sla.ts'
import { TimestampSchema } from './stored.ts'

const ID_LENGTH = 16
const SECRET_LENGTH = 40
const CHECKSUM_LENGTH = 6

export const TOKEN_ID_PATTERN = new RegExp(`^[0-9A-Za-z]{${ID_LENGTH}}$`)

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** CRC-32 (IEEE) of the text's UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return (crc ^ 0xffffffff) >>> 0
}

function base62(value: number, width: number): string {
  let out = ''
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out
  return out.padStart(width, '0')
}

/** The checksum of everything before it in a token. */
export const tokenChecksum = (body: string) => base62(crc32(body), CHECKSUM_LENGTH)

/** Random base62 characters, without modulo bias (bytes of 248 and above are drawn again). */
export function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

export interface TokenFormat {
  prefix: string
  /** A new token: its document id and the whole token, to be shown once and stored only as a keyed hash. */
  issue(): { id: string; token: string }
  /** The token's id when the text is a well-formed token of this kind whose checksum holds; null for anything else. */
  parse(text: string): { id: string } | null
  /** What a list shows of a token: its prefix and id, then its last four characters. */
  hint(id: string, last4: string): string
}

export function tokenFormat(prefix: string): TokenFormat {
  const pattern = new RegExp(`^${prefix}([0-9A-Za-z]{${ID_LENGTH}})([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`)
  return {
    prefix,
    issue() {
      const id = randomBase62(ID_LENGTH)
      const body = `${prefix}${id}${randomBase62(SECRET_LENGTH)}`
      return { id, token: body + tokenChecksum(body) }
    },
    parse(text) {
      const match = pattern.exec(text)
      if (!match) return null
      return tokenChecksum(text.slice(0, -CHECKSUM_LENGTH)) === match[3] ? { id: match[1]! } : null
    },
    hint: (id, last4) => `${prefix}${id}…${last4}`,
  }
}

export type TokenStatus = 'active' | 'expired' | 'revoked'

/** A token's state now: revoked, expired (also without an expiry), else active. */
export function tokenStatus(token: { revokedAt: number | null; expiresAt: number | null }, now: number): TokenStatus {
  if (token.revokedAt !== null) return 'revoked'
  if (token.expiresAt === null || token.expiresAt <= now) return 'expired'
  return 'active'
}

export const tokenStatusLabels: Record<TokenStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }

/** A token's expiry, `days` from now (epoch milliseconds). */
export const expiryFrom = (now: number, days: number) => now + days * DAY_MS

/** What every token's document says beside its kind's own fields (times as the writer's SDK stores them). */
export const newTokenFields = <Time>(
  prefix: string,
  token: { id: string; company: string; name: string; last4: string; expiresAt: Time; createdAt: Time; createdBy: string },
) => ({
  company: token.company,
  name: token.name,
  prefix: `${prefix}${token.id}`,
  last4: token.last4,
  expiresAt: token.expiresAt,
  createdAt: token.createdAt,
  createdBy: token.createdBy,
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: null,
  lastUsedIp: null,
})

/** The stored fields every token's document has, as read back (a kind adds its own). */
export const storedTokenEntries = {
  company: v.string(),
  name: v.optional(v.string(), ''),
  last4: v.optional(v.string(), ''),
  expiresAt: v.optional(v.nullable(TimestampSchema), null),
  createdAt: v.optional(v.nullable(TimestampSchema), null),
  createdBy: v.optional(v.string(), ''),
  revokedAt: v.optional(v.nullable(TimestampSchema), null),
  revokedBy: v.optional(v.nullable(v.string()), null),
  lastUsedAt: v.optional(v.nullable(TimestampSchema), null),
  lastUsedIp: v.optional(v.nullable(v.string()), null),
}

/** A token as a page shows it: the stored fields and its hint. */
export interface StoredToken {
  id: string
  company: string
  name: string
  /** `<prefix><id>…<last4>`: enough to recognise the token, never enough to use it. */
  hint: string
  /** Epoch milliseconds; a token without an expiry counts as expired. */
  expiresAt: number | null
  createdAt: number | null
  createdBy: string
  revokedAt: number | null
  revokedBy: string | null
  lastUsedAt: number | null
  lastUsedIp: string | null
}
