// The functions that send webhook deliveries (decision 0056): each new delivery is attempted as
// soon as it is written, and every minute the sweep attempts those whose next attempt is due (the
// retries, and any attempt a stopped instance left claimed). The work is in deliver.ts.
import '../options.ts'
import * as logger from 'firebase-functions/logger'
import { onDocumentCreated } from 'firebase-functions/v2/firestore'
import { onSchedule } from 'firebase-functions/v2/scheduler'
import { WEBHOOK_DELIVERIES_COLLECTION } from '#domain/webhooks.ts'
import { adminDb } from '../admin.ts'
import { attemptDelivery, sweepWebhookDeliveries as sweep } from './deliver.ts'
import { webhookEgressPolicy } from './egress.ts'

export const sendWebhookDelivery = onDocumentCreated(
  { document: `${WEBHOOK_DELIVERIES_COLLECTION}/{id}`, timeoutSeconds: 60 },
  async (event) => {
    const outcome = await attemptDelivery(adminDb(), event.params.id, Date.now(), { policy: webhookEgressPolicy() })
    logger.info('sendWebhookDelivery', { id: event.params.id, outcome })
  },
)

export const sweepWebhookDeliveries = onSchedule({ schedule: 'every 1 minutes', timeZone: 'UTC', timeoutSeconds: 300 }, async () => {
  const counts = await sweep(adminDb(), Date.now(), { policy: webhookEgressPolicy() })
  if (Object.values(counts).some((n) => n > 0)) logger.info('sweepWebhookDeliveries', counts)
})
