// vault_requests/{id}: request links (decision 0018). An analyst asks a client for a secret; the
// client's browser seals the answer to the request's public key (HPKE) and submits it through
// submitVaultRequest. The document holds the request's terms, the hash of its submit token, its
// private key wrapped under the analyst's vault passphrase, and the sealed answer: the analyst
// reads it live (their own only) and opens it in their browser. Colleagues it was shared with read
// its share, vault_request_shares/{id}, which leaves those out. Written by the functions only.
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'
import { filesGateFromDocument, KdfSchema, LinkIdSchema, VAULT_LIMITS, type FilesGate } from './vault.ts'
import { companySlugSchema } from './company-slug.ts'

export const VAULT_REQUESTS_COLLECTION = 'vault_requests'

export const vaultRequestPath = (id: string) => `${VAULT_REQUESTS_COLLECTION}/${id}`

/**
 * vault_requests/{id}/vault_team_keys/{uid}: the request's private key HPKE-sealed to a colleague's
 * published vault key (decision 0022). No client reads it: openVaultRequest hands a colleague their
 * own, so every colleague's opening is in the audit trail.
 */
export const VAULT_TEAM_KEYS_COLLECTION = 'vault_team_keys'
export const vaultTeamKeyPath = (id: string, uid: string) => `${vaultRequestPath(id)}/${VAULT_TEAM_KEYS_COLLECTION}/${uid}`

/** How many colleagues one request may be shared with. */
export const MAX_TEAM_KEYS = 50

/**
 * vault_request_shares/{id}: what the colleagues a request was shared with read of it (decisions
 * 0022, 0035): its terms and state, never the asker's wrapped key (an offline test of the asker's
 * vault passphrase), the submit token's hash or the sealed answer, which stay on the request for its
 * asker alone. A colleague gets the answer only from openVaultRequest, so every opening is audited.
 * Kept only for a request shared with someone, written by the functions in the request's own commits.
 */
export const VAULT_REQUEST_SHARES_COLLECTION = 'vault_request_shares'
export const vaultRequestSharePath = (id: string) => `${VAULT_REQUEST_SHARES_COLLECTION}/${id}`

/**
 * vault_request_gates/{id}: whether the client may still upload sealed files for the request (open),
 * the hash of the files token they upload with, and once shut why (answered, withdrawn): the file
 * store keeps an answer's files until the request goes, a withdrawn request's not at all
 * (filesWantedUntil). Anyone holding the request id may get it (the file store reads it without a
 * sign-in); it holds a hash, a state and times only. Written by the functions.
 */
export const VAULT_REQUEST_GATES_COLLECTION = 'vault_request_gates'
export const vaultRequestGatePath = (id: string) => `${VAULT_REQUEST_GATES_COLLECTION}/${id}`

export type VaultRequestGate = FilesGate & { filesTokenHash: string }

export function vaultRequestGateFromDocument(data: unknown): VaultRequestGate | null {
  const gate = filesGateFromDocument(data)
  const hash = (data as { filesTokenHash?: unknown } | null | undefined)?.filesTokenHash
  return gate && typeof hash === 'string' ? { ...gate, filesTokenHash: hash } : null
}

/** Where the client answers a request; its public key and submit secret follow in the fragment. */
export const vaultRequestLinkPath = (id: string) => `/vault/r/${id}`

export const REQUEST_STATES = ['open', 'answered', 'revoked'] as const

const B64 = (max: number) => v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url'), v.maxLength(max))
const HashSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a SHA-256 hash'))

export const WrappedKeySchema = v.strictObject({
  ciphertext: B64(200),
  iv: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16}$/, 'Expected a 12-byte IV')),
  kdf: KdfSchema,
})

/** A request key sealed to a colleague: HPKE's encapsulated key and the sealed 32 bytes (with its tag). */
export const TeamKeySchema = v.strictObject({
  enc: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/, 'Expected an encapsulated P-256 key')),
  ciphertext: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{64}$/, 'Expected a sealed P-256 private key')),
})

export const SealedAnswerSchema = v.strictObject({
  // An uncompressed P-256 point.
  enc: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/, 'Expected an encapsulated P-256 key')),
  ciphertext: v.pipe(B64(VAULT_LIMITS.ciphertextLength), v.minLength(24)),
})

/** What a request's share holds: everything of the request but its secrets. */
const SharedRequestEntries = {
  createdBy: v.string(),
  createdByName: v.optional(v.string(), ''),
  company: v.string(),
  companyName: v.optional(v.string(), ''),
  label: v.string(),
  createdAt: TimestampSchema,
  expiresAt: TimestampSchema,
  state: v.picklist(REQUEST_STATES),
  answeredAt: v.optional(v.nullable(TimestampSchema), null),
  answeredFrom: v.optional(v.nullable(v.object({ ip: v.optional(v.string(), ''), browser: v.optional(v.string(), '') })), null),
  /** Shared with the analysts of the company's engagement: those holding a sealed key, by uid. */
  team: v.optional(v.boolean(), false),
  teamUids: v.optional(v.array(v.string()), []),
}

const StoredRequestShareSchema = v.object(SharedRequestEntries)
const StoredRequestSchema = v.object({
  ...SharedRequestEntries,
  submitTokenHash: v.string(),
  wrappedKey: v.object({ ciphertext: v.string(), iv: v.string(), kdf: KdfSchema }),
  answer: v.optional(v.nullable(v.object({ enc: v.string(), ciphertext: v.string() })), null),
})

/** A request as its colleagues see it (its share), and as everyone's list shows it. */
export type VaultRequestShare = v.InferOutput<typeof StoredRequestShareSchema> & { id: string }
export type VaultRequest = v.InferOutput<typeof StoredRequestSchema> & { id: string }

export function vaultRequestFromDocument(id: string, data: unknown): VaultRequest | null {
  const parsed = v.safeParse(StoredRequestSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

export function vaultRequestShareFromDocument(id: string, data: unknown): VaultRequestShare | null {
  const parsed = v.safeParse(StoredRequestShareSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

/** Whether the request has a share: it was shared with at least one colleague. */
export const isSharedRequest = (request: Pick<VaultRequestShare, 'teamUids'>) => request.teamUids.length > 0

export type RequestStatus = 'waiting' | 'answered' | 'expired' | 'revoked'

export function requestStatus(request: Pick<VaultRequest, 'state' | 'expiresAt'>, now: number): RequestStatus {
  if (request.state === 'revoked') return 'revoked'
  if (request.state === 'answered') return 'answered'
  return request.expiresAt <= now ? 'expired' : 'waiting'
}

// ---- Callables ----------------------------------------------------------------------------------

export const CreateVaultRequestRequestSchema = v.strictObject({
  id: LinkIdSchema,
  company: companySlugSchema('Choose a company'),
  expiresAt: v.pipe(v.number(), v.integer()),
  label: v.pipe(v.string(), v.trim(), v.minLength(1, 'Say what you need'), v.maxLength(500, 'Keep it under 500 characters')),
  submitTokenHash: HashSchema,
  /** Files may be answered only when given. */
  filesTokenHash: v.optional(HashSchema),
  wrappedKey: WrappedKeySchema,
  /** "The analysts of the company's engagement can open it too" (decision 0022). */
  team: v.optional(v.boolean(), false),
  /** The request's private key sealed to each engagement colleague's published vault key, by uid. */
  teamKeys: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/, 'Expected a user id')), TeamKeySchema),
      v.check((keys) => Object.keys(keys).length <= MAX_TEAM_KEYS, `At most ${MAX_TEAM_KEYS} colleagues`),
    ),
    {},
  ),
})
export const CreateVaultRequestResponseSchema = v.strictObject({ id: v.string() })

const SubmitTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not complete: copy all of it.'))

export const VaultRequestInfoRequestSchema = v.strictObject({ id: LinkIdSchema, submitToken: SubmitTokenSchema })
export const VaultRequestInfoResponseSchema = v.variant('status', [
  v.strictObject({
    status: v.picklist(['open', 'answered', 'expired', 'revoked']),
    senderName: v.string(),
    companyName: v.string(),
    company: v.string(),
    label: v.string(),
    expiresAt: v.number(),
  }),
  v.strictObject({ status: v.literal('not-found') }),
])
export type VaultRequestInfo = v.InferOutput<typeof VaultRequestInfoResponseSchema>
/** A request the link found: who asks, for which company, what. */
export type RequestFacts = Extract<VaultRequestInfo, { senderName: string }>

export const SubmitVaultRequestRequestSchema = v.strictObject({
  id: LinkIdSchema,
  submitToken: SubmitTokenSchema,
  answer: SealedAnswerSchema,
})
export const SubmitVaultRequestResponseSchema = v.variant('outcome', [
  v.strictObject({ outcome: v.literal('stored') }),
  v.strictObject({ outcome: v.literal('refused'), reason: v.picklist(['not-found', 'answered', 'expired', 'revoked']) }),
])
export type SubmitVaultRequestResponse = v.InferOutput<typeof SubmitVaultRequestResponseSchema>

export const RevokeVaultRequestRequestSchema = v.strictObject({ id: LinkIdSchema })
export const RevokeVaultRequestResponseSchema = v.strictObject({ revoked: v.boolean() })

export function requestRefusalMessage(reason: 'not-found' | 'answered' | 'expired' | 'revoked', sender: string | null): string {
  const ask = sender ? `Ask ${sender} for a new link.` : 'Ask the person who sent it for a new link.'
  switch (reason) {
    case 'not-found':
      return `This request does not exist or has been deleted. ${ask}`
    case 'answered':
      return 'This request has already been answered. Nothing more is needed.'
    case 'expired':
      return `This request has expired. ${ask}`
    case 'revoked':
      return `This request was withdrawn. ${ask}`
  }
}
