// DAST keys on the server: the keyed hash a key is stored as, and verifyDastKey, which the DAST API
// (the endpoint CI pipelines call with `Authorization: Bearer bwk_dast_…`) uses on every request:
//
//   const result = await verifyDastKey(adminDb(), bearer, { ip, target })  // declare dastKeySecret
//   if (!result.ok) return 401                                             // same answer whatever the reason
//   result.key.company, result.key.id ...                                  // the company to scan for
//
// It checks the format and checksum first (no lookup for a mistyped key), compares the keyed hash
// in constant time, then revocation, expiry, the company's DAST triggering switch and, given a
// target, that the key names it and the company's scope still covers it. It records the last use
// (time and IP) at most once a minute. Nothing here imports the callables' machinery, so tests
// and other functions can call it directly.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { Timestamp, type Firestore } from 'firebase-admin/firestore'
import { defineSecret } from 'firebase-functions/params'
import { canViewService, LEVEL } from '#domain/access.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import {
  dastKeyFromDocument,
  dastKeyHashPath,
  dastKeyPath,
  dastKeyStatus,
  parseDastKeyToken,
  targetAsScopeEntry,
  type DastKey,
} from '#domain/dast-keys.ts'
import { scanScopeFromDocument, scanScopePath, targetInScope } from '#domain/scan-scope.ts'

/** A Secret Manager secret in production; a local placeholder in functions/.env.demo-sectest. */
export const dastKeySecret = defineSecret('DAST_KEY_SECRET')

export const MIN_SECRET_LENGTH = 16

/** The configured secret, or null when it is missing or too short to key anything. */
export function dastKeySecretValue(env: NodeJS.ProcessEnv = process.env): string | null {
  const secret = env.DAST_KEY_SECRET ?? ''
  return secret.length >= MIN_SECRET_LENGTH ? secret : null
}

/** HMAC-SHA-256 of the whole key under the server's secret, hex. */
export const hashDastKey = (secret: string, token: string) => createHmac('sha256', secret).update(token, 'utf8').digest('hex')

export type DastKeyRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'not-triggering' | 'target' | 'not-set-up'

export type DastKeyVerification = { ok: true; key: DastKey } | { ok: false; reason: DastKeyRefusal }

const LAST_USE_EVERY_MS = 60_000

// Compared against when a key has no stored hash, so an unknown id costs the same as a wrong secret.
const NO_HASH = '0'.repeat(64)

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right)
}

export async function verifyDastKey(
  db: Firestore,
  token: string,
  options: { ip?: string | null; target?: string; now?: number; secret?: string | null } = {},
): Promise<DastKeyVerification> {
  const secret = options.secret === undefined ? dastKeySecretValue() : options.secret
  if (!secret) return { ok: false, reason: 'not-set-up' }
  const parsed = parseDastKeyToken(token)
  if (!parsed) return { ok: false, reason: 'malformed' }
  const [keySnapshot, hashSnapshot] = await db.getAll(db.doc(dastKeyPath(parsed.id)), db.doc(dastKeyHashPath(parsed.id)))
  const stored = hashSnapshot?.get('hash')
  const matches = sameHash(hashDastKey(secret, token), typeof stored === 'string' ? stored : NO_HASH)
  const key = keySnapshot?.exists ? dastKeyFromDocument(parsed.id, keySnapshot.data()) : null
  if (!matches || !key) return { ok: false, reason: 'unknown' }
  const now = options.now ?? Date.now()
  const status = dastKeyStatus(key, now)
  if (status !== 'active') return { ok: false, reason: status }
  const [companySnapshot, scopeSnapshot] = await db.getAll(db.doc(companyPath(key.company)), db.doc(scanScopePath(key.company)))
  const company = companyFromDocument(key.company, companySnapshot?.data())
  // The company's switches as the DAST keys page needs them, whoever holds the key.
  if (!canViewService({ accessLevel: LEVEL.clientManager }, company, 'dast', 'dast-triggering'))
    return { ok: false, reason: 'not-triggering' }
  if (options.target !== undefined) {
    const allowed = key.allowedTargets.flatMap((text) => targetAsScopeEntry(text) ?? [])
    const scope = scanScopeFromDocument(scopeSnapshot?.data())
    if (!targetInScope(allowed, options.target) || !targetInScope(scope, options.target)) return { ok: false, reason: 'target' }
  }
  if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USE_EVERY_MS) {
    await db.doc(dastKeyPath(key.id)).update({ lastUsedAt: Timestamp.fromMillis(now), lastUsedIp: options.ip ?? null })
  }
  return { ok: true, key }
}
