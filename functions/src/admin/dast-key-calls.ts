// The DAST key callables of /admin/dast: createDastKey makes a key (shown once; only its keyed
// hash is kept) for targets within the company's scope; revokeDastKey ends it at once. Both need
// the company's DAST triggering switch and someone who may select the company at level 3.
import { FieldValue, Timestamp, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayManageDastKeysOf } from '#domain/access.ts'
import {
  dastKeyFromDocument,
  dastKeyHashPath,
  dastKeyMessages,
  dastKeyPath,
  expiryFrom,
  newDastKeyDocument,
  newDastKeyToken,
} from '#domain/dast-keys.ts'
import { scanScopeFromDocument, scanScopePath, targetInScope } from '#domain/scan-scope.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { declaredSecrets } from '../search-config.ts'
import { recordAuditEvent } from './audit.ts'
import { dastKeySecret, dastKeySecretValue, hashDastKey } from './dast-keys.ts'
import { companyManagedBy, readOrgActor, revokeCompanyToken, type OrgActor } from './org-actor.ts'

const companyForKeys = (db: Firestore, tx: Transaction, actor: OrgActor, slug: string) =>
  companyManagedBy(db, tx, actor, slug, mayManageDastKeysOf)

export const createDastKey = defineCallable('createDastKey', { secrets: declaredSecrets(dastKeySecret) }, async (caller, request) => {
  const secret = dastKeySecretValue()
  if (!secret) throw new HttpsError('failed-precondition', dastKeyMessages.notSetUp)
  const db = adminDb()
  const now = Date.now()
  const { id, token } = newDastKeyToken()
  await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    const company = await companyForKeys(db, tx, actor, request.company)
    const scope = scanScopeFromDocument((await tx.get(db.doc(scanScopePath(company.slug)))).data())
    const outside = request.allowedTargets.find((target) => !targetInScope(scope, target))
    if (outside !== undefined) throw new HttpsError('invalid-argument', dastKeyMessages.outOfScope(outside))
    const expiresAt = expiryFrom(now, request.expiresInDays)
    tx.create(
      db.doc(dastKeyPath(id)),
      newDastKeyDocument({
        id,
        company: company.slug,
        name: request.name,
        last4: token.slice(-4),
        allowedTargets: request.allowedTargets,
        publishAtOnce: request.publishAtOnce,
        expiresAt: Timestamp.fromMillis(expiresAt),
        createdAt: FieldValue.serverTimestamp(),
        createdBy: actor.by,
      }),
    )
    tx.create(db.doc(dastKeyHashPath(id)), { hash: hashDastKey(secret, token), company: company.slug })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'dast_key.created',
      target: { kind: 'dast_key', id, label: request.name },
      companyId: company.slug,
      before: null,
      after: {
        name: request.name,
        allowedTargets: request.allowedTargets,
        publishAtOnce: request.publishAtOnce,
        expiresAt: new Date(expiresAt).toISOString(),
      },
    })
  })
  return { id, token }
})

export const revokeDastKey = defineCallable('revokeDastKey', {}, async (caller, request) => {
  const revoked = await revokeCompanyToken(
    adminDb(),
    caller,
    {
      path: dastKeyPath,
      read: dastKeyFromDocument,
      may: mayManageDastKeysOf,
      noToken: dastKeyMessages.noKey,
      action: 'dast_key.revoked',
      target: 'dast_key',
    },
    request.id,
  )
  return { revoked }
})
