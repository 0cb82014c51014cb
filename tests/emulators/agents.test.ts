// The scanning fleet's server side against the Firestore emulator (decision 0021), through the
// agent API's own handler with the test's clock: enrolment tokens work once and for 24 hours, a
// disabled, rotated or removed agent is refused at once, a request token is accepted once, two
// agents racing for one job get one lease, a job whose agent stops beating goes back to the queue
// and fails after its last attempt, and an uploaded wapiti report becomes a draft scan, but only while
// the agent holds the job. A rotation or a disable withdraws the open tokens; enrolling never enables.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_API_PATHS } from '#domain/agent-api.ts'
import { generateAgentKeyPair, signAgentRequest, type AgentKeyPair } from '#domain/agent-auth.ts'
import { companyScopePath } from '#domain/agent-scope.ts'
import { agentPath, ENROLMENT_TTL_MS, locationPath } from '#domain/agents.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { LEASE_MS, MAX_ATTEMPTS, scanJobFromDocument, scanJobPath } from '#domain/scan-jobs.ts'
import { scanFromDocument, scanPath, scansPath } from '#domain/scans.ts'
import { companyPath } from '#domain/companies.ts'
import { findingsPath } from '#domain/findings.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { handleAgentRequest } from '../../functions/src/agents/agent-api.ts'
import { changeAgentAs, issueEnrolment, queueJob } from '../../functions/src/agents/fleet-callables.ts'
import { fleetMessages } from '../../functions/src/agents/fleet-store.ts'
import { companyDocument } from '../builders.ts'

const unique = () => randomUUID().slice(0, 8)
const COMPANY = `fleet-${unique()}`
const T0 = Date.UTC(2026, 10, 24, 12)
const WAPITI = readFileSync(new URL('../fixtures/scans/wapiti_json/vulnerable-app.json', import.meta.url), 'utf8')

let admin: AdminClients
const SENIOR = { uid: 'fleet-senior', email: 'senior@sectest.example' }

interface TestAgent {
  id: string
  keys: AgentKeyPair
}

const scanners = [
  { name: 'wapiti' as const, version: '3.0.4' },
  { name: 'nmap' as const, version: '7.93' },
]

async function location(companies = [COMPANY]): Promise<string> {
  const id = `loc-${unique()}`
  await admin.db
    .doc(locationPath(id))
    .set({ name: `Test ${id}`, country: 'GB', region: 'London', network: 'loopback', egressIps: [], companies })
  return id
}

const enrol = (token: string, keys: AgentKeyPair, now = T0) =>
  handleAgentRequest(
    admin.db,
    {
      method: 'POST',
      path: AGENT_API_PATHS.enrol,
      body: JSON.stringify({ token, publicKey: keys.publicKey, hostname: 'test', version: '1.0.0', scanners }),
    },
    now,
  )

async function newAgent(locationId: string): Promise<TestAgent> {
  const { token } = await issueEnrolment(admin.db, locationId, `agent-${unique()}`, SENIOR, null, T0)
  const { pair } = await generateAgentKeyPair()
  const answer = await enrol(token, pair)
  expect(answer.status).toBe(201)
  return { id: (answer.body as { agentId: string }).agentId, keys: pair }
}

async function call(agent: TestAgent, path: string, body: unknown, now: number) {
  const text = JSON.stringify(body)
  const authorization = await signAgentRequest(agent.id, agent.keys.privateKey, { method: 'POST', path, body: text }, now)
  return handleAgentRequest(admin.db, { method: 'POST', path, authorization, body: text }, now)
}

const beat = (agent: TestAgent, now: number, runningJobs: string[] = []) =>
  call(agent, AGENT_API_PATHS.heartbeat, { version: '1.0.0', scanners, problems: [], runningJobs, lastError: null }, now)

const lease = async (agent: TestAgent, now: number) => {
  const answer = await call(agent, AGENT_API_PATHS.lease, {}, now)
  expect(answer.status).toBe(200)
  return (answer.body as { job: { id: string } | null }).job
}

async function readJob(id: string) {
  const snapshot = await admin.db.doc(scanJobPath(id)).get()
  return scanJobFromDocument(id, snapshot.data())!
}

const queue = (locationId: string, now = T0, company = COMPANY, publishAtOnce = false) =>
  queueJob(
    admin.db,
    {
      company,
      profile: 'web-dast',
      locationId,
      targets: ['http://127.0.0.1:8799/'],
      createdBy: 'senior@sectest.example',
      source: publishAtOnce ? 'dast-api' : 'analyst',
      publishAtOnce,
    },
    now,
  )

/** A company of its own with the loopback in scope, so a test can look at every scan and finding it has. */
async function newCompany(): Promise<string> {
  const company = `fleet-${unique()}`
  await admin.db.doc(companyPath(company)).set(companyDocument(company))
  await admin.db.doc(companyScopePath(company)).set({ entries: [{ kind: 'ip', value: '127.0.0.1' }] })
  return company
}

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(COMPANY)).set(companyDocument(COMPANY))
  await admin.db.doc(companyScopePath(COMPANY)).set({ entries: [{ kind: 'ip', value: '127.0.0.1' }] })
})

afterAll(async () => {
  await disconnect(admin)
})

describe('enrolment', () => {
  it('takes a token once: a second agent with the same token is refused', async () => {
    const loc = await location()
    const { token } = await issueEnrolment(admin.db, loc, 'once', SENIOR, null, T0)
    const first = await enrol(token, (await generateAgentKeyPair()).pair)
    expect(first.status).toBe(201)
    const second = await enrol(token, (await generateAgentKeyPair()).pair, T0 + 1000)
    expect(second).toEqual({ status: 401, body: { error: fleetMessages.tokenUsed } })
    const agent = (await admin.db.doc(agentPath((first.body as { agentId: string }).agentId)).get()).data()
    expect(agent).toMatchObject({ name: 'once', locationId: loc, state: 'active' })
    // Only the public key is stored.
    expect(Object.keys(agent!.publicKey as object).sort()).toEqual(['crv', 'kty', 'x'])
  })

  it('refuses a token after 24 hours, and one nobody issued', async () => {
    const loc = await location()
    const { token } = await issueEnrolment(admin.db, loc, 'late', SENIOR, null, T0)
    const keys = (await generateAgentKeyPair()).pair
    expect(await enrol(token, keys, T0 + ENROLMENT_TTL_MS)).toEqual({ status: 401, body: { error: fleetMessages.tokenExpired } })
    expect(await enrol(`bwk_enr_${'A'.repeat(43)}`, keys)).toEqual({ status: 401, body: { error: fleetMessages.tokenUnknown } })
    // Still unused: within its day it works.
    expect((await enrol(token, keys, T0 + ENROLMENT_TTL_MS - 1)).status).toBe(201)
  })

  it('withdraws the token of an earlier rotation: only the latest enrols the agent again', async () => {
    const agent = await newAgent(await location())
    const first = await changeAgentAs(admin.db, SENIOR, agent.id, 'rotate', T0 + 1000)
    const second = await changeAgentAs(admin.db, SENIOR, agent.id, 'rotate', T0 + 2000)
    expect(await enrol(first.token!, (await generateAgentKeyPair()).pair, T0 + 3000)).toEqual({
      status: 401,
      body: { error: fleetMessages.tokenUsed },
    })
    const fresh = (await generateAgentKeyPair()).pair
    expect((await enrol(second.token!, fresh, T0 + 3000)).body).toMatchObject({ agentId: agent.id })
    expect((await beat({ id: agent.id, keys: fresh }, T0 + 4000)).status).toBe(200)
  })

  it('keeps a disabled agent disabled: disabling withdraws its open token, and enrolling again never enables it', async () => {
    const loc = await location()
    const agent = await newAgent(loc)
    const open = await changeAgentAs(admin.db, SENIOR, agent.id, 'rotate', T0 + 1000)
    await changeAgentAs(admin.db, SENIOR, agent.id, 'disable', T0 + 2000)
    expect(await enrol(open.token!, (await generateAgentKeyPair()).pair, T0 + 3000)).toEqual({
      status: 401,
      body: { error: fleetMessages.tokenUsed },
    })
    // A token issued after the agent was disabled enrols it with new keys, and it stays disabled until enabled.
    const later = await changeAgentAs(admin.db, SENIOR, agent.id, 'rotate', T0 + 4000)
    const fresh = (await generateAgentKeyPair()).pair
    expect((await enrol(later.token!, fresh, T0 + 5000)).status).toBe(201)
    expect((await admin.db.doc(agentPath(agent.id)).get()).get('state')).toBe('disabled')
    expect(await beat({ id: agent.id, keys: fresh }, T0 + 6000)).toEqual({ status: 403, body: { error: fleetMessages.disabled } })
    await changeAgentAs(admin.db, SENIOR, agent.id, 'enable', T0 + 7000)
    expect((await beat({ id: agent.id, keys: fresh }, T0 + 8000)).status).toBe(200)
  })
})

describe('agent requests', () => {
  it('accepts a signed heartbeat once: the same token sent again is refused', async () => {
    const agent = await newAgent(await location())
    const text = JSON.stringify({ version: '1.0.0', scanners, problems: [], runningJobs: [], lastError: null })
    const authorization = await signAgentRequest(
      agent.id,
      agent.keys.privateKey,
      { method: 'POST', path: AGENT_API_PATHS.heartbeat, body: text },
      T0,
    )
    const request = { method: 'POST', path: AGENT_API_PATHS.heartbeat, authorization, body: text }
    expect((await handleAgentRequest(admin.db, request, T0 + 1000)).status).toBe(200)
    expect(await handleAgentRequest(admin.db, request, T0 + 2000)).toEqual({ status: 401, body: { error: fleetMessages.replay } })
  })

  it('refuses a disabled agent at once, and a rotated or removed one', async () => {
    const loc = await location()
    const agent = await newAgent(loc)
    expect((await beat(agent, T0 + 1000)).status).toBe(200)
    await admin.db.doc(agentPath(agent.id)).update({ state: 'disabled' })
    expect(await beat(agent, T0 + 2000)).toEqual({ status: 403, body: { error: fleetMessages.disabled } })

    const rotated = await newAgent(loc)
    await admin.db.doc(agentPath(rotated.id)).update({ publicKey: null })
    expect(await beat(rotated, T0 + 2000)).toEqual({ status: 401, body: { error: fleetMessages.rotated } })
    const { token } = await issueEnrolment(admin.db, loc, 'again', SENIOR, rotated.id, T0 + 3000)
    const fresh = (await generateAgentKeyPair()).pair
    const again = await enrol(token, fresh, T0 + 3000)
    expect(again.body).toMatchObject({ agentId: rotated.id })
    expect((await beat({ id: rotated.id, keys: fresh }, T0 + 4000)).status).toBe(200)
    expect((await beat(rotated, T0 + 4000)).status).toBe(401)

    const removed = await newAgent(loc)
    await admin.db.doc(agentPath(removed.id)).delete()
    expect(await beat(removed, T0 + 2000)).toEqual({ status: 401, body: { error: fleetMessages.unknownAgent } })
  })
})

describe('job leases', () => {
  it('gives one job to one of two agents racing for it', async () => {
    const loc = await location()
    const [a, b] = await Promise.all([newAgent(loc), newAgent(loc)])
    const jobId = await queue(loc)
    const won = await Promise.all([lease(a, T0 + 1000), lease(b, T0 + 1000)])
    expect(won.filter((job) => job?.id === jobId)).toHaveLength(1)
    expect(won.filter((job) => job === null)).toHaveLength(1)
    const job = await readJob(jobId)
    expect(job.state).toBe('leased')
    expect([a.id, b.id]).toContain(job.leasedBy)
    expect(job.attempts).toBe(1)
  })

  it('keeps a beating agent’s lease; puts the job of an agent that stopped back in the queue, and fails it after the last attempt', async () => {
    const loc = await location()
    const jobId = await queue(loc)
    let now = T0
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const agent = await newAgent(loc)
      now += 1000
      expect((await lease(agent, now))?.id).toBe(jobId)
      // Beats extend the lease past its first end.
      now += LEASE_MS - 5000
      expect((await beat(agent, now, [jobId])).body).toEqual({ heartbeatMs: expect.any(Number), stop: [] })
      now += LEASE_MS - 5000
      expect((await readJob(jobId)).state).toBe('leased')
      // The agent is killed: no more beats. Once its lease has run out the job is free again.
      now += LEASE_MS
      const late = await beat(agent, now, [jobId])
      expect(late.body).toMatchObject({ stop: [jobId] })
    }
    const another = await newAgent(loc)
    expect(await lease(another, now + 1000)).toBeNull()
    const job = await readJob(jobId)
    expect(job).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, leasedBy: null })
    expect(job.error).toMatch(/stopped answering/)
  })

  it('refuses a target outside the company’s scope when a job is queued', async () => {
    const loc = await location()
    await expect(
      queueJob(
        admin.db,
        { company: COMPANY, profile: 'web-dast', locationId: loc, targets: ['http://192.0.2.10/'], createdBy: 'x', source: 'analyst' },
        T0,
      ),
    ).rejects.toThrow(/192.0.2.10\/ is not in the company's scan scope/)
  })
})

describe('results', () => {
  it('turns an uploaded wapiti report into a draft scan of the job’s company, and a result sent twice changes nothing', async () => {
    const loc = await location()
    const agent = await newAgent(loc)
    const jobId = await queue(loc)
    expect((await lease(agent, T0 + 1000))?.id).toBe(jobId)
    expect((await call(agent, AGENT_API_PATHS.progress(jobId), { phase: 'scanning', message: 'wapiti running' }, T0 + 2000)).status).toBe(
      200,
    )
    expect((await readJob(jobId)).state).toBe('running')
    const body = { outcome: 'succeeded', outputs: [WAPITI], startedAt: T0 + 2000, finishedAt: T0 + 5000 }
    const answer = await call(agent, AGENT_API_PATHS.result(jobId), body, T0 + 6000)
    expect(answer.status).toBe(200)
    const { scanId } = answer.body as { scanId: string }
    const job = await readJob(jobId)
    expect(job).toMatchObject({ state: 'succeeded', scanId })
    const scan = scanFromDocument(scanId, (await admin.db.doc(scanPath(COMPANY, scanId)).get()).data())
    expect(scan).toMatchObject({ state: 'draft', service: 'dast', importedBy: expect.stringMatching(/^agent:/) })
    const drafts = await admin.db.collection(draftFindingsPath(COMPANY, scanId)).get()
    const rules = drafts.docs.map((d) => d.data().ruleId as string)
    expect(rules).toEqual(expect.arrayContaining(['Cross Site Scripting', 'SQL Injection', 'HTTP Secure Headers']))
    expect(drafts.size).toBe(9)
    expect((await call(agent, AGENT_API_PATHS.result(jobId), body, T0 + 7000)).body).toEqual({ state: 'succeeded', scanId })
  })

  it('drops findings on targets outside the job’s scope, whatever the agent sent', async () => {
    const loc = await location()
    const agent = await newAgent(loc)
    const jobId = await queue(loc)
    await lease(agent, T0 + 1000)
    const elsewhere = WAPITI.replaceAll('http://127.0.0.1:8799/', 'http://192.0.2.10/')
    const answer = await call(
      agent,
      AGENT_API_PATHS.result(jobId),
      { outcome: 'succeeded', outputs: [elsewhere], startedAt: T0, finishedAt: T0 },
      T0 + 2000,
    )
    const { scanId } = answer.body as { scanId: string }
    const scan = scanFromDocument(scanId, (await admin.db.doc(scanPath(COMPANY, scanId)).get()).data())
    expect(scan?.importReport).toMatchObject({ findings: 0 })
    expect((await admin.db.collection(draftFindingsPath(COMPANY, scanId)).get()).size).toBe(0)
  })

  it('retries a job whose scanner failed, and refuses a result from an agent that does not hold the job', async () => {
    const loc = await location()
    const [agent, other] = await Promise.all([newAgent(loc), newAgent(loc)])
    const jobId = await queue(loc)
    await lease(agent, T0 + 1000)
    expect((await call(other, AGENT_API_PATHS.result(jobId), { outcome: 'failed', error: 'x' }, T0 + 2000)).status).toBe(409)
    const failed = await call(agent, AGENT_API_PATHS.result(jobId), { outcome: 'failed', error: 'wapiti exited with 1' }, T0 + 2000)
    expect(failed.body).toEqual({ state: 'queued', scanId: null })
    expect((await lease(other, T0 + 3000))?.id).toBe(jobId)
  })

  it('refuses a result once the agent’s lease has run out or its job was cancelled: no draft is written and nothing is published', async () => {
    const company = await newCompany()
    const body = (at: number) => ({ outcome: 'succeeded', outputs: [WAPITI], startedAt: at, finishedAt: at })
    const notHolder = { status: 409, body: { error: fleetMessages.notHolder } }

    // The lease ran out while the output was on its way (no other agent has asked for work yet), then another agent took the job.
    const loc = await location([company])
    const [late, next] = await Promise.all([newAgent(loc), newAgent(loc)])
    const lateJob = await queue(loc, T0, company, true)
    expect((await lease(late, T0 + 1000))?.id).toBe(lateJob)
    expect(await call(late, AGENT_API_PATHS.result(lateJob), body(T0), T0 + 1000 + LEASE_MS)).toEqual(notHolder)
    expect((await lease(next, T0 + 2000 + LEASE_MS))?.id).toBe(lateJob)
    expect(await call(late, AGENT_API_PATHS.result(lateJob), body(T0), T0 + 3000 + LEASE_MS)).toEqual(notHolder)
    expect(await readJob(lateJob)).toMatchObject({ state: 'leased', leasedBy: next.id, scanId: null })

    // Cancelled by an analyst while it ran (as cancelScanJob writes it).
    const other = await location([company])
    const holder = await newAgent(other)
    const cancelledJob = await queue(other, T0, company, true)
    expect((await lease(holder, T0 + 1000))?.id).toBe(cancelledJob)
    await admin.db
      .doc(scanJobPath(cancelledJob))
      .update({ state: 'cancelled', leasedBy: null, leaseExpiresAt: null, finishedAt: Timestamp.fromMillis(T0 + 2000) })
    expect(await call(holder, AGENT_API_PATHS.result(cancelledJob), body(T0), T0 + 3000)).toEqual(notHolder)
    expect(await readJob(cancelledJob)).toMatchObject({ state: 'cancelled', scanId: null })

    expect((await admin.db.collection(scansPath(company)).get()).size, 'no draft scan').toBe(0)
    expect((await admin.db.collection(findingsPath(company)).get()).size, 'nothing published').toBe(0)
  })

  it('tells only the agent that finished a job what it came to; another agent learns nothing of it', async () => {
    const company = await newCompany()
    const loc = await location([company])
    const [agent, other] = await Promise.all([newAgent(loc), newAgent(loc)])
    const jobId = await queue(loc, T0, company)
    expect((await lease(agent, T0 + 1000))?.id).toBe(jobId)
    const body = { outcome: 'succeeded', outputs: [WAPITI], startedAt: T0, finishedAt: T0 }
    const done = await call(agent, AGENT_API_PATHS.result(jobId), body, T0 + 2000)
    expect(done.body).toEqual({ state: 'succeeded', scanId: expect.any(String) })
    // The same answer as for a job that does not exist: neither its state nor its scan.
    const unknown = await call(other, AGENT_API_PATHS.result('no-such-job'), body, T0 + 3000)
    expect(unknown).toEqual({ status: 409, body: { error: fleetMessages.notHolder } })
    expect(await call(other, AGENT_API_PATHS.result(jobId), body, T0 + 3000)).toEqual(unknown)
    expect(await call(other, AGENT_API_PATHS.result(jobId), { outcome: 'failed', error: 'x' }, T0 + 3000)).toEqual(unknown)
    expect(await call(agent, AGENT_API_PATHS.result(jobId), body, T0 + 4000)).toEqual(done)
  })
})
