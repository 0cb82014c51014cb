// The callables of /admin/webhooks (decision 0056): register an endpoint (its secret shown once),
// rotate its secret, disable or enable it, delete it, and send a delivery again. Each needs someone
// who may select the company at level 3 (mayManageWebhooksOf), read in the change's transaction,
// and each change of an endpoint is an audit event of the company written with it. An endpoint's
// address must reach a public address (egress.ts) when it is registered, and again at each attempt.
import { FieldValue, Timestamp, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayManageWebhooksOf } from '#domain/access.ts'
import type { AuditAction, AuditSnapshot } from '#domain/audit-events.ts'
import {
  newWebhookEndpointId,
  newWebhookSecret,
  WEBHOOK_DELIVERIES_COLLECTION,
  WEBHOOK_ENDPOINTS_COLLECTION,
  WEBHOOK_LIMITS,
  WEBHOOK_PREVIOUS_SECRET_MS,
  webhookDeliveryFromDocument,
  webhookDeliveryPath,
  webhookEndpointFromDocument,
  webhookEndpointPath,
  webhookMessages,
  webhookSecretPath,
  type WebhookEndpoint,
} from '#domain/webhooks.ts'
import { adminDb } from '../admin.ts'
import { recordAuditEvent } from '../admin/audit.ts'
import { companyManagedBy, readOrgActor, type OrgActor } from '../admin/org-actor.ts'
import { defineCallable, type Caller } from '../define-callable.ts'
import { attemptDelivery, resendFields } from './deliver.ts'
import { judgeWebhookUrl, webhookEgressPolicy } from './egress.ts'

export const createWebhookEndpoint = defineCallable('createWebhookEndpoint', {}, async (caller, request) => {
  const verdict = await judgeWebhookUrl(request.url, webhookEgressPolicy())
  if ('refusal' in verdict) throw new HttpsError('invalid-argument', `${verdict.refusal}.`)
  const db = adminDb()
  const id = newWebhookEndpointId()
  const secret = newWebhookSecret()
  await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    const company = await companyManagedBy(db, tx, actor, request.company, mayManageWebhooksOf)
    const existing = await tx.get(db.collection(WEBHOOK_ENDPOINTS_COLLECTION).where('company', '==', company.slug))
    if (existing.size >= WEBHOOK_LIMITS.endpointsPerCompany) throw new HttpsError('resource-exhausted', webhookMessages.tooMany)
    tx.create(db.doc(webhookEndpointPath(id)), {
      company: company.slug,
      url: request.url,
      events: request.events,
      enabled: true,
      createdAt: FieldValue.serverTimestamp(),
      createdBy: actor.by,
      secretRotatedAt: null,
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: actor.by,
    })
    tx.create(db.doc(webhookSecretPath(id)), { company: company.slug, secret, previous: null })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'webhook.created',
      target: { kind: 'webhook', id, label: request.url },
      companyId: company.slug,
      before: null,
      after: { url: request.url, events: request.events },
    })
  })
  return { id, secret }
})

/** The endpoint, once the caller may manage its company's webhooks; not-found before anything is said of it. */
async function managedEndpoint(
  db: Firestore,
  tx: Transaction,
  caller: Caller,
  id: string,
): Promise<{ actor: OrgActor; endpoint: WebhookEndpoint }> {
  const actor = await readOrgActor(db, tx, caller)
  const endpoint = webhookEndpointFromDocument(id, (await tx.get(db.doc(webhookEndpointPath(id)))).data())
  if (!endpoint) throw new HttpsError('not-found', webhookMessages.noEndpoint)
  await companyManagedBy(db, tx, actor, endpoint.company, mayManageWebhooksOf)
  return { actor, endpoint }
}

const audit = (actor: OrgActor, endpoint: WebhookEndpoint, action: AuditAction, before: AuditSnapshot, after: AuditSnapshot) => ({
  actor: actor.audit,
  action,
  target: { kind: 'webhook' as const, id: endpoint.id, label: endpoint.url },
  companyId: endpoint.company,
  before,
  after,
})

export const rotateWebhookSecret = defineCallable('rotateWebhookSecret', {}, async (caller, request) => {
  const db = adminDb()
  const secret = newWebhookSecret()
  const now = Date.now()
  await db.runTransaction(async (tx) => {
    const { actor, endpoint } = await managedEndpoint(db, tx, caller, request.id)
    const stored = (await tx.get(db.doc(webhookSecretPath(endpoint.id)))).get('secret')
    tx.set(db.doc(webhookSecretPath(endpoint.id)), {
      company: endpoint.company,
      secret,
      // The secret before still signs for a day, beside the new one, while the receiver switches.
      previous: typeof stored === 'string' ? { secret: stored, until: Timestamp.fromMillis(now + WEBHOOK_PREVIOUS_SECRET_MS) } : null,
    })
    tx.update(db.doc(webhookEndpointPath(endpoint.id)), {
      secretRotatedAt: FieldValue.serverTimestamp(),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: actor.by,
    })
    recordAuditEvent(db, tx, audit(actor, endpoint, 'webhook.secret_rotated', null, null))
  })
  return { secret }
})

export const setWebhookEndpointEnabled = defineCallable('setWebhookEndpointEnabled', {}, async (caller, request) => {
  const db = adminDb()
  const changed = await db.runTransaction(async (tx) => {
    const { actor, endpoint } = await managedEndpoint(db, tx, caller, request.id)
    if (endpoint.enabled === request.enabled) return false
    tx.update(db.doc(webhookEndpointPath(endpoint.id)), {
      enabled: request.enabled,
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: actor.by,
    })
    recordAuditEvent(
      db,
      tx,
      audit(
        actor,
        endpoint,
        request.enabled ? 'webhook.enabled' : 'webhook.disabled',
        { enabled: endpoint.enabled },
        { enabled: request.enabled },
      ),
    )
    return true
  })
  return { changed }
})

/** Deliveries removed per batch when an endpoint goes. */
const DELETE_PAGE = 400

export const deleteWebhookEndpoint = defineCallable('deleteWebhookEndpoint', {}, async (caller, request) => {
  const db = adminDb()
  await db.runTransaction(async (tx) => {
    const { actor, endpoint } = await managedEndpoint(db, tx, caller, request.id)
    tx.delete(db.doc(webhookEndpointPath(endpoint.id)))
    tx.delete(db.doc(webhookSecretPath(endpoint.id)))
    recordAuditEvent(db, tx, audit(actor, endpoint, 'webhook.deleted', { url: endpoint.url, events: endpoint.events }, null))
  })
  // Its log goes with it; an attempt under way finds no endpoint and records nothing more on it.
  for (;;) {
    const page = await db.collection(WEBHOOK_DELIVERIES_COLLECTION).where('endpointId', '==', request.id).limit(DELETE_PAGE).get()
    if (page.empty) break
    const batch = db.batch()
    for (const doc of page.docs) batch.delete(doc.ref)
    await batch.commit()
  }
  return { changed: true }
})

export const resendWebhookDelivery = defineCallable('resendWebhookDelivery', {}, async (caller, request) => {
  const db = adminDb()
  const now = Date.now()
  await db.runTransaction(async (tx) => {
    const ref = db.doc(webhookDeliveryPath(request.id))
    const delivery = webhookDeliveryFromDocument(request.id, (await tx.get(ref)).data())
    if (!delivery) throw new HttpsError('not-found', webhookMessages.noDelivery)
    const { endpoint } = await managedEndpoint(db, tx, caller, delivery.endpointId)
    if (!endpoint.enabled) throw new HttpsError('failed-precondition', 'Enable the endpoint before sending again.')
    tx.update(ref, resendFields(delivery.attempt, now))
  })
  // Sent now, so the log shows its answer at once; should this call stop, the sweep sends it.
  await attemptDelivery(db, request.id, now, { policy: webhookEgressPolicy() })
  return { changed: true }
})
