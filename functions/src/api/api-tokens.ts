// API tokens on the server: verifyApiToken, which the client API (and the DAST API, for
// `dast:trigger`) uses on every request, and recordApiTokenUse, the audit event every request
// with a genuine token leaves, with the token's last use (written at most once a minute).
import { Timestamp, type Firestore } from 'firebase-admin/firestore'
import { tokenMayTriggerDast } from '#domain/access.ts'
import {
  apiTokenActorUid,
  apiTokenFormat,
  apiTokenFromDocument,
  apiTokenHashPath,
  apiTokenPath,
  apiTokenStatus,
  type ApiToken,
} from '#domain/api-tokens.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import { scanScopeFromDocument, scanScopePath, targetInScope } from '#domain/scan-scope.ts'
import { recordAuditEvent } from '../admin/audit.ts'
import { checkToken, lastUseDue, tokenSecretValue } from '../admin/secret-tokens.ts'

export type ApiTokenRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'not-set-up'

/** A refused token is still the token when it is genuine (revoked, expired), so its use is audited too. */
export type ApiTokenVerification = { ok: true; token: ApiToken } | { ok: false; reason: ApiTokenRefusal; token?: ApiToken }

export async function verifyApiToken(
  db: Firestore,
  presented: string,
  options: { now?: number; secret?: string | null } = {},
): Promise<ApiTokenVerification> {
  const secret = options.secret === undefined ? tokenSecretValue() : options.secret
  const checked = await checkToken(db, presented, apiTokenFormat, { document: apiTokenPath, hash: apiTokenHashPath }, secret)
  if (!checked.ok) return checked
  const token = apiTokenFromDocument(checked.id, checked.data)
  if (!token) return { ok: false, reason: 'unknown' }
  const status = apiTokenStatus(token, options.now ?? Date.now())
  return status === 'active' ? { ok: true, token } : { ok: false, reason: status, token }
}

/** The audit event of one request made with a genuine token, and its last use when due: one batch. */
export async function recordApiTokenUse(
  db: Firestore,
  token: ApiToken,
  use: { method: string; path: string; status: number; ip: string | null },
  now: number,
): Promise<void> {
  const batch = db.batch()
  recordAuditEvent(db, batch, {
    actor: { uid: apiTokenActorUid(token.id), email: null },
    action: 'api_token.used',
    target: { kind: 'api_token', id: token.id, label: token.name },
    companyId: token.company,
    before: null,
    after: { method: use.method, path: use.path, status: use.status, ip: use.ip },
  })
  if (lastUseDue(token.lastUsedAt, now))
    batch.update(db.doc(apiTokenPath(token.id)), { lastUsedAt: Timestamp.fromMillis(now), lastUsedIp: use.ip })
  await batch.commit()
}

export type DastTriggerRefusal = ApiTokenRefusal | 'scope' | 'not-triggering' | 'target'

/**
 * An API token presented to the DAST API: it needs `dast:trigger` and the company's triggering
 * switch (tokenMayTriggerDast), and, given a target, the company's scan scope to cover it (a token
 * names no targets of its own; narrowing the scope narrows it). Its use is audited by the caller.
 */
export async function verifyApiTokenForDast(
  db: Firestore,
  presented: string,
  options: { target?: string; now?: number; secret?: string | null },
): Promise<{ ok: true; token: ApiToken } | { ok: false; reason: DastTriggerRefusal; token?: ApiToken }> {
  const verified = await verifyApiToken(db, presented, options)
  if (!verified.ok) return verified
  const token = verified.token
  if (!token.scopes.includes('dast:trigger')) return { ok: false, reason: 'scope', token }
  const [companySnapshot, scopeSnapshot] = await db.getAll(db.doc(companyPath(token.company)), db.doc(scanScopePath(token.company)))
  if (!tokenMayTriggerDast(token.scopes, companyFromDocument(token.company, companySnapshot?.data())))
    return { ok: false, reason: 'not-triggering', token }
  if (options.target !== undefined && !targetInScope(scanScopeFromDocument(scopeSnapshot?.data()), options.target))
    return { ok: false, reason: 'target', token }
  return { ok: true, token }
}
