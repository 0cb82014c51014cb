import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  CreateWebhookEndpointRequestSchema,
  findingChangeEvents,
  newWebhookSecret,
  verifyWebhook,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookBody,
  webhookHeaders,
  webhookRetryDelay,
  webhookSignature,
} from './webhooks.ts'

// The Standard Webhooks specification's own example (its reference libraries' "sign function
// works" test): secret, message id, timestamp and payload, and the signature they give.
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
}

describe('webhook signatures', () => {
  it("give the Standard Webhooks specification's test vector", async () => {
    expect(await webhookSignature(SPEC.secret, SPEC.id, SPEC.timestamp, SPEC.body)).toBe(SPEC.signature)
    // The prefix is not part of the key.
    expect(await webhookSignature(SPEC.secret.slice('whsec_'.length), SPEC.id, SPEC.timestamp, SPEC.body)).toBe(SPEC.signature)
  })

  it('are verified within the tolerance, against any of the signatures given, and refused otherwise', async () => {
    const headers = { id: SPEC.id, timestamp: String(SPEC.timestamp), signature: SPEC.signature }
    expect(await verifyWebhook(SPEC.secret, headers, SPEC.body, SPEC.timestamp + 60)).toBe(true)
    expect(await verifyWebhook(SPEC.secret, { ...headers, signature: `v1,AAAA ${SPEC.signature}` }, SPEC.body, SPEC.timestamp)).toBe(true)
    expect(await verifyWebhook(SPEC.secret, headers, SPEC.body, SPEC.timestamp + 301)).toBe(false)
    expect(await verifyWebhook(SPEC.secret, headers, `${SPEC.body} `, SPEC.timestamp)).toBe(false)
    expect(await verifyWebhook(SPEC.secret, { ...headers, id: 'msg_other' }, SPEC.body, SPEC.timestamp)).toBe(false)
    expect(await verifyWebhook(newWebhookSecret(), headers, SPEC.body, SPEC.timestamp)).toBe(false)
    expect(await verifyWebhook(SPEC.secret, { ...headers, signature: null }, SPEC.body, SPEC.timestamp)).toBe(false)
  })

  it('are made with every secret of a rotation, the new one first', async () => {
    const [next, previous] = [newWebhookSecret(), newWebhookSecret()]
    const headers = await webhookHeaders([next, previous], 'evt_1', 1_700_000_000, '{}')
    expect(headers['webhook-id']).toBe('evt_1')
    expect(headers['webhook-timestamp']).toBe('1700000000')
    const given = { id: 'evt_1', timestamp: '1700000000', signature: headers['webhook-signature']! }
    expect(given.signature.split(' ')).toHaveLength(2)
    expect(await verifyWebhook(next, given, '{}', 1_700_000_000)).toBe(true)
    expect(await verifyWebhook(previous, given, '{}', 1_700_000_000)).toBe(true)
  })

  it('use secrets of 32 random bytes behind whsec_', () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(atob(secret.slice(6))).toHaveLength(32)
    expect(newWebhookSecret()).not.toBe(secret)
  })
})

describe('webhook events', () => {
  it('are new, status changed (and reopened), and SLA breached, from a finding before and after', () => {
    expect(findingChangeEvents(null, { status: 'open', slaState: 'breached' })).toEqual([{ type: 'finding.new' }])
    expect(findingChangeEvents({ status: 'open', slaState: 'ok' }, { status: 'in_remediation', slaState: 'ok' })).toEqual([
      { type: 'finding.status_changed', from: 'open', to: 'in_remediation' },
    ])
    expect(findingChangeEvents({ status: 'fixed', slaState: 'none' }, { status: 'reopened', slaState: 'ok' })).toEqual([
      { type: 'finding.status_changed', from: 'fixed', to: 'reopened' },
      { type: 'finding.reopened', from: 'fixed', to: 'reopened' },
    ])
    expect(findingChangeEvents({ status: 'open', slaState: 'due_soon' }, { status: 'open', slaState: 'breached' })).toEqual([
      { type: 'sla.breached' },
    ])
    expect(findingChangeEvents({ status: 'open', slaState: 'breached' }, { status: 'open', slaState: 'breached' })).toEqual([])
  })

  it('have a thin body: id, type, time and the ids of what changed', () => {
    const body = webhookBody({
      id: 'evt_x',
      type: 'finding.status_changed',
      at: Date.UTC(2026, 11, 4, 1, 2, 3),
      data: { company: 'acme', service: 'dast', findingId: 'f1', from: 'open', to: 'fixed' },
    })
    expect(JSON.parse(body)).toEqual({
      id: 'evt_x',
      type: 'finding.status_changed',
      timestamp: '2026-12-04T01:02:03.000Z',
      data: { company: 'acme', service: 'dast', findingId: 'f1', from: 'open', to: 'fixed' },
    })
  })

  it('are retried five times over about five hours, and once more after "Send again"', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(5)
    const waits = [1, 2, 3, 4].map((made) => webhookRetryDelay(made))
    expect(waits).toEqual([...WEBHOOK_RETRY_DELAYS_MS])
    expect(waits.reduce((sum: number, wait) => sum + (wait ?? 0), 0) / 3_600_000).toBeCloseTo(5.18, 1)
    expect(webhookRetryDelay(5)).toBeNull()
    // Sent again after 5: one more attempt, and no retry after it.
    expect(webhookRetryDelay(6, 6)).toBeNull()
  })
})

describe('webhook endpoints', () => {
  const parse = (url: string, events: string[] = ['finding.new']) =>
    v.safeParse(CreateWebhookEndpointRequestSchema, { company: 'acme', url, events })

  it('take https addresses, and plain http only to loopback', () => {
    expect(parse('https://hooks.example.com/in#x')).toMatchObject({ success: true, output: { url: 'https://hooks.example.com/in' } })
    expect(parse('http://127.0.0.1:9999/hook').success).toBe(true)
    expect(parse('http://hooks.example.com/in').success).toBe(false)
    expect(parse('https://user:pw@hooks.example.com/').success).toBe(false)
    expect(parse('ftp://hooks.example.com/').success).toBe(false)
    expect(parse('not a url').success).toBe(false)
  })

  it('take one or more known events, each once', () => {
    expect(parse('https://h.example/', []).success).toBe(false)
    expect(parse('https://h.example/', ['finding.deleted']).success).toBe(false)
    expect(parse('https://h.example/', ['finding.new', 'finding.new']).success).toBe(false)
    expect(parse('https://h.example/', ['scan.published', 'sla.breached']).success).toBe(true)
  })
})
