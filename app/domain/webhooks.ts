// Signed webhooks (decision 0056): a company admin registers endpoints on /admin/webhooks and
// chooses events; each event is queued as one delivery per endpoint, sent with a thin JSON body and
// signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp,
// webhook-signature: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, the key being the base64
// after `whsec_`), retried with backoff, and kept in a delivery log with each attempt's answer.
//
// - webhook_endpoints/{id}: what the page shows (company, URL, events, enabled);
// - webhook_secrets/{id}: the signing secret (and the one before a rotation, for a day), which no
//   client reads;
// - webhook_deliveries/{endpointId}_{eventId}: one event for one endpoint: its body, state, next
//   attempt and the attempts made.
import * as v from 'valibot'
import { CompanySlugSchema } from './company-admin.ts'
import { randomBase62, TOKEN_ID_PATTERN } from './secret-tokens.ts'
import { TimestampSchema } from './stored.ts'

export const WEBHOOK_ENDPOINTS_COLLECTION = 'webhook_endpoints'
export const WEBHOOK_SECRETS_COLLECTION = 'webhook_secrets'
export const WEBHOOK_DELIVERIES_COLLECTION = 'webhook_deliveries'

export const webhookEndpointPath = (id: string) => `${WEBHOOK_ENDPOINTS_COLLECTION}/${id}`
export const webhookSecretPath = (id: string) => `${WEBHOOK_SECRETS_COLLECTION}/${id}`
export const webhookDeliveryPath = (id: string) => `${WEBHOOK_DELIVERIES_COLLECTION}/${id}`

/** One delivery per event per endpoint: its id says which, so queuing it twice cannot make two. */
export const webhookDeliveryId = (endpointId: string, eventId: string) => `${endpointId}_${eventId}`

export const WEBHOOK_EVENT_TYPES = [
  'finding.new',
  'finding.reopened',
  'finding.status_changed',
  'retest.completed',
  'scan.published',
  'sla.breached',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const webhookEventLabels: Record<WebhookEventType, string> = {
  'finding.new': 'A new finding is published',
  'finding.reopened': 'A finding is reopened',
  'finding.status_changed': 'A finding changes status',
  'retest.completed': 'A retest is completed',
  'scan.published': 'A scan is published',
  'sla.breached': 'A finding breaches its SLA',
}

export const WEBHOOK_LIMITS = {
  url: 2048,
  endpointsPerCompany: 10,
  /** How long an attempt waits for the endpoint's answer. */
  timeoutMs: 10_000,
  /** How much of an answer the log keeps. */
  answerBytes: 1024,
  /** Attempts the log keeps per delivery. */
  attemptsKept: 10,
  /** Deliveries a page of the log shows. */
  logPage: 20,
} as const

/**
 * The waits after each failed attempt: five attempts over about five hours (1 minute, 10 minutes,
 * 1 hour, 4 hours), after which the delivery has failed and waits for "Send again".
 */
export const WEBHOOK_RETRY_DELAYS_MS = [60_000, 10 * 60_000, 60 * 60_000, 4 * 60 * 60_000] as const
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1

/** How long the secret before a rotation still signs (beside the new one), so receivers can switch. */
export const WEBHOOK_PREVIOUS_SECRET_MS = 24 * 60 * 60_000

/** A receiver refuses a timestamp further than this from its clock (the specification's advice). */
export const WEBHOOK_TOLERANCE_S = 5 * 60

export const webhookMessages = {
  url: 'Give the endpoint’s address: https://…',
  urlTooLong: `An endpoint address has at most ${WEBHOOK_LIMITS.url} characters.`,
  urlHttps: 'An endpoint address starts with https:// (and holds no user name or password).',
  eventsRequired: 'Choose at least one event.',
  event: 'That is not an event webhooks send.',
  duplicateEvent: 'Each event appears only once.',
  noEndpoint: 'There is no such webhook endpoint.',
  noDelivery: 'There is no such delivery.',
  tooMany: `A company has at most ${WEBHOOK_LIMITS.endpointsPerCompany} webhook endpoints.`,
} as const

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * An endpoint's address: https, no credentials, no fragment. Plain http is accepted in the form
 * only towards this machine's loopback, which the server refuses in turn unless the local stack's
 * test allowance is on (functions/src/webhooks/egress.ts).
 */
export const WebhookUrlSchema = v.pipe(
  v.string(webhookMessages.url),
  v.trim(),
  v.maxLength(WEBHOOK_LIMITS.url, webhookMessages.urlTooLong),
  v.check((value) => URL.canParse(value), webhookMessages.url),
  v.check((value) => {
    if (!URL.canParse(value)) return true
    const url = new URL(value)
    if (url.username || url.password) return false
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  }, webhookMessages.urlHttps),
  v.transform((value) => {
    const url = new URL(value)
    url.hash = ''
    return url.href
  }),
)

export const WebhookEventsSchema = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, webhookMessages.event), webhookMessages.eventsRequired),
  v.minLength(1, webhookMessages.eventsRequired),
  v.check((events) => new Set(events).size === events.length, webhookMessages.duplicateEvent),
)

const EndpointIdSchema = v.pipe(v.string(webhookMessages.noEndpoint), v.regex(TOKEN_ID_PATTERN, webhookMessages.noEndpoint))
const DeliveryIdSchema = v.pipe(
  v.string(webhookMessages.noDelivery),
  v.regex(/^[0-9A-Za-z]{16}_evt_[0-9A-Za-z]{24}$/, webhookMessages.noDelivery),
)

export const WEBHOOK_SECRET_PREFIX = 'whsec_'
const SecretSchema = v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]{43}=$/, 'Expected a webhook secret'))

export const CreateWebhookEndpointRequestSchema = v.strictObject({
  company: CompanySlugSchema,
  url: WebhookUrlSchema,
  events: WebhookEventsSchema,
})
export type CreateWebhookEndpointRequest = v.InferInput<typeof CreateWebhookEndpointRequestSchema>
export const CreateWebhookEndpointResponseSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(TOKEN_ID_PATTERN)),
  secret: SecretSchema,
})

export const RotateWebhookSecretRequestSchema = v.strictObject({ id: EndpointIdSchema })
export const RotateWebhookSecretResponseSchema = v.strictObject({ secret: SecretSchema })

export const SetWebhookEndpointEnabledRequestSchema = v.strictObject({ id: EndpointIdSchema, enabled: v.boolean() })
export const DeleteWebhookEndpointRequestSchema = v.strictObject({ id: EndpointIdSchema })
export const ResendWebhookDeliveryRequestSchema = v.strictObject({ id: DeliveryIdSchema })
export const WebhookChangedResponseSchema = v.strictObject({ changed: v.boolean() })

/** A new endpoint's id, and each event's: `evt_` and 24 base62 characters. */
export const newWebhookEndpointId = () => randomBase62(16)
export const newWebhookEventId = () => `evt_${randomBase62(24)}`

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (the specification asks for 24 to 64). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + bytesToBase64(crypto.getRandomValues(new Uint8Array(32)))
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** The signature of one attempt: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's bytes. */
export async function webhookSignature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const keyText = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret
  const key = await crypto.subtle.importKey('raw', base64ToBytes(keyText), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`))
  return `v1,${bytesToBase64(new Uint8Array(mac))}`
}

/** The three headers of one attempt, signed with each secret given (the new one first during a rotation). */
export async function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => webhookSignature(secret, id, timestamp, body)))
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') }
}

/**
 * What a receiver checks: the timestamp within the tolerance of its clock (seconds), and one of
 * the header's `v1` signatures equal to the one the secret gives, compared in constant time.
 */
export async function verifyWebhook(
  secret: string,
  headers: { id: string | null; timestamp: string | null; signature: string | null },
  body: string,
  nowSeconds: number,
): Promise<boolean> {
  const { id, timestamp, signature } = headers
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false
  if (Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_S) return false
  const expected = await webhookSignature(secret, id, Number(timestamp), body)
  return signature.split(' ').some((given) => given.length === expected.length && equalInConstantTime(given, expected))
}

function equalInConstantTime(a: string, b: string): boolean {
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/** What an event names: ids only, never a finding's text. */
export interface WebhookEventData {
  company: string
  service: string
  findingId?: string
  scanId?: string
  retestId?: string
  /** A status change: the statuses before and after. */
  from?: string
  to?: string
}

export interface WebhookEvent {
  id: string
  type: WebhookEventType
  /** Epoch milliseconds. */
  at: number
  data: WebhookEventData
}

/** The body every attempt of a delivery sends, as the specification's payload structure has it. */
export const webhookBody = (event: WebhookEvent) =>
  JSON.stringify({ id: event.id, type: event.type, timestamp: new Date(event.at).toISOString(), data: event.data })

/** The wait before attempt `made + 1` after `made` failed ones; null when none is left. */
export const webhookRetryDelay = (made: number, maxAttempts: number = WEBHOOK_MAX_ATTEMPTS): number | null =>
  made >= maxAttempts ? null : (WEBHOOK_RETRY_DELAYS_MS[Math.min(made, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? WEBHOOK_RETRY_DELAYS_MS[0])

/**
 * The events a finding's stored change gives: a new finding; a status change (from one status to
 * another), and a reopening besides; an SLA breach (its state entering `breached`).
 */
export function findingChangeEvents(
  before: { status: string; slaState?: string | null } | null,
  after: { status: string; slaState?: string | null },
): { type: WebhookEventType; from?: string; to?: string }[] {
  if (before === null) return [{ type: 'finding.new' }]
  const out: { type: WebhookEventType; from?: string; to?: string }[] = []
  if (before.status !== after.status) {
    out.push({ type: 'finding.status_changed', from: before.status, to: after.status })
    if (after.status === 'reopened') out.push({ type: 'finding.reopened', from: before.status, to: after.status })
  }
  if (after.slaState === 'breached' && before.slaState !== 'breached') out.push({ type: 'sla.breached' })
  return out
}

// ---- Stored documents, as the pages read them ------------------------------------------------

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed', 'skipped'] as const
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number]

export const webhookDeliveryStateLabels: Record<WebhookDeliveryState, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  skipped: 'Not sent',
}

const AttemptSchema = v.object({
  n: v.number(),
  at: TimestampSchema,
  /** The answer's status; null when none came (refused, timed out, unreachable). */
  status: v.nullable(v.number()),
  durationMs: v.number(),
  /** The first WEBHOOK_LIMITS.answerBytes of the answer. */
  answer: v.optional(v.string(), ''),
  error: v.optional(v.nullable(v.string()), null),
})
export type WebhookAttempt = v.InferOutput<typeof AttemptSchema>

const StoredEndpointSchema = v.object({
  company: v.string(),
  url: v.string(),
  events: v.pipe(
    v.optional(v.array(v.string()), []),
    v.transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type))),
  ),
  enabled: v.optional(v.boolean(), false),
  createdAt: v.optional(v.nullable(TimestampSchema), null),
  createdBy: v.optional(v.string(), ''),
  secretRotatedAt: v.optional(v.nullable(TimestampSchema), null),
})
export type WebhookEndpoint = v.InferOutput<typeof StoredEndpointSchema> & { id: string }

export function webhookEndpointFromDocument(id: string, data: unknown): WebhookEndpoint | null {
  const parsed = v.safeParse(StoredEndpointSchema, data ?? {})
  return parsed.success ? { id, ...parsed.output } : null
}

const StoredDeliverySchema = v.object({
  company: v.string(),
  endpointId: v.string(),
  eventId: v.string(),
  type: v.picklist(WEBHOOK_EVENT_TYPES),
  body: v.string(),
  state: v.picklist(WEBHOOK_DELIVERY_STATES),
  createdAt: TimestampSchema,
  attempt: v.optional(v.number(), 0),
  maxAttempts: v.optional(v.number(), WEBHOOK_MAX_ATTEMPTS),
  nextAttemptAt: v.optional(v.nullable(TimestampSchema), null),
  attempts: v.optional(v.array(AttemptSchema), []),
  note: v.optional(v.nullable(v.string()), null),
})
export type WebhookDelivery = v.InferOutput<typeof StoredDeliverySchema> & { id: string }

export function webhookDeliveryFromDocument(id: string, data: unknown): WebhookDelivery | null {
  const parsed = v.safeParse(StoredDeliverySchema, data ?? {})
  return parsed.success ? { id, ...parsed.output } : null
}

/** A new delivery's document (times as the writer's SDK stores them). */
export const newWebhookDelivery = <Time>(endpoint: { id: string; company: string }, event: WebhookEvent, createdAt: Time) => ({
  company: endpoint.company,
  endpointId: endpoint.id,
  eventId: event.id,
  type: event.type,
  body: webhookBody(event),
  state: 'pending' as const,
  createdAt,
  attempt: 0,
  maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  nextAttemptAt: createdAt,
  attempts: [],
  note: null,
})
