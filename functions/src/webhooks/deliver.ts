// Sending a delivery (decision 0056): an attempt claims the delivery in a transaction (its next
// attempt moved past the attempt's own time, so the trigger and the sweep never send it together),
// signs the body afresh with the endpoint's secret (and the previous one for a day after a
// rotation), POSTs it to the address the egress guard judged, within the timeout, and records the
// answer: delivered on a 2xx; otherwise the next attempt after the backoff, or failed after the
// last. Only the delivery is written: a burst of deliveries to one endpoint (a large publication)
// writes no shared document (decision 0037). The clock and the egress policy are parameters, so
// tests call this directly.
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore'
import {
  WEBHOOK_DELIVERIES_COLLECTION,
  WEBHOOK_LIMITS,
  webhookDeliveryFromDocument,
  webhookDeliveryPath,
  webhookEndpointFromDocument,
  webhookEndpointPath,
  webhookHeaders,
  webhookRetryDelay,
  webhookSecretPath,
  type WebhookAttempt,
} from '#domain/webhooks.ts'
import { judgeWebhookUrl, postToWebhook, type EgressAnswer, type EgressPolicy, type Resolve } from './egress.ts'

/** How long a claimed attempt holds its delivery: past the timeout, so a crashed one is taken up again. */
export const ATTEMPT_LEASE_MS = 2 * 60_000

export interface AttemptOptions {
  policy: EgressPolicy
  resolve?: Resolve
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed' | 'skipped' | 'not-due'

/** The secrets that sign now: the current one, and the previous one while it still counts. */
export function signingSecrets(data: unknown, now: number): string[] {
  const stored = (data ?? {}) as { secret?: unknown; previous?: { secret?: unknown; until?: { toMillis(): number } } | null }
  const secrets = typeof stored.secret === 'string' ? [stored.secret] : []
  const previous = stored.previous
  if (previous && typeof previous.secret === 'string' && previous.until && previous.until.toMillis() > now) secrets.push(previous.secret)
  return secrets
}

export async function attemptDelivery(db: Firestore, id: string, now: number, options: AttemptOptions): Promise<AttemptOutcome> {
  const ref = db.doc(webhookDeliveryPath(id))
  const claim = await db.runTransaction(async (tx) => {
    const delivery = webhookDeliveryFromDocument(id, (await tx.get(ref)).data())
    if (!delivery || delivery.state !== 'pending' || (delivery.nextAttemptAt ?? 0) > now) return null
    const [endpointSnapshot, secretSnapshot] = await tx.getAll(
      db.doc(webhookEndpointPath(delivery.endpointId)),
      db.doc(webhookSecretPath(delivery.endpointId)),
    )
    const endpoint = webhookEndpointFromDocument(delivery.endpointId, endpointSnapshot!.data())
    const secrets = signingSecrets(secretSnapshot!.data(), now)
    if (!endpoint || !endpoint.enabled || secrets.length === 0) {
      tx.update(ref, {
        state: 'skipped',
        nextAttemptAt: null,
        note: endpoint ? 'The endpoint was disabled before this was sent.' : 'The endpoint was deleted before this was sent.',
      })
      return 'skipped' as const
    }
    tx.update(ref, { nextAttemptAt: Timestamp.fromMillis(now + ATTEMPT_LEASE_MS) })
    return { delivery, endpoint, secrets }
  })
  if (claim === null) return 'not-due'
  if (claim === 'skipped') return 'skipped'

  const { delivery, endpoint, secrets } = claim
  const verdict = await judgeWebhookUrl(endpoint.url, options.policy, options.resolve)
  const answer: EgressAnswer =
    'refusal' in verdict
      ? { status: null, answer: '', error: `Refused: ${verdict.refusal}`, durationMs: 0 }
      : await postToWebhook(
          verdict,
          await webhookHeaders(secrets, delivery.eventId, Math.floor(now / 1000), delivery.body),
          delivery.body,
          WEBHOOK_LIMITS.timeoutMs,
        )
  return recordAttempt(db, id, now, answer)
}

async function recordAttempt(db: Firestore, id: string, now: number, answer: EgressAnswer): Promise<AttemptOutcome> {
  const ref = db.doc(webhookDeliveryPath(id))
  return db.runTransaction(async (tx) => {
    const delivery = webhookDeliveryFromDocument(id, (await tx.get(ref)).data())
    if (!delivery) return 'skipped'
    const made = delivery.attempt + 1
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300
    const attempt: WebhookAttempt = {
      n: made,
      at: now,
      status: answer.status,
      durationMs: answer.durationMs,
      answer: answer.answer,
      error: answer.error,
    }
    const delay = ok ? null : webhookRetryDelay(made, delivery.maxAttempts)
    tx.update(ref, {
      attempt: made,
      state: ok ? 'delivered' : delay === null ? 'failed' : 'pending',
      nextAttemptAt: delay === null ? null : Timestamp.fromMillis(now + delay),
      attempts: [...delivery.attempts, attempt].slice(-WEBHOOK_LIMITS.attemptsKept).map((a) => ({ ...a, at: Timestamp.fromMillis(a.at) })),
    })
    return ok ? 'delivered' : delay === null ? 'failed' : 'retrying'
  })
}

/** Deliveries a sweep attempts at most; the next sweep takes the rest. */
export const SWEEP_BATCH = 100
const PARALLEL = 10

/** Attempts every delivery whose next attempt is due (retries, and attempts a crash left claimed). */
export async function sweepWebhookDeliveries(db: Firestore, now: number, options: AttemptOptions): Promise<Record<AttemptOutcome, number>> {
  const due = await db
    .collection(WEBHOOK_DELIVERIES_COLLECTION)
    .where('state', '==', 'pending')
    .where('nextAttemptAt', '<=', Timestamp.fromMillis(now))
    .orderBy('nextAttemptAt')
    .limit(SWEEP_BATCH)
    .get()
  const counts: Record<AttemptOutcome, number> = { delivered: 0, retrying: 0, failed: 0, skipped: 0, 'not-due': 0 }
  const ids = due.docs.map((doc) => doc.id)
  for (let start = 0; start < ids.length; start += PARALLEL) {
    const outcomes = await Promise.all(ids.slice(start, start + PARALLEL).map((id) => attemptDelivery(db, id, now, options)))
    for (const outcome of outcomes) counts[outcome] += 1
  }
  return counts
}

/** "Send again": one more attempt now, whatever the delivery's state (its body and id unchanged). */
export function resendFields(attemptsMade: number, now: number) {
  return {
    state: 'pending',
    maxAttempts: attemptsMade + 1,
    nextAttemptAt: Timestamp.fromMillis(now),
    note: null,
    resentAt: FieldValue.serverTimestamp(),
  }
}
