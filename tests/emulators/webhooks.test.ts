// Webhooks end to end against the emulators (decision 0056): a company admin registers an endpoint
// on a receiver this test starts on loopback; a finding's status change made through the callable
// is queued with the change and sent by the functions' delivery trigger, signed as the Standard
// Webhooks specification says; a 500 is retried by the sweep after its backoff; "Send again" sends
// the same message once more; a rotation signs with both secrets; a disabled endpoint gets nothing;
// a deleted one takes its log with it. Who may register is checked, and no client reads a secret.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { connectFirestoreEmulator, doc, getDoc, getFirestore } from 'firebase/firestore/lite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import type { StoredFinding } from '#domain/findings.ts'
import { DAY_MS } from '#domain/sla.ts'
import { storedEmail, userAccessPath } from '#domain/users-access.ts'
import {
  verifyWebhook,
  WEBHOOK_DELIVERIES_COLLECTION,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookDeliveryFromDocument,
  webhookEndpointFromDocument,
  webhookEndpointPath,
  webhookSecretPath,
  type WebhookDelivery,
} from '#domain/webhooks.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS } from '../../emulators/firebase/env.ts'
import { applyFindingChanges } from '../../functions/src/reports/finding-store.ts'
import { attemptDelivery, sweepWebhookDeliveries } from '../../functions/src/webhooks/deliver.ts'
import { companyDocument, findingDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `wh-${unique()}`
const OTHER = `wh-other-${unique()}`
const LOCAL = { policy: { allowLoopback: true } }

let admin: AdminClients
const clients: CallableClient[] = []

interface Person {
  uid: string
  client: CallableClient
}

async function person(name: string, level: number, companies: string[]): Promise<Person> {
  const client = connectCallableClient(`webhooks-${name}`)
  clients.push(client)
  const claims = tokenClaims(level)
  const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled: [], servicesManaged: [], email: storedEmail(email) })
  return { uid, client }
}

const call = async <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) =>
  (await callByName(who.client, name, data)) as CallableResponse<N>

/** What the receiver was sent, and what it answers next (200 unless told). */
interface Received {
  headers: http.IncomingHttpHeaders
  body: string
}

const received: Received[] = []
const answers: { status: number; body: string }[] = []
let receiver: http.Server
let hookUrl = ''

/** What `read` gives once `check` holds: the functions work on their own time. */
const until = <T>(read: () => Promise<T> | T, check: (value: T) => boolean, what: string): Promise<T> =>
  vi.waitFor(
    async () => {
      const value = await read()
      if (!check(value)) throw new Error(`Still waiting for ${what}: ${JSON.stringify(value)}`)
      return value
    },
    { timeout: 20_000, interval: 100 },
  )

async function seedFinding(id: string, overrides: Partial<StoredFinding> = {}) {
  await admin.db.runTransaction((tx) =>
    applyFindingChanges(admin.db, tx, {
      company: SLUG,
      updatedBy: 'analyst@sectest.example',
      findings: [{ id, before: null, patch: findingDocument('dast', overrides, Date.now() - DAY_MS), change: null }],
    }),
  )
}

async function deliveriesOf(endpointId: string): Promise<WebhookDelivery[]> {
  const snapshot = await admin.db.collection(WEBHOOK_DELIVERIES_COLLECTION).where('endpointId', '==', endpointId).get()
  return snapshot.docs.flatMap((d) => webhookDeliveryFromDocument(d.id, d.data()) ?? [])
}

const verified = (secret: string, message: Received, nowSeconds = Math.floor(Date.now() / 1000)) =>
  verifyWebhook(
    secret,
    {
      id: String(message.headers['webhook-id'] ?? ''),
      timestamp: String(message.headers['webhook-timestamp'] ?? ''),
      signature: String(message.headers['webhook-signature'] ?? ''),
    },
    message.body,
    nowSeconds,
  )

let companyAdmin: Person, manager: Person, otherAdmin: Person

beforeAll(async () => {
  admin = connectToEmulators()
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      const answer = answers.shift() ?? { status: 200, body: 'thanks' }
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body)
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableDast: true, enableViewResultsNetwork: true }))
  await admin.db.doc(companyPath(OTHER)).set(companyDocument(OTHER))
  ;[companyAdmin, manager, otherAdmin] = await Promise.all([
    person('admin', LEVEL.companyAdmin, [SLUG]),
    person('manager', LEVEL.clientManager, [SLUG]),
    person('other-admin', LEVEL.companyAdmin, [OTHER]),
  ])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await new Promise((resolve) => receiver.close(resolve))
  await disconnect(admin)
})

describe('registering an endpoint', () => {
  it('is refused to those who are not admins of the company, and for addresses that are not public', async () => {
    const request = { company: SLUG, url: hookUrl, events: ['finding.status_changed' as const] }
    await expectCallableError(call(manager, 'createWebhookEndpoint', request), 'permission-denied')
    await expectCallableError(call(otherAdmin, 'createWebhookEndpoint', request), 'permission-denied')
    for (const url of ['https://10.0.0.8/hook', 'https://169.254.169.254/latest/meta-data/', 'https://[fd00::1]/hook'])
      await expectCallableError(call(companyAdmin, 'createWebhookEndpoint', { ...request, url }), 'invalid-argument')
    const listed = await admin.db.collection('webhook_endpoints').where('company', '==', SLUG).get()
    expect(listed.size).toBe(0)
  })
})

describe('deliveries', () => {
  let endpointId = ''
  let secret = ''

  it('go to a registered endpoint for a status change, signed, once', async () => {
    const created = await call(companyAdmin, 'createWebhookEndpoint', { company: SLUG, url: hookUrl, events: ['finding.status_changed'] })
    endpointId = created.id
    secret = created.secret
    expect(secret).toMatch(/^whsec_/)
    const endpoint = webhookEndpointFromDocument(endpointId, (await admin.db.doc(webhookEndpointPath(endpointId)).get()).data())
    expect(endpoint).toMatchObject({ company: SLUG, url: hookUrl, enabled: true, events: ['finding.status_changed'] })

    // The secret is kept apart, where no client reads it, not even the admin who made it.
    const db = getFirestore(companyAdmin.client.app)
    connectFirestoreEmulator(db, EMULATOR_HOST, EMULATOR_PORTS.firestore)
    await expect(getDoc(doc(db, webhookSecretPath(endpointId)))).rejects.toMatchObject({ code: 'permission-denied' })
    expect((await getDoc(doc(db, webhookEndpointPath(endpointId)))).exists()).toBe(true)

    const findingId = `wh-f-${unique()}`
    await seedFinding(findingId)
    // A new finding is not an event this endpoint chose.
    expect(await deliveriesOf(endpointId)).toEqual([])

    const before = received.length
    expect(
      await call(manager, 'changeFindingStatus', { company: SLUG, findingIds: [findingId], action: 'start_remediation' }),
    ).toMatchObject({
      changed: [findingId],
    })
    await until(
      () => received.length,
      (n) => n > before,
      'the delivery',
    )
    const message = received[before]!
    expect(await verified(secret, message)).toBe(true)
    expect(message.headers['content-type']).toBe('application/json')
    const body = JSON.parse(message.body) as { id: string; type: string; timestamp: string; data: Record<string, string> }
    expect(body).toMatchObject({
      type: 'finding.status_changed',
      data: { company: SLUG, service: 'dast', findingId, from: 'open', to: 'in_remediation' },
    })
    expect(message.headers['webhook-id']).toBe(body.id)

    const [delivery] = await until(
      () => deliveriesOf(endpointId),
      (list) => list[0]?.state === 'delivered',
      'the delivered state',
    )
    expect(delivery).toMatchObject({ eventId: body.id, attempt: 1, type: 'finding.status_changed' })
    expect(delivery!.attempts[0]).toMatchObject({ n: 1, status: 200, answer: 'thanks', error: null })
    expect(await deliveriesOf(endpointId)).toHaveLength(1)
  })

  it('are retried after a 500, by the sweep once the backoff has passed', async () => {
    const findingId = `wh-r-${unique()}`
    await seedFinding(findingId)
    answers.push({ status: 500, body: 'busy' })
    const before = received.length
    await call(manager, 'changeFindingStatus', { company: SLUG, findingIds: [findingId], action: 'start_remediation' })
    const pending = await until(
      async () => (await deliveriesOf(endpointId)).find((d) => d.body.includes(findingId)),
      (d) => d?.attempt === 1,
      'the first attempt',
    )
    expect(pending).toMatchObject({ state: 'pending', attempts: [{ n: 1, status: 500, answer: 'busy' }] })
    const first = pending!.attempts[0]!
    expect(pending!.nextAttemptAt).toBe(first.at + WEBHOOK_RETRY_DELAYS_MS[0])

    // Not due yet: nothing is sent.
    expect(await attemptDelivery(admin.db, pending!.id, first.at + 1_000, LOCAL)).toBe('not-due')
    const later = first.at + WEBHOOK_RETRY_DELAYS_MS[0] + 1_000
    const swept = await sweepWebhookDeliveries(admin.db, later, LOCAL)
    expect(swept.delivered).toBeGreaterThanOrEqual(1)
    expect(received.length).toBe(before + 2)
    const retry = received[before + 1]!
    expect(retry.headers['webhook-id']).toBe(received[before]!.headers['webhook-id'])
    expect(await verified(secret, retry, Math.floor(later / 1000))).toBe(true)
    const done = webhookDeliveryFromDocument(
      pending!.id,
      (await admin.db.doc(`${WEBHOOK_DELIVERIES_COLLECTION}/${pending!.id}`).get()).data(),
    )
    expect(done).toMatchObject({ state: 'delivered', attempt: 2, nextAttemptAt: null })
    expect(done!.attempts.map((a) => a.status)).toEqual([500, 200])
  })

  it('are sent again on request, and signed by both secrets for a day after a rotation', async () => {
    const [delivery] = (await deliveriesOf(endpointId)).filter((d) => d.state === 'delivered')
    const { secret: rotated } = await call(companyAdmin, 'rotateWebhookSecret', { id: endpointId })
    expect(rotated).not.toBe(secret)
    await expectCallableError(call(manager, 'resendWebhookDelivery', { id: delivery!.id }), 'permission-denied')
    await expectCallableError(call(otherAdmin, 'resendWebhookDelivery', { id: delivery!.id }), 'permission-denied')
    const before = received.length
    expect(await call(companyAdmin, 'resendWebhookDelivery', { id: delivery!.id })).toEqual({ changed: true })
    expect(received.length).toBe(before + 1)
    const again = received[before]!
    expect(again.headers['webhook-id']).toBe(delivery!.eventId)
    expect(String(again.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(await verified(rotated, again)).toBe(true)
    expect(await verified(secret, again)).toBe(true)
    secret = rotated
  })

  it('stop while the endpoint is disabled, and go with it when it is deleted', async () => {
    expect(await call(companyAdmin, 'setWebhookEndpointEnabled', { id: endpointId, enabled: false })).toEqual({ changed: true })
    const count = (await deliveriesOf(endpointId)).length
    const findingId = `wh-d-${unique()}`
    await seedFinding(findingId)
    await call(manager, 'changeFindingStatus', { company: SLUG, findingIds: [findingId], action: 'start_remediation' })
    expect(await deliveriesOf(endpointId)).toHaveLength(count)

    await expectCallableError(call(otherAdmin, 'deleteWebhookEndpoint', { id: endpointId }), 'permission-denied')
    expect(await call(companyAdmin, 'deleteWebhookEndpoint', { id: endpointId })).toEqual({ changed: true })
    expect((await admin.db.doc(webhookEndpointPath(endpointId)).get()).exists).toBe(false)
    expect((await admin.db.doc(webhookSecretPath(endpointId)).get()).exists).toBe(false)
    expect(await deliveriesOf(endpointId)).toEqual([])
    const trail = await admin.db.collection('audit_events').where('companyId', '==', SLUG).get()
    expect(trail.docs.map((d) => d.get('action')).sort()).toEqual([
      'webhook.created',
      'webhook.deleted',
      'webhook.disabled',
      'webhook.secret_rotated',
    ])
  })
})
