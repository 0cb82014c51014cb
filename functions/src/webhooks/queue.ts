// Events become deliveries in the transaction that makes them happen (decision 0056): the finding
// store (a finding new, reopened, moved to another status, past its SLA), a retest's completion and
// a scan's publication name their events, and one delivery per event and subscribed endpoint is
// created with them, under an id made of both, so the event exists exactly when the change does
// and is never queued twice. The delivery trigger and the sweep send them (deliver.ts).
import { Timestamp, type Firestore, type Transaction } from 'firebase-admin/firestore'
import {
  newWebhookDelivery,
  newWebhookEventId,
  WEBHOOK_ENDPOINTS_COLLECTION,
  webhookDeliveryId,
  webhookDeliveryPath,
  webhookEndpointFromDocument,
  type WebhookEndpoint,
  type WebhookEventData,
  type WebhookEventType,
} from '#domain/webhooks.ts'

/**
 * The company's enabled endpoints. Read outside the caller's transaction, so that no change of
 * findings holds a lock on them (nor waits on one); an endpoint registered during the change gets
 * the events after it.
 */
export async function readWebhookTargets(db: Firestore, company: string): Promise<WebhookEndpoint[]> {
  const snapshot = await db.collection(WEBHOOK_ENDPOINTS_COLLECTION).where('company', '==', company).get()
  return snapshot.docs.flatMap((doc) => {
    const endpoint = webhookEndpointFromDocument(doc.id, doc.data())
    return endpoint?.enabled ? [endpoint] : []
  })
}

export interface WebhookEventInput {
  type: WebhookEventType
  data: Omit<WebhookEventData, 'company'>
  /** Epoch milliseconds. */
  at: number
}

/** Creates one delivery per event and endpoint that chose its type; the number created. */
export function queueWebhookDeliveries(
  db: Firestore,
  tx: Transaction,
  company: string,
  targets: readonly WebhookEndpoint[],
  events: readonly WebhookEventInput[],
): number {
  let queued = 0
  for (const input of events) {
    const subscribed = targets.filter((endpoint) => endpoint.events.includes(input.type))
    if (subscribed.length === 0) continue
    const event = { id: newWebhookEventId(), type: input.type, at: input.at, data: { company, ...input.data } }
    for (const endpoint of subscribed) {
      tx.create(
        db.doc(webhookDeliveryPath(webhookDeliveryId(endpoint.id, event.id))),
        newWebhookDelivery(endpoint, event, Timestamp.fromMillis(input.at)),
      )
      queued += 1
    }
  }
  return queued
}
