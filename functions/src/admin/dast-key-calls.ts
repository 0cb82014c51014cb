// The DAST key callables of /admin/dast: createDastKey makes a key (shown once; only its keyed
// hash is kept) for targets within the company's scope; revokeDastKey ends it at once. Both need
// the company's DAST triggering switch and someone who may select the company at level 3.
import { FieldValue, Timestamp, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayManageDastKeysOf } from '#domain/access.ts'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { companyMessages } from '#domain/company-admin.ts'
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
import { allow, readOrgActor, selectsCompany, type OrgActor } from './org-actor.ts'

/** The company, once the actor may manage its keys: permission-denied before anything is said of it. */
async function companyForKeys(db: Firestore, tx: Transaction, actor: OrgActor, slug: string): Promise<Company> {
  const selects = selectsCompany(actor, slug)
  allow(selects)
  const company = companyFromDocument(slug, (await tx.get(db.doc(companyPath(slug)))).data())
  if (!company) throw new HttpsError('not-found', companyMessages.noCompany(slug))
  allow(mayManageDastKeysOf(actor.access, company, selects))
  return company
}

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
  const db = adminDb()
  const revoked = await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    const snapshot = await tx.get(db.doc(dastKeyPath(request.id)))
    const key = snapshot.exists ? dastKeyFromDocument(request.id, snapshot.data()) : null
    if (!key) throw new HttpsError('not-found', dastKeyMessages.noKey)
    await companyForKeys(db, tx, actor, key.company)
    if (key.revokedAt !== null) return false
    tx.update(db.doc(dastKeyPath(request.id)), { revokedAt: FieldValue.serverTimestamp(), revokedBy: actor.by })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'dast_key.revoked',
      target: { kind: 'dast_key', id: key.id, label: key.name },
      companyId: key.company,
      before: { revokedAt: null },
      after: { revokedBy: actor.by },
    })
    return true
  })
  return { revoked }
})
