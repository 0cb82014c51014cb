// Company tokens on the server (DAST keys, API tokens): the keyed hash a token is stored as, and
// the one check of a presented token: format and checksum first (no read for a mistyped token),
// then the token's document and its hash in one getAll, compared in constant time. An unknown id
// is compared against a fixed dummy hash, so unknown and wrong tokens cost the same and answer the
// same. Both kinds share one server secret (DAST_KEY_SECRET, decision 0050); the prefix is part of
// what is hashed, so a hash of one kind never matches a token of another.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { DocumentData, Firestore } from 'firebase-admin/firestore'
import { defineSecret } from 'firebase-functions/params'
import type { TokenFormat } from '#domain/secret-tokens.ts'

/** A Secret Manager secret in production; a local placeholder in functions/.env.demo-sectest. */
export const tokenHashSecret = defineSecret('DAST_KEY_SECRET')

export const MIN_SECRET_LENGTH = 16

/** The configured secret, or null when it is missing or too short to key anything. */
export function tokenSecretValue(env: NodeJS.ProcessEnv = process.env): string | null {
  const secret = env.DAST_KEY_SECRET ?? ''
  return secret.length >= MIN_SECRET_LENGTH ? secret : null
}

/** HMAC-SHA-256 of the whole token under the server's secret, hex. */
export const hashToken = (secret: string, token: string) => createHmac('sha256', secret).update(token, 'utf8').digest('hex')

// Compared against when a token has no stored hash, so an unknown id costs the same as a wrong secret.
const NO_HASH = '0'.repeat(64)

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right)
}

export type TokenCheck = { ok: true; id: string; data: DocumentData } | { ok: false; reason: 'malformed' | 'unknown' | 'not-set-up' }

/** The stored document of a genuine token of `format`, read with its hash from `paths`. */
export async function checkToken(
  db: Firestore,
  token: string,
  format: TokenFormat,
  paths: { document: (id: string) => string; hash: (id: string) => string },
  secret: string | null,
): Promise<TokenCheck> {
  if (!secret) return { ok: false, reason: 'not-set-up' }
  const parsed = format.parse(token)
  if (!parsed) return { ok: false, reason: 'malformed' }
  const [snapshot, hashSnapshot] = await db.getAll(db.doc(paths.document(parsed.id)), db.doc(paths.hash(parsed.id)))
  const stored = hashSnapshot?.get('hash')
  const matches = sameHash(hashToken(secret, token), typeof stored === 'string' ? stored : NO_HASH)
  const data = snapshot?.exists ? snapshot.data() : undefined
  if (!matches || !data) return { ok: false, reason: 'unknown' }
  return { ok: true, id: parsed.id, data }
}

/** Last use is written at most this often, so a busy client does not turn every request into a write. */
export const LAST_USE_EVERY_MS = 60_000

export const lastUseDue = (lastUsedAt: number | null, now: number) => lastUsedAt === null || now - lastUsedAt >= LAST_USE_EVERY_MS
