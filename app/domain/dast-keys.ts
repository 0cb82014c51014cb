// dast_keys/{id}: keys a company's CI pipelines present to trigger DAST scans (/admin/dast). A key
// reads `bwk_dast_<id><secret><checksum>`, the format of secret-tokens.ts.
// The key is shown once, when made. The key document holds what its page shows (name, targets,
// expiry, last use, revocation, the key's first and last characters); the keyed hash
// (HMAC-SHA-256 with the functions' DAST_KEY_SECRET) sits apart in dast_key_hashes/{id}, which no
// client reads. functions/src/admin/dast-keys.ts `verifyDastKey` checks a presented key.
import * as v from 'valibot'
import { CompanySlugSchema } from './company-admin.ts'
import { canonicalScanTarget, guessScopeKind, parseScopeEntry, type ScopeEntry } from './scan-scope.ts'
import {
  newTokenFields,
  storedTokenEntries,
  TOKEN_ID_PATTERN,
  tokenChecksum,
  tokenFormat,
  tokenStatus,
  tokenStatusLabels,
  type StoredToken,
  type TokenStatus,
} from './secret-tokens.ts'

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
export const dastKeyFormat = tokenFormat(DAST_KEY_PREFIX)
const format = dastKeyFormat
export const DAST_KEY_ID_PATTERN = TOKEN_ID_PATTERN

export const DAST_KEY_LIMITS = { name: 80, maxExpiryDays: 365, targets: 50 } as const

export { crc32, randomBase62 } from './secret-tokens.ts'
/** The checksum of everything before it in a key. */
export const dastKeyChecksum = tokenChecksum

/** A new key: its document id and the whole key, to be shown once and stored only as a keyed hash. */
export const newDastKeyToken = (): { id: string; token: string } => format.issue()

/** The key's id when the text is a well-formed key whose checksum holds; null for anything else. */
export const parseDastKeyToken = (text: string): { id: string } | null => format.parse(text)

/** What a list shows of a key: its prefix and id, then its last four characters. */
export const dastKeyHint = (id: string, last4: string) => format.hint(id, last4)

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

export { expiryFrom } from './secret-tokens.ts'

/** The stored key document (times as the writer's SDK stores them). */
export const newDastKeyDocument = <Time>(
  key: Parameters<typeof newTokenFields<Time>>[1] & { allowedTargets: readonly string[]; publishAtOnce?: boolean },
) => ({
  ...newTokenFields(DAST_KEY_PREFIX, key),
  allowedTargets: [...key.allowedTargets],
  publishAtOnce: key.publishAtOnce ?? false,
})

const StoredDastKeySchema = v.object({
  ...storedTokenEntries,
  allowedTargets: v.optional(v.array(v.string()), []),
  publishAtOnce: v.optional(v.boolean(), false),
})

export interface DastKey extends StoredToken {
  allowedTargets: string[]
  /** Scans this key triggers are published at once (the company's choice), else they wait for an analyst as drafts. */
  publishAtOnce: boolean
}

export function dastKeyFromDocument(id: string, data: unknown): DastKey | null {
  const parsed = v.safeParse(StoredDastKeySchema, data ?? {})
  if (!parsed.success) return null
  const key = parsed.output
  return { id, ...key, hint: dastKeyHint(id, key.last4) }
}

export type DastKeyStatus = TokenStatus

export const dastKeyStatus = (key: Pick<DastKey, 'revokedAt' | 'expiresAt'>, now: number): DastKeyStatus => tokenStatus(key, now)

export const dastKeyStatusLabels: Record<DastKeyStatus, string> = tokenStatusLabels
