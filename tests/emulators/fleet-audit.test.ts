// The fleet's administrative changes in the audit trail: each location created, renamed and
// deleted, each enrolment token issued, each agent enrolled, disabled, enabled, rotated and
// removed is one audit event (actor, action, target, before and after) written with the change;
// a refused call or a refused change writes none. Callables are called the way the browser calls
// them; the agent enrols through the agent API's own handler.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { AGENT_API_PATHS } from '#domain/agent-api.ts'
import { generateAgentKeyPair } from '#domain/agent-auth.ts'
import { agentPath, locationPath } from '#domain/agents.ts'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument, type AuditEvent } from '#domain/audit-events.ts'
import type { CallableName, CallableRequest } from '#domain/callables.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { handleAgentRequest } from '../../functions/src/agents/agent-api.ts'
import { fleetCallMessages } from '../../functions/src/agents/fleet-callables.ts'
import { tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)

let admin: AdminClients
const clients: CallableClient[] = []

interface Person {
  uid: string
  email: string
  client: CallableClient
}

async function person(name: string, level: number): Promise<Person> {
  const client = connectCallableClient(`fleet-audit-${name}`)
  clients.push(client)
  const claims = tokenClaims(level, { userType: 'analyst' })
  const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies: [], servicesEnabled: [], servicesManaged: [] })
  return { uid, email, client }
}

const call = <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) => callByName(who.client, name, data)

async function eventsBy(uid: string): Promise<AuditEvent[]> {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('actorUid', '==', uid).get()
  return snapshot.docs.map((d) => auditEventFromDocument(d.id, d.data())!).sort((a, b) => (a.at ?? 0) - (b.at ?? 0))
}

/** Runs `change` and returns the one event it added for `who`. */
async function oneEvent(who: Person, change: () => Promise<unknown>): Promise<AuditEvent> {
  const before = new Set((await eventsBy(who.uid)).map((e) => e.id))
  await change()
  const added = (await eventsBy(who.uid)).filter((e) => !before.has(e.id))
  expect(added, 'one audit event for the change').toHaveLength(1)
  return added[0]!
}

async function noEvent(who: Person, change: () => Promise<unknown>) {
  const before = (await eventsBy(who.uid)).length
  await change()
  expect((await eventsBy(who.uid)).length, 'no audit event for a refusal').toBe(before)
}

let senior: Person
let analyst: Person

beforeAll(async () => {
  admin = connectToEmulators()
  ;[senior, analyst] = await Promise.all([person('senior', LEVEL.seniorAnalyst), person('analyst', LEVEL.analyst)])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

const location = { country: 'GB', region: 'London', network: 'office', egressIps: ['203.0.113.7/32'] }

describe('fleet audit events', () => {
  it('records a location created, renamed and deleted, with the values before and after', async () => {
    const name = `Site ${unique()}`
    let id = ''
    const created = await oneEvent(senior, async () => {
      id = ((await call(senior, 'saveLocation', { name, ...location })) as { id: string }).id
    })
    expect(created).toMatchObject({
      actorEmail: senior.email,
      action: 'location.created',
      target: { kind: 'location', id, label: name },
      companyId: null,
      audience: 'analysts',
      before: null,
      after: { name, ...location },
    })
    expect(created.at).not.toBeNull()

    const renamed = await oneEvent(senior, () => call(senior, 'saveLocation', { id, name: `${name} renamed`, ...location }))
    expect(renamed).toMatchObject({ action: 'location.updated', before: { name }, after: { name: `${name} renamed` } })

    const deleted = await oneEvent(senior, () => call(senior, 'deleteLocation', { id }))
    expect(deleted).toMatchObject({ action: 'location.deleted', target: { id }, before: { name: `${name} renamed` }, after: null })
    expect((await admin.db.doc(locationPath(id)).get()).exists).toBe(false)
  })

  it('records an enrolment token issued, the agent enrolled, disabled, enabled, rotated and removed', async () => {
    const id = ((await call(senior, 'saveLocation', { name: `Fleet ${unique()}`, ...location })) as { id: string }).id
    const agentName = `agent-${unique()}`
    let token = ''
    const issued = await oneEvent(senior, async () => {
      token = ((await call(senior, 'createAgentEnrolment', { locationId: id, name: agentName })) as { token: string }).token
    })
    expect(issued).toMatchObject({
      action: 'agent.enrolment_issued',
      target: { kind: 'agent', label: agentName },
      after: { locationId: id },
    })
    expect(JSON.stringify(issued), 'the token is never in the trail').not.toContain(token)

    const keys = (await generateAgentKeyPair()).pair
    let agentId = ''
    const enrolled = await oneEvent(senior, async () => {
      const answer = await handleAgentRequest(
        admin.db,
        {
          method: 'POST',
          path: AGENT_API_PATHS.enrol,
          body: JSON.stringify({ token, publicKey: keys.publicKey, hostname: 'scanner-1', version: '1.0.0', scanners: [] }),
        },
        Date.now(),
      )
      expect(answer.status).toBe(201)
      agentId = (answer.body as { agentId: string }).agentId
    })
    expect(enrolled).toMatchObject({
      actorEmail: senior.email,
      action: 'agent.enrolled',
      target: { kind: 'agent', id: agentId, label: agentName },
      after: { state: 'active', locationId: id, hostname: 'scanner-1' },
    })

    // A location with an agent is not deleted, and nothing is recorded.
    await noEvent(senior, () =>
      expectCallableError(call(senior, 'deleteLocation', { id }), 'failed-precondition', fleetCallMessages.locationHasAgents),
    )

    for (const [action, recorded, state] of [
      ['disable', 'agent.disabled', 'disabled'],
      ['enable', 'agent.enabled', 'active'],
    ] as const) {
      const event = await oneEvent(senior, () => call(senior, 'changeAgent', { agentId, action }))
      expect(event).toMatchObject({ action: recorded, target: { id: agentId }, after: { state } })
      expect((await admin.db.doc(agentPath(agentId)).get()).get('state')).toBe(state)
    }
    let rotatedToken = ''
    const rotated = await oneEvent(senior, async () => {
      rotatedToken = ((await call(senior, 'changeAgent', { agentId, action: 'rotate' })) as { token: string }).token
    })
    expect(rotated).toMatchObject({ action: 'agent.rotated', target: { id: agentId } })
    expect(rotatedToken).not.toBe('')
    expect(JSON.stringify(rotated)).not.toContain(rotatedToken)

    const removed = await oneEvent(senior, () => call(senior, 'changeAgent', { agentId, action: 'remove' }))
    expect(removed).toMatchObject({ action: 'agent.removed', target: { id: agentId, label: agentName }, after: null })
    expect((await admin.db.doc(agentPath(agentId)).get()).exists).toBe(false)

    expect((await oneEvent(senior, () => call(senior, 'deleteLocation', { id }))).action).toBe('location.deleted')
  })

  it('records nothing for a caller the fleet refuses (an analyst below level 7)', async () => {
    await noEvent(analyst, () => expectCallableError(call(analyst, 'saveLocation', { name: 'Refused', ...location }), 'permission-denied'))
    await noEvent(analyst, () => expectCallableError(call(analyst, 'deleteLocation', { id: 'any' }), 'permission-denied'))
    await noEvent(analyst, () =>
      expectCallableError(call(analyst, 'createAgentEnrolment', { locationId: 'any', name: 'refused' }), 'permission-denied'),
    )
    await noEvent(analyst, () =>
      expectCallableError(call(analyst, 'changeAgent', { agentId: 'any', action: 'remove' }), 'permission-denied'),
    )
  })
})
