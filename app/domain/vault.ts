// vault_links/{id}: share links (decision 0018). The link document is what its analyst sees live:
// policy, status, views and opens, and the hash of the link's find token. Its sealed part,
// vault_links/{id}/vault_sealed/content, holds the ciphertext and the hash of the open token; no
// client reads it, the claim callable alone hands the ciphertext out. Neither ever holds a
// plaintext, a key or a token. Written by the functions only.
import * as v from 'valibot'
import type { EventType } from './events.ts'
import { RequestIdSchema } from './call-receipts.ts'
import { TimestampSchema } from './stored.ts'
import { LINK_ID_PATTERN, type LinkPolicy } from './vault-crypto.ts'
import { companySlugSchema } from './company-slug.ts'

export const VAULT_LINKS_COLLECTION = 'vault_links'
export const VAULT_SEALED_COLLECTION = 'vault_sealed'

export const vaultLinkPath = (id: string) => `${VAULT_LINKS_COLLECTION}/${id}`
export const vaultSealedPath = (id: string) => `${vaultLinkPath(id)}/${VAULT_SEALED_COLLECTION}/content`

/** Where the recipient opens a link; the key follows in the fragment. */
export const vaultSharePath = (id: string) => `/vault/s/${id}`

const HOUR_MS = 3600_000
export const VAULT_LIMITS = {
  textBytes: 64 * 1024,
  minExpiryMs: HOUR_MS,
  maxExpiryMs: 30 * 24 * HOUR_MS,
  maxViews: 10,
  failedTries: 5,
  labelLength: 120,
  /** The sealed payload: 64 KB of text as JSON, its file entries, base64url and the tag. */
  ciphertextLength: 200_000,
  /** After expiry the link's record stays this long for its analyst's list, then goes. */
  keepRecordMs: 30 * 24 * HOUR_MS,
  /** Slack for the browser's clock and the time the request took. */
  clockSkewMs: 10 * 60_000,
} as const

/** Files of a share link: sealed in 1 MiB chunks, stored in R2 through the Worker. */
export const VAULT_FILE_LIMITS = {
  files: 20,
  chunksPerFile: 25,
  /** The plaintext bytes of all files of a link. */
  totalBytes: 25 * 1024 * 1024,
  /** After a link's last view its files stay this long, for the recipient's browser to fetch them. */
  downloadWindowMs: HOUR_MS,
  /** Files stored under an id whose link was never made (no gate) go after this long. */
  uploadGraceMs: 6 * HOUR_MS,
} as const

/** Share links' files and request answers' files: the Worker's paths for them (app/server/vault-files.server.ts). */
export const VAULT_FILES_PATHS = { link: '/api/vault/files', request: '/api/vault/request-files' } as const
export type VaultFilesKind = keyof typeof VAULT_FILES_PATHS

/**
 * vault_link_gates/{id}: whether a share link's stored files are still wanted: open while the link
 * may be opened, shut (with why and when) once it is used, revoked or swept. Only links with files
 * have one. Anyone holding the id may get it (the Worker's file store reads it signed out); it holds
 * a state and times only. Written by the functions in the link's own commits; a request's files
 * have theirs in vault_request_gates/{id} (vault-requests.ts).
 */
export const VAULT_LINK_GATES_COLLECTION = 'vault_link_gates'
export const vaultLinkGatePath = (id: string) => `${VAULT_LINK_GATES_COLLECTION}/${id}`

/** Why a files gate shut: a link used, revoked or expired; a request answered or withdrawn. */
export const FILES_GATE_CLOSINGS = ['used', 'revoked', 'expired', 'answered', 'withdrawn'] as const

const FilesGateSchema = v.object({
  open: v.boolean(),
  expiresAt: TimestampSchema,
  purgeAt: v.optional(v.nullable(TimestampSchema), null),
  closed: v.optional(v.nullable(v.picklist(FILES_GATE_CLOSINGS)), null),
  closedAt: v.optional(v.nullable(TimestampSchema), null),
})
export type FilesGate = v.InferOutput<typeof FilesGateSchema>

export function filesGateFromDocument(data: unknown): FilesGate | null {
  const parsed = v.safeParse(FilesGateSchema, data)
  return parsed.success ? parsed.output : null
}

/**
 * Until when (epoch ms) the stored files behind a gate are wanted; once that is past they go. An
 * open gate's until its expiry; a used link's for the recipient's download; an answered request's
 * until its record goes (a request gate shut before gates said why counts as answered); a revoked,
 * withdrawn or expired one's not at all.
 */
export function filesWantedUntil(gate: FilesGate): number {
  if (gate.open) return gate.expiresAt
  switch (gate.closed) {
    case 'used':
      return (gate.closedAt ?? 0) + VAULT_FILE_LIMITS.downloadWindowMs
    case 'answered':
    case null:
      return gate.purgeAt ?? gate.expiresAt + VAULT_LIMITS.keepRecordMs
    default:
      return 0
  }
}

/**
 * A file name fit to offer for download: no path, no control or bidi characters, no leading dots,
 * at most 120 characters. Names travel only inside the ciphertext; this guards the recipient.
 */
export function sanitiseFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const clean = base
    .normalize('NFC')
    // Control characters (C0, C1) and bidirectional marks and overrides.
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 120)
  return clean || 'file'
}

/** The link's state as stored: usable, every view used, or revoked (by hand or by wrong passphrases). */
export const LINK_STATES = ['active', 'used', 'revoked'] as const
export type LinkState = (typeof LINK_STATES)[number]

const Base64UrlSchema = (max: number) => v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url'), v.maxLength(max))
const HashSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a SHA-256 hash'))
const TokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not complete: copy all of it.'))
export const LinkIdSchema = v.pipe(v.string(), v.regex(LINK_ID_PATTERN, 'This link is not complete: copy all of it.'))
const EmailSchema = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('Type a valid email address'), v.maxLength(254))

export const KdfSchema = v.strictObject({
  salt: Base64UrlSchema(64),
  iterations: v.pipe(v.number(), v.integer(), v.minValue(600_000, 'Too few PBKDF2 iterations'), v.maxValue(10_000_000)),
})

const OpenSchema = v.object({ at: TimestampSchema, ip: v.optional(v.string(), ''), browser: v.optional(v.string(), '') })
export type LinkOpen = v.InferOutput<typeof OpenSchema>

const StoredLinkSchema = v.object({
  createdBy: v.string(),
  createdByName: v.optional(v.string(), ''),
  company: v.string(),
  companyName: v.optional(v.string(), ''),
  label: v.optional(v.string(), ''),
  createdAt: TimestampSchema,
  expiresAt: TimestampSchema,
  maxViews: v.number(),
  views: v.optional(v.number(), 0),
  failedTries: v.optional(v.number(), 0),
  state: v.picklist(LINK_STATES),
  revokedAt: v.optional(v.nullable(TimestampSchema), null),
  revokedBy: v.optional(v.nullable(v.picklist(['analyst', 'passphrase'])), null),
  passphrase: v.boolean(),
  recipient: v.optional(v.nullable(v.string()), null),
  findTokenHash: v.string(),
  opens: v.optional(v.array(OpenSchema), []),
  files: v.optional(v.number(), 0),
})

export type VaultLink = v.InferOutput<typeof StoredLinkSchema> & { id: string }

export function vaultLinkFromDocument(id: string, data: unknown): VaultLink | null {
  const parsed = v.safeParse(StoredLinkSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

const StoredSealedSchema = v.object({
  openTokenHash: v.string(),
  kdf: v.nullable(KdfSchema),
  ciphertext: v.string(),
  iv: v.string(),
  expiresAt: TimestampSchema,
})
export type VaultSealed = v.InferOutput<typeof StoredSealedSchema>

export function vaultSealedFromDocument(data: unknown): VaultSealed | null {
  const parsed = v.safeParse(StoredSealedSchema, data)
  return parsed.success ? parsed.output : null
}

/** The policy the link's ciphertext was sealed under, as the stored link states it. */
export const linkPolicy = (link: VaultLink): LinkPolicy => ({
  id: link.id,
  company: link.company,
  expiresAt: link.expiresAt,
  maxViews: link.maxViews,
  recipient: link.recipient,
  passphrase: link.passphrase,
})

/** What the analyst's list says of a link. */
export type LinkStatus = 'waiting' | 'opened' | 'used' | 'expired' | 'burned'

export function linkStatus(link: Pick<VaultLink, 'state' | 'expiresAt' | 'views'>, now: number): LinkStatus {
  if (link.state === 'revoked') return 'burned'
  if (link.state === 'used') return 'used'
  if (link.expiresAt <= now) return 'expired'
  return link.views > 0 ? 'opened' : 'waiting'
}

/** A short name of the browser from its User-Agent, for the analyst's list; never trusted. */
export function browserOf(userAgent: string | undefined | null): string {
  const ua = userAgent ?? ''
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /Linux/.test(ua)
            ? 'Linux'
            : ''
  const browser = /Edg\/(\d+)/.exec(ua)
    ? `Edge ${/Edg\/(\d+)/.exec(ua)![1]}`
    : /Firefox\/(\d+)/.exec(ua)
      ? `Firefox ${/Firefox\/(\d+)/.exec(ua)![1]}`
      : /(?:Chrome|Chromium)\/(\d+)/.exec(ua)
        ? `Chrome ${/(?:Chrome|Chromium)\/(\d+)/.exec(ua)![1]}`
        : /Version\/(\d+).*Safari/.exec(ua)
          ? `Safari ${/Version\/(\d+).*Safari/.exec(ua)![1]}`
          : ua
            ? ua.replace(/[^\x20-\x7e]/g, '').slice(0, 40)
            : 'unknown browser'
  return os ? `${browser} on ${os}` : browser
}

// ---- Callables ----------------------------------------------------------------------------------

export const CreateVaultLinkRequestSchema = v.strictObject({
  /** The same on every try of one link (call-receipts.ts): a repeat answers the first try. */
  requestId: RequestIdSchema,
  id: LinkIdSchema,
  company: companySlugSchema('Choose a company'),
  expiresAt: v.pipe(v.number(), v.integer()),
  maxViews: v.pipe(v.number(), v.integer(), v.minValue(1, 'At least one view'), v.maxValue(VAULT_LIMITS.maxViews, 'At most 10 views')),
  recipient: v.nullable(EmailSchema),
  label: v.pipe(v.string(), v.trim(), v.maxLength(VAULT_LIMITS.labelLength, 'The label is too long')),
  kdf: v.nullable(KdfSchema),
  findTokenHash: HashSchema,
  openTokenHash: HashSchema,
  ciphertext: v.pipe(Base64UrlSchema(VAULT_LIMITS.ciphertextLength), v.minLength(24)),
  iv: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16}$/, 'Expected a 12-byte IV')),
  files: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20)), 0),
})
export const CreateVaultLinkResponseSchema = v.strictObject({ id: v.string() })

const LinkFacts = {
  senderName: v.string(),
  companyName: v.string(),
  label: v.string(),
  expiresAt: v.number(),
}

export const VaultLinkInfoRequestSchema = v.strictObject({ id: LinkIdSchema, findToken: TokenSchema })
export const VaultLinkInfoResponseSchema = v.variant('status', [
  v.strictObject({
    status: v.literal('ready'),
    ...LinkFacts,
    viewsLeft: v.number(),
    kdf: v.nullable(KdfSchema),
    recipient: v.nullable(v.string()),
    files: v.number(),
  }),
  v.strictObject({ status: v.picklist(['used', 'expired', 'revoked']), ...LinkFacts }),
  v.strictObject({ status: v.literal('not-found') }),
])
export type VaultLinkInfo = v.InferOutput<typeof VaultLinkInfoResponseSchema>

export const ClaimVaultLinkRequestSchema = v.strictObject({ id: LinkIdSchema, findToken: TokenSchema, openToken: TokenSchema })

export const CLAIM_REFUSALS = ['not-found', 'used', 'expired', 'revoked', 'wrong-passphrase', 'sign-in', 'wrong-recipient'] as const
export type ClaimRefusal = (typeof CLAIM_REFUSALS)[number]

export const ClaimVaultLinkResponseSchema = v.variant('outcome', [
  v.strictObject({
    outcome: v.literal('opened'),
    ciphertext: v.string(),
    iv: v.string(),
    policy: v.strictObject({
      id: v.string(),
      company: v.string(),
      expiresAt: v.number(),
      maxViews: v.number(),
      recipient: v.nullable(v.string()),
      passphrase: v.boolean(),
    }),
    viewsLeft: v.number(),
  }),
  v.strictObject({ outcome: v.literal('refused'), reason: v.picklist(CLAIM_REFUSALS), triesLeft: v.nullable(v.number()) }),
])
export type ClaimVaultLinkResponse = v.InferOutput<typeof ClaimVaultLinkResponseSchema>

export const RevokeVaultLinkRequestSchema = v.strictObject({ id: LinkIdSchema })
export const RevokeVaultLinkResponseSchema = v.strictObject({ revoked: v.boolean() })

/** What the recipient page says for each refusal; each says whom to ask. */
export function refusalMessage(reason: ClaimRefusal, sender: string | null, triesLeft: number | null = null): string {
  const ask = sender ? `Ask ${sender} for a new link.` : 'Ask the person who sent it for a new link.'
  switch (reason) {
    case 'not-found':
      return `This link does not exist or has been deleted. ${ask}`
    case 'used':
      return `This link has already been opened as many times as it allows. ${ask}`
    case 'expired':
      return `This link has expired. ${ask}`
    case 'revoked':
      return `This link was revoked. ${ask}`
    case 'wrong-passphrase':
      return triesLeft === null || triesLeft > 0
        ? `Wrong passphrase.${triesLeft === null ? '' : ` ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`}`
        : `Wrong passphrase: the link is now revoked. ${ask}`
    case 'sign-in':
      return 'This link is for a named recipient: sign in with that address in this browser, then open the link again.'
    case 'wrong-recipient':
      return `This link is for another recipient: sign in with the address it was sent to. ${ask}`
  }
}

/** An audit event of a link or request, on its analyst's activity list (events/{id}). */
export function vaultEventDocument<Time>(
  type: Extract<EventType, `vault_${string}`>,
  link: { id: string; createdBy: string; company: string },
  createdAt: Time,
  detail: { ip?: string; browser?: string; byUid?: string | null; reason?: string } = {},
) {
  return { type, createdByUid: link.createdBy, createdAt, company: link.company, linkId: link.id, ...detail }
}
