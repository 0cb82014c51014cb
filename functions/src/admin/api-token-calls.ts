// The API token callables of /admin/api-tokens: createApiToken makes a token with its scopes and
// expiry (shown once; only its keyed hash is kept); revokeApiToken ends it at once. Both need
// someone who may select the company at level 3 (mayManageApiTokensOf), and each is an audit
// event of the company written in the same transaction.
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayManageApiTokensOf } from '#domain/access.ts'
import {
  apiTokenFormat,
  apiTokenFromDocument,
  apiTokenHashPath,
  apiTokenMessages,
  apiTokenPath,
  newApiTokenDocument,
} from '#domain/api-tokens.ts'
import { expiryFrom } from '#domain/secret-tokens.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { declaredSecrets } from '../search-config.ts'
import { recordAuditEvent } from './audit.ts'
import { companyManagedBy, readOrgActor, revokeCompanyToken } from './org-actor.ts'
import { hashToken, tokenHashSecret, tokenSecretValue } from './secret-tokens.ts'

export const createApiToken = defineCallable('createApiToken', { secrets: declaredSecrets(tokenHashSecret) }, async (caller, request) => {
  const secret = tokenSecretValue()
  if (!secret) throw new HttpsError('failed-precondition', apiTokenMessages.notSetUp)
  const db = adminDb()
  const now = Date.now()
  const { id, token } = apiTokenFormat.issue()
  await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    const company = await companyManagedBy(db, tx, actor, request.company, mayManageApiTokensOf)
    const expiresAt = expiryFrom(now, request.expiresInDays)
    tx.create(
      db.doc(apiTokenPath(id)),
      newApiTokenDocument({
        id,
        company: company.slug,
        name: request.name,
        last4: token.slice(-4),
        scopes: request.scopes,
        expiresAt: Timestamp.fromMillis(expiresAt),
        createdAt: FieldValue.serverTimestamp(),
        createdBy: actor.by,
      }),
    )
    tx.create(db.doc(apiTokenHashPath(id)), { hash: hashToken(secret, token), company: company.slug })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'api_token.created',
      target: { kind: 'api_token', id, label: request.name },
      companyId: company.slug,
      before: null,
      after: { name: request.name, scopes: request.scopes, expiresAt: new Date(expiresAt).toISOString() },
    })
  })
  return { id, token }
})

export const revokeApiToken = defineCallable('revokeApiToken', {}, async (caller, request) => {
  const revoked = await revokeCompanyToken(
    adminDb(),
    caller,
    {
      path: apiTokenPath,
      read: apiTokenFromDocument,
      may: mayManageApiTokensOf,
      noToken: apiTokenMessages.noToken,
      action: 'api_token.revoked',
      target: 'api_token',
    },
    request.id,
  )
  return { revoked }
})
