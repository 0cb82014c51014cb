// The webhooks page's listeners (decision 0056). Loaded with `import()` (Firestore SDK).
import { collection, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import {
  WEBHOOK_DELIVERIES_COLLECTION,
  WEBHOOK_ENDPOINTS_COLLECTION,
  WEBHOOK_LIMITS,
  webhookDeliveryFromDocument,
  webhookEndpointFromDocument,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '#domain/webhooks.ts'
import { unknownYet } from '~/core/cache-snapshots'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { watchPages, type Paged } from '~/core/watch-query'

/** The company's endpoints, newest first. */
export const watchWebhookEndpoints =
  (company: string): Watch<WebhookEndpoint[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), WEBHOOK_ENDPOINTS_COLLECTION), where('company', '==', company), orderBy('createdAt', 'desc')),
      { includeMetadataChanges: true },
      (snapshot) => {
        if (unknownYet(snapshot, snapshot.empty)) return
        next(snapshot.docs.flatMap((d) => webhookEndpointFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? []))
      },
      fail,
    )

/** One endpoint's deliveries, newest first, a page at a time; the company is asked for too, as the rules need. */
export const watchWebhookDeliveries = (company: string, endpointId: string): Watch<Paged<WebhookDelivery>> =>
  watchPages(
    WEBHOOK_DELIVERIES_COLLECTION,
    webhookDeliveryFromDocument,
    WEBHOOK_LIMITS.logPage,
    where('company', '==', company),
    where('endpointId', '==', endpointId),
    orderBy('createdAt', 'desc'),
  )
