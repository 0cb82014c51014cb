// DAST keys on the server: verifyDastKey, which the DAST API
// (the endpoint CI pipelines call with `Authorization: Bearer bwk_dast_…`) uses on every request:
//
//   const result = await verifyDastKey(adminDb(), bearer, { ip, target })  // declare dastKeySecret
//   if (!result.ok) return 401                                             // same answer whatever the reason
//   result.key.company, result.key.id ...                                  // the company to scan for
//
// It checks the key as every company token is checked (secret-tokens.ts), then revocation, expiry, the company's DAST triggering switch and, given a
// target, that the key names it and the company's scope still covers it. It records the last use
// (time and IP) at most once a minute. Nothing here imports the callables' machinery, so tests
// and other functions can call it directly.
import { Timestamp, type Firestore } from 'firebase-admin/firestore'
import { canViewService, LEVEL } from '#domain/access.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import {
  dastKeyFromDocument,
  dastKeyHashPath,
  dastKeyPath,
  dastKeyStatus,
  dastKeyFormat,
  targetAsScopeEntry,
  type DastKey,
} from '#domain/dast-keys.ts'
import { scanScopeFromDocument, scanScopePath, targetInScope } from '#domain/scan-scope.ts'
import { checkToken, hashToken, lastUseDue, tokenHashSecret, tokenSecretValue } from './secret-tokens.ts'

/** A Secret Manager secret in production; a local placeholder in functions/.env.demo-sectest. */
export const dastKeySecret = tokenHashSecret
export const dastKeySecretValue = tokenSecretValue
export const hashDastKey = hashToken
export { MIN_SECRET_LENGTH } from './secret-tokens.ts'

export type DastKeyRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'not-triggering' | 'target' | 'not-set-up'

export type DastKeyVerification = { ok: true; key: DastKey } | { ok: false; reason: DastKeyRefusal }

export async function verifyDastKey(
  db: Firestore,
  token: string,
  options: { ip?: string | null; target?: string; now?: number; secret?: string | null } = {},
): Promise<DastKeyVerification> {
  const secret = options.secret === undefined ? dastKeySecretValue() : options.secret
  const checked = await checkToken(db, token, dastKeyFormat, { document: dastKeyPath, hash: dastKeyHashPath }, secret)
  if (!checked.ok) return checked
  const key = dastKeyFromDocument(checked.id, checked.data)
  if (!key) return { ok: false, reason: 'unknown' }
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
  if (lastUseDue(key.lastUsedAt, now)) {
    await db.doc(dastKeyPath(key.id)).update({ lastUsedAt: Timestamp.fromMillis(now), lastUsedIp: options.ip ?? null })
  }
  return { ok: true, key }
}
