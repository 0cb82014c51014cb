// dast_keys/{id}: keys a company's CI pipelines present to trigger DAST scans (/admin/dast). A key
// reads `bwk_dast_<id><secret><checksum>`:
// - `bwk_dast_`: the prefix, so people and secret scanners recognise a leaked key;
// - id: 16 base62 characters, the document id, so a key is looked up without a scan;
// - secret: 40 base62 characters (about 238 random bits);
// - checksum: CRC32 of everything before it, 6 base62 characters, so a mistyped or truncated key is
//   refused before any lookup and scanners can tell a real key from a look-alike.
// The key is shown once, when made. The key document holds what its page shows (name, targets,
// expiry, last use, revocation, the key's first and last characters); the keyed hash
// (HMAC-SHA-256 with the functions' DAST_KEY_SECRET) sits apart in dast_key_hashes/{id}, which no
// client reads. functions/src/admin/dast-keys.ts `verifyDastKey` checks a presented key.
import * as v from 'valibot'
import { CompanySlugSchema } from './company-admin.ts'
import { canonicalScanTarget, guessScopeKind, parseScopeEntry, type ScopeEntry } from './scan-scope.ts'
import { DAY_MS } from './sla.ts'
import { TimestampSchema } from './stored.ts'

export const DAST_KEYS_COLLECTION = 'dast_keys'
export const DAST_KEY_HASHES_COLLECTION = 'dast_key_hashes'

export const dastKeyPath = (id: string) => `${DAST_KEYS_COLLECTION}/${id}`
export const dastKeyHashPath = (id: string) => `${DAST_KEY_HASHES_COLLECTION}/${id}`
/**
 * dast_key_slots/{keyId}_{n}: the job each of a key's scans-at-once slots holds, taken in the same
 * transaction that queues the job, so two requests at once cannot both take the last slot. A slot
 * whose job has finished is free. Written by the functions only; no rule lets anyone read them.
 */
export const DAST_KEY_SLOTS_COLLECTION = 'dast_key_slots'
export const dastKeySlotPath = (keyId: string, slot: number) => `${DAST_KEY_SLOTS_COLLECTION}/${keyId}_${slot}`

export const DAST_KEY_PREFIX = 'bwk_dast_'
const ID_LENGTH = 16
const SECRET_LENGTH = 40
const CHECKSUM_LENGTH = 6
const TOKEN_PATTERN = new RegExp(
  `^${DAST_KEY_PREFIX}([0-9A-Za-z]{${ID_LENGTH}})([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
)
export const DAST_KEY_ID_PATTERN = new RegExp(`^[0-9A-Za-z]{${ID_LENGTH}}$`)

export const DAST_KEY_LIMITS = { name: 80, maxExpiryDays: 365, targets: 50 } as const

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

/** The checksum of everything before it in a key. */
export const dastKeyChecksum = (body: string) => base62(crc32(body), CHECKSUM_LENGTH)
const checksumOf = dastKeyChecksum

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

/** A new key: its document id and the whole key, to be shown once and stored only as a keyed hash. */
export function newDastKeyToken(): { id: string; token: string } {
  const id = randomBase62(ID_LENGTH)
  const body = `${DAST_KEY_PREFIX}${id}${randomBase62(SECRET_LENGTH)}`
  return { id, token: body + checksumOf(body) }
}

/** The key's id when the text is a well-formed key whose checksum holds; null for anything else. */
export function parseDastKeyToken(text: string): { id: string } | null {
  const match = TOKEN_PATTERN.exec(text)
  if (!match) return null
  const body = text.slice(0, -CHECKSUM_LENGTH)
  return checksumOf(body) === match[3] ? { id: match[1]! } : null
}

/** What a list shows of a key: its prefix and id, then its last four characters. */
export const dastKeyHint = (id: string, last4: string) => `${DAST_KEY_PREFIX}${id}…${last4}`

export const dastKeyMessages = {
  nameRequired: 'Name the key after the pipeline that uses it.',
  nameTooLong: `A key name has at most ${DAST_KEY_LIMITS.name} characters.`,
  expiry: `A key expires after 1 to ${DAST_KEY_LIMITS.maxExpiryDays} days.`,
  targetsRequired: 'Name at least one target the key may scan.',
  tooManyTargets: `A key names at most ${DAST_KEY_LIMITS.targets} targets.`,
  target: (text: string) => `${text} is not a target: enter a host name, an IP address or range, or an http(s) URL.`,
  outOfScope: (text: string) => `${text} is outside the company's scan scope.`,
  duplicateTarget: 'Each target appears only once.',
  noKey: 'There is no such DAST key.',
  notTriggering: 'DAST triggering is not turned on for this company.',
  notSetUp: 'DAST keys are not set up on this server (DAST_KEY_SECRET).',
} as const

/** A target as a scope entry of its own kind: what the key may scan is then matched like a scope. */
export function targetAsScopeEntry(text: string): ScopeEntry | null {
  if (canonicalScanTarget(text) === null) return null
  const parsed = parseScopeEntry(guessScopeKind(text), text)
  return 'entry' in parsed ? parsed.entry : null
}

export const DastKeyTargetSchema = v.pipe(
  v.string(dastKeyMessages.targetsRequired),
  v.trim(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const entry = targetAsScopeEntry(dataset.value)
    if (!entry) {
      addIssue({ message: dastKeyMessages.target(dataset.value) })
      return NEVER
    }
    return entry.value
  }),
)

export const CreateDastKeyRequestSchema = v.strictObject({
  company: CompanySlugSchema,
  name: v.pipe(
    v.string(dastKeyMessages.nameRequired),
    v.trim(),
    v.minLength(1, dastKeyMessages.nameRequired),
    v.maxLength(DAST_KEY_LIMITS.name, dastKeyMessages.nameTooLong),
  ),
  expiresInDays: v.pipe(
    v.number(dastKeyMessages.expiry),
    v.integer(dastKeyMessages.expiry),
    v.minValue(1, dastKeyMessages.expiry),
    v.maxValue(DAST_KEY_LIMITS.maxExpiryDays, dastKeyMessages.expiry),
  ),
  allowedTargets: v.pipe(
    v.array(DastKeyTargetSchema, dastKeyMessages.targetsRequired),
    v.minLength(1, dastKeyMessages.targetsRequired),
    v.maxLength(DAST_KEY_LIMITS.targets, dastKeyMessages.tooManyTargets),
    v.check((targets) => new Set(targets).size === targets.length, dastKeyMessages.duplicateTarget),
  ),
  /** The company's choice for this key's scans: published to its reports as soon as they end, without an analyst's review. */
  publishAtOnce: v.optional(v.boolean(), false),
})
export type CreateDastKeyRequest = v.InferInput<typeof CreateDastKeyRequestSchema>

export const CreateDastKeyResponseSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(DAST_KEY_ID_PATTERN)),
  token: v.pipe(
    v.string(),
    v.check((token) => parseDastKeyToken(token) !== null, 'Expected a DAST key'),
  ),
})

export const RevokeDastKeyRequestSchema = v.strictObject({
  id: v.pipe(v.string(dastKeyMessages.noKey), v.regex(DAST_KEY_ID_PATTERN, dastKeyMessages.noKey)),
})
export const RevokeDastKeyResponseSchema = v.strictObject({ revoked: v.boolean() })

export const expiryFrom = (now: number, days: number) => now + days * DAY_MS

/** The stored key document (times as the writer's SDK stores them). */
export const newDastKeyDocument = <Time>(key: {
  id: string
  company: string
  name: string
  last4: string
  allowedTargets: readonly string[]
  publishAtOnce?: boolean
  expiresAt: Time
  createdAt: Time
  createdBy: string
}) => ({
  company: key.company,
  name: key.name,
  prefix: `${DAST_KEY_PREFIX}${key.id}`,
  last4: key.last4,
  allowedTargets: [...key.allowedTargets],
  publishAtOnce: key.publishAtOnce ?? false,
  expiresAt: key.expiresAt,
  createdAt: key.createdAt,
  createdBy: key.createdBy,
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: null,
  lastUsedIp: null,
})

const StoredDastKeySchema = v.object({
  company: v.string(),
  name: v.optional(v.string(), ''),
  last4: v.optional(v.string(), ''),
  allowedTargets: v.optional(v.array(v.string()), []),
  publishAtOnce: v.optional(v.boolean(), false),
  expiresAt: v.optional(v.nullable(TimestampSchema), null),
  createdAt: v.optional(v.nullable(TimestampSchema), null),
  createdBy: v.optional(v.string(), ''),
  revokedAt: v.optional(v.nullable(TimestampSchema), null),
  revokedBy: v.optional(v.nullable(v.string()), null),
  lastUsedAt: v.optional(v.nullable(TimestampSchema), null),
  lastUsedIp: v.optional(v.nullable(v.string()), null),
})

export interface DastKey {
  id: string
  company: string
  name: string
  /** `bwk_dast_<id>…<last4>`: enough to recognise the key, never enough to use it. */
  hint: string
  allowedTargets: string[]
  /** Scans this key triggers are published at once (the company's choice), else they wait for an analyst as drafts. */
  publishAtOnce: boolean
  /** Epoch milliseconds; a key without an expiry counts as expired. */
  expiresAt: number | null
  createdAt: number | null
  createdBy: string
  revokedAt: number | null
  revokedBy: string | null
  lastUsedAt: number | null
  lastUsedIp: string | null
}

export function dastKeyFromDocument(id: string, data: unknown): DastKey | null {
  const parsed = v.safeParse(StoredDastKeySchema, data ?? {})
  if (!parsed.success) return null
  const key = parsed.output
  return { id, ...key, hint: dastKeyHint(id, key.last4) }
}

export type DastKeyStatus = 'active' | 'expired' | 'revoked'

export function dastKeyStatus(key: Pick<DastKey, 'revokedAt' | 'expiresAt'>, now: number): DastKeyStatus {
  if (key.revokedAt !== null) return 'revoked'
  if (key.expiresAt === null || key.expiresAt <= now) return 'expired'
  return 'active'
}

export const dastKeyStatusLabels: Record<DastKeyStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }
