// The DAST API against the Firestore emulator, through its handler with the test's clock: a key
// triggers a scan of an allowed target (202, then its status), and each refusal has its status and
// message: no key, an unknown, expired or revoked key, a target outside the key's targets or read
// differently by other URL parsers, a company without DAST triggering, too many scans at once (also
// when asked at once), too many calls, no agent online at a location serving the key's company; a
// finished scan's summary counts the findings new to the company. Every answer of a trigger and a
// status read is checked against the OpenAPI document.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_API_PATHS } from '#domain/agent-api.ts'
import { generateAgentKeyPair, signAgentRequest } from '#domain/agent-auth.ts'
import { agentPath, locationPath } from '#domain/agents.ts'
import { companyPath } from '#domain/companies.ts'
import { DAST_SCANS_AT_ONCE, dastApiMessages, type DastScanStatus } from '#domain/dast-api.ts'
import type { ApiScope } from '#domain/access.ts'
import { apiTokenFormat, apiTokenHashPath, apiTokenMessages, apiTokenPath, newApiTokenDocument } from '#domain/api-tokens.ts'
import { AUDIT_EVENTS_COLLECTION } from '#domain/audit-events.ts'
import { dastKeyHashPath, dastKeyPath, newDastKeyDocument, newDastKeyToken } from '#domain/dast-keys.ts'
import { findingFromDocument, findingPath, findingsPath } from '#domain/findings.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { scanJobFromDocument, scanJobPath } from '#domain/scan-jobs.ts'
import { scanFromDocument, scanPath } from '#domain/scans.ts'
import { scanScopePath } from '#domain/scan-scope.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { hashDastKey } from '../../functions/src/admin/dast-keys.ts'
import { handleAgentRequest, type ApiResponse } from '../../functions/src/agents/agent-api.ts'
import { issueEnrolment } from '../../functions/src/agents/fleet-callables.ts'
import { DAST_API_LIMITS, handleDastRequest } from '../../functions/src/agents/dast-api.ts'
import { companyDocument } from '../builders.ts'
import { expectDocumented } from './openapi-check.ts'

const SECRET = 'dast-api-test-secret-0123456789'
const unique = () => randomUUID().slice(0, 8)
const COMPANY = `dast-api-${unique()}`
const OFF = `dast-off-${unique()}`
const TARGET = 'http://127.0.0.1:8765/'
const DAY = 86_400_000
// wapiti's report of the vulnerable app (127.0.0.1:8765): XSS, SQL injection, missing headers, a directory listing.
const WAPITI = readFileSync(new URL('../fixtures/scans/wapiti_json/vulnerable-app.json', import.meta.url), 'utf8')

let admin: AdminClients
let now = Date.now()

async function key(company: string, overrides: { expiresAt?: number; revokedAt?: number; publishAtOnce?: boolean } = {}): Promise<string> {
  const { id, token } = newDastKeyToken()
  await admin.db.doc(dastKeyPath(id)).set({
    ...newDastKeyDocument({
      id,
      company,
      name: 'ci',
      last4: token.slice(-4),
      allowedTargets: [TARGET],
      publishAtOnce: overrides.publishAtOnce ?? false,
      expiresAt: Timestamp.fromMillis(overrides.expiresAt ?? now + 30 * DAY),
      createdAt: Timestamp.fromMillis(now),
      createdBy: 'admin@acme.example',
    }),
    ...(overrides.revokedAt ? { revokedAt: Timestamp.fromMillis(overrides.revokedAt), revokedBy: 'admin@acme.example' } : {}),
  })
  await admin.db.doc(dastKeyHashPath(id)).set({ hash: hashDastKey(SECRET, token), company })
  return token
}

/** An API token of the company as createApiToken leaves it. */
async function apiToken(
  company: string,
  scopes: ApiScope[],
  overrides: { revokedAt?: number } = {},
): Promise<{ id: string; token: string }> {
  const issued = apiTokenFormat.issue()
  await admin.db.doc(apiTokenPath(issued.id)).set({
    ...newApiTokenDocument({
      id: issued.id,
      company,
      name: 'tracker',
      last4: issued.token.slice(-4),
      scopes,
      expiresAt: Timestamp.fromMillis(now + 30 * DAY),
      createdAt: Timestamp.fromMillis(now),
      createdBy: 'admin@acme.example',
    }),
    ...(overrides.revokedAt ? { revokedAt: Timestamp.fromMillis(overrides.revokedAt), revokedBy: 'admin@acme.example' } : {}),
  })
  await admin.db.doc(apiTokenHashPath(issued.id)).set({ hash: hashDastKey(SECRET, issued.token), company })
  return issued
}

/** A trigger, its answer checked against the OpenAPI document. */
async function trigger(token: string | null, body: unknown = { target: TARGET }, ip: string | null = null) {
  const answer = await handleDastRequest(
    admin.db,
    { method: 'POST', path: '/scans', authorization: token ? `Bearer ${token}` : undefined, body: JSON.stringify(body), ip },
    now,
    SECRET,
  )
  expectDocumented('POST', '/dast/scans', answer)
  return answer
}
/** A scan's status, its answer checked against the OpenAPI document. */
async function read(token: string, id: string) {
  const answer = await handleDastRequest(
    admin.db,
    { method: 'GET', path: `/scans/${id}`, authorization: `Bearer ${token}`, body: '' },
    now,
    SECRET,
  )
  expectDocumented('GET', `/dast/scans/${id}`, answer)
  return answer
}

/** A real enrolled agent (its key pair, signed requests) at a location of its own, having beaten now. */
async function enrolledAgent(): Promise<{ locationId: string; call: (path: string, body: unknown) => Promise<ApiResponse> }> {
  const locationId = `dast-loc-${unique()}`
  await admin.db
    .doc(locationPath(locationId))
    .set({ name: locationId, country: 'GB', region: '', network: '', egressIps: [], companies: [COMPANY] })
  const { token } = await issueEnrolment(
    admin.db,
    locationId,
    `ci-agent-${unique()}`,
    { uid: 'demo-senior-analyst', email: 'senior@sectest.example' },
    null,
    now,
  )
  const { pair } = await generateAgentKeyPair()
  const enrolled = await handleAgentRequest(
    admin.db,
    {
      method: 'POST',
      path: AGENT_API_PATHS.enrol,
      body: JSON.stringify({
        token,
        publicKey: pair.publicKey,
        hostname: 'ci',
        version: '1.0.0',
        scanners: [{ name: 'wapiti', version: '3.0.4' }],
      }),
    },
    now,
  )
  expect(enrolled.status).toBe(201)
  const agentId = (enrolled.body as { agentId: string }).agentId
  const call = async (path: string, body: unknown) => {
    const text = JSON.stringify(body)
    const authorization = await signAgentRequest(agentId, pair.privateKey, { method: 'POST', path, body: text }, now)
    return handleAgentRequest(admin.db, { method: 'POST', path, authorization, body: text }, now)
  }
  return { locationId, call }
}

/** The agent takes the job and uploads `output` as wapiti's report; the draft scan's id. */
async function runJob(agent: Awaited<ReturnType<typeof enrolledAgent>>, jobId: string, output: string): Promise<string> {
  const leased = await agent.call(AGENT_API_PATHS.lease, {})
  expect((leased.body as { job: { id: string } | null }).job?.id).toBe(jobId)
  const answer = await agent.call(AGENT_API_PATHS.result(jobId), {
    outcome: 'succeeded',
    outputs: [output],
    startedAt: now,
    finishedAt: now,
  })
  expect(answer.status).toBe(200)
  return (answer.body as { scanId: string }).scanId
}

/** An agent online now at a location of its own that serves `companies`; the location's id. */
async function onlineAgent(companies = [COMPANY]): Promise<string> {
  const loc = `dast-loc-${unique()}`
  await admin.db.doc(locationPath(loc)).set({ name: loc, country: 'GB', region: '', network: '', egressIps: [], companies })
  await admin.db.doc(agentPath(`dast-agent-${unique()}`)).set({
    name: 'ci agent',
    locationId: loc,
    state: 'active',
    publicKey: { kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(43) },
    scanners: [{ name: 'wapiti', version: '3.0.4' }],
    problems: [],
    lastHeartbeatAt: Timestamp.fromMillis(now),
    enrolledAt: Timestamp.fromMillis(now),
    enrolledBy: 'test',
  })
  return loc
}

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(COMPANY)).set(companyDocument(COMPANY, { enableDast: true, enableDastTriggering: true }))
  await admin.db.doc(companyPath(OFF)).set(companyDocument(OFF, { enableDast: true, enableDastTriggering: false }))
  for (const slug of [COMPANY, OFF]) await admin.db.doc(scanScopePath(slug)).set({ entries: [{ kind: 'ip', value: '127.0.0.1' }] })
})
afterAll(async () => disconnect(admin))

describe('the DAST API', () => {
  it('refuses each bad key and request with its status and message', async () => {
    const good = await key(COMPANY)
    expect(await trigger(null)).toEqual({ status: 401, body: { error: dastApiMessages.noKey } })
    expect(await trigger('bwk_dast_nonsense')).toEqual({ status: 401, body: { error: dastApiMessages.unknownKey } })
    expect(await trigger(good.slice(0, -6) + 'AAAAAA')).toEqual({ status: 401, body: { error: dastApiMessages.unknownKey } })
    expect(await trigger(await key(COMPANY, { expiresAt: now - 1 }))).toEqual({ status: 401, body: { error: dastApiMessages.expired } })
    expect(await trigger(await key(COMPANY, { revokedAt: now - 1 }))).toEqual({ status: 401, body: { error: dastApiMessages.revoked } })
    expect(await trigger(await key(OFF))).toEqual({ status: 403, body: { error: dastApiMessages.notTriggering } })
    expect(await trigger(good, { target: 'http://127.0.0.1:9999/' })).toEqual({ status: 403, body: { error: dastApiMessages.target } })
    expect(await trigger(good, { target: 'http://192.0.2.1/' })).toEqual({ status: 403, body: { error: dastApiMessages.target } })
    expect((await trigger(good, { nothing: true })).status).toBe(400)
  })

  it('refuses when no agent is online, then queues a scan (202) and limits scans at once per key', async () => {
    now += 10 * 60_000
    const token = await key(COMPANY)
    expect(await trigger(token)).toEqual({ status: 409, body: { error: dastApiMessages.noAgent } })
    await onlineAgent()
    const ids: string[] = []
    for (let n = 0; n < DAST_SCANS_AT_ONCE; n++) {
      const answer = await trigger(token)
      expect(answer.status).toBe(202)
      ids.push((answer.body as { id: string }).id)
    }
    expect(await trigger(token)).toEqual({ status: 429, body: { error: dastApiMessages.rateLimited } })
    const job = (await admin.db.doc(scanJobPath(ids[0]!)).get()).data()
    expect(job).toMatchObject({ company: COMPANY, source: 'dast-api', profile: 'web-dast', targets: [TARGET], state: 'queued' })
    expect((await read(token, ids[0]!)).body).toMatchObject({ id: ids[0], status: 'queued', target: TARGET })
    // Another company's key does not see it.
    const other = await key(OFF)
    await admin.db.doc(companyPath(OFF)).update({ enableDastTriggering: true })
    expect(await read(other, ids[0]!)).toEqual({ status: 404, body: { error: dastApiMessages.noScan } })
  })

  it('answers a finished scan with its findings by severity and those new to the company', async () => {
    now += 10 * 60_000
    const token = await key(COMPANY)
    await onlineAgent()
    const { id } = (await trigger(token)).body as { id: string }
    const scanId = `scan-${unique()}`
    const draft = (fid: string, severity: string, title: string) =>
      admin.db.doc(`${draftFindingsPath(COMPANY, scanId)}/${fid}`).set({
        service: 'dast',
        ruleId: title,
        title,
        severity,
        scannerSeverity: severity,
        target: { kind: 'url', url: `${TARGET}x` },
        asset: '127.0.0.1',
        location: { url: `${TARGET}x`, method: 'GET', parameter: 'q' },
        sourceFile: 'a'.repeat(64),
        instances: 1,
        raw: '{}',
        templateSlug: null,
        templateSource: 'none',
        falsePositive: false,
        updatedBy: 'agent:x',
        updatedAt: Timestamp.fromMillis(now),
      })
    await draft('f-xss', 'medium', 'Cross Site Scripting')
    await draft('f-sql', 'critical', 'SQL Injection')
    await admin.db.doc(findingPath(COMPANY, 'f-xss')).set({ title: 'Cross Site Scripting' })
    await admin.db.doc(scanJobPath(id)).update({ state: 'succeeded', scanId, finishedAt: Timestamp.fromMillis(now) })
    const answer = await read(token, id)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'succeeded',
      summary: { total: 2, new: 1, bySeverity: { critical: 1, medium: 1 }, newBySeverity: { critical: 1, medium: 0 } },
      newFindings: [{ title: 'SQL Injection', severity: 'critical' }],
    })
  })

  it('publishes at once the scans of a key that says so; others wait as drafts; the status counts a finding new to the scan that first saw it', async () => {
    now += 10 * 60_000
    const agent = await enrolledAgent()
    const reviewed = await key(COMPANY)
    const atOnce = await key(COMPANY, { publishAtOnce: true })
    const trigger = async (token: string) => {
      const answer = await handleDastRequest(
        admin.db,
        {
          method: 'POST',
          path: '/scans',
          authorization: `Bearer ${token}`,
          body: JSON.stringify({ target: TARGET, location: agent.locationId }),
        },
        now,
        SECRET,
      )
      expect(answer.status).toBe(202)
      return (answer.body as { id: string }).id
    }
    const status = async (token: string, id: string) => (await read(token, id)).body as DastScanStatus

    // A key without the choice: the agent's result is a draft for an analyst; every finding is new to the company.
    const first = await trigger(reviewed)
    expect(scanJobFromDocument(first, (await admin.db.doc(scanJobPath(first)).get()).data())?.publishAtOnce).toBe(false)
    // The same report with another byte is another file, so another draft.
    const draftId = await runJob(agent, first, `${WAPITI}\n`)
    expect(scanFromDocument(draftId, (await admin.db.doc(scanPath(COMPANY, draftId)).get()).data())?.state).toBe('draft')
    const drafted = await status(reviewed, first)
    expect(drafted.status).toBe('succeeded')
    expect(drafted.summary).toMatchObject({ new: drafted.summary!.total })
    expect(drafted.summary!.total).toBeGreaterThan(0)

    // A key whose scans publish at once: published by the time the job says it succeeded, its findings new to it.
    const second = await trigger(atOnce)
    expect(scanJobFromDocument(second, (await admin.db.doc(scanJobPath(second)).get()).data())?.publishAtOnce).toBe(true)
    const publishedId = await runJob(agent, second, WAPITI)
    const scan = scanFromDocument(publishedId, (await admin.db.doc(scanPath(COMPANY, publishedId)).get()).data())
    expect(scan).toMatchObject({ state: 'published', publishedBy: expect.stringMatching(/^dast-key:/) })
    const findings = (await admin.db.collection(findingsPath(COMPANY)).where('firstSeenScanId', '==', publishedId).get()).docs.map((d) =>
      findingFromDocument(d.id, d.data()),
    )
    expect(findings.map((f) => f?.title)).toEqual(expect.arrayContaining(['Cross Site Scripting', 'SQL Injection']))
    const published = await status(atOnce, second)
    expect(published.summary).toMatchObject({ total: findings.length, new: findings.length })
    expect(published.newFindings!.map((f) => f.title)).toEqual(expect.arrayContaining(['Cross Site Scripting', 'SQL Injection']))

    // The draft's findings are the company's now, first seen by the published scan: none is new to the draft any more.
    expect((await status(reviewed, first)).summary).toMatchObject({ total: drafted.summary!.total, new: 0 })
  })

  it('refuses a target other URL parsers read differently, before any key is read, and stores targets canonically', async () => {
    now += 10 * 60_000
    const token = await key(COMPANY)
    await onlineAgent()
    // WHATWG reads this as 127.0.0.1:8765, path /@169.254.169.254/; Python's parsers (wapiti's) as the metadata address.
    for (const target of ['http://127.0.0.1:8765\\@169.254.169.254/', 'http://user@127.0.0.1:8765/', 'http://127.0.0.1:8765/a b'])
      expect(await trigger(token, { target })).toEqual({ status: 400, body: { error: dastApiMessages.ambiguousTarget } })
    const answer = await trigger(token, { target: 'HTTP://127.0.0.1:8765' })
    expect(answer.status).toBe(202)
    const job = scanJobFromDocument(
      (answer.body as { id: string }).id,
      (await admin.db.doc(scanJobPath((answer.body as { id: string }).id)).get()).data(),
    )
    expect(job?.targets).toEqual([TARGET])
  })

  it('reaches only locations that serve the key’s company, named or not', async () => {
    now += 10 * 60_000
    const token = await key(COMPANY)
    const elsewhere = await onlineAgent([OFF])
    const unbound = await onlineAgent([])
    expect(await trigger(token)).toEqual({ status: 409, body: { error: dastApiMessages.noAgent } })
    for (const location of [elsewhere, unbound])
      expect(await trigger(token, { target: TARGET, location })).toEqual({ status: 409, body: { error: dastApiMessages.noAgent } })
    const own = await onlineAgent()
    const answer = await trigger(token, { target: TARGET })
    expect(answer.status).toBe(202)
    expect((await admin.db.doc(scanJobPath((answer.body as { id: string }).id)).get()).get('locationId')).toBe(own)
  })

  it('holds the scans-at-once limit when the calls come at once', async () => {
    now += 10 * 60_000
    const token = await key(COMPANY)
    await onlineAgent()
    const answers = await Promise.all(Array.from({ length: 6 }, () => trigger(token)))
    expect(answers.filter((a) => a.status === 202)).toHaveLength(DAST_SCANS_AT_ONCE)
    expect(answers.filter((a) => a.status === 429)).toHaveLength(6 - DAST_SCANS_AT_ONCE)
  })

  it('limits the calls a minute per caller IP and per key, with Retry-After, before reading any key', async () => {
    now += 10 * 60_000
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`
    // Well-formed keys no one issued, from one address: each costs no key read once the address is over its limit.
    for (let n = 0; n < DAST_API_LIMITS.perIp; n++) expect((await trigger(newDastKeyToken().token, undefined, ip)).status).toBe(401)
    const good = await key(COMPANY)
    const limited = await trigger(good, undefined, ip)
    expect(limited).toMatchObject({ status: 429, body: { error: dastApiMessages.tooManyRequests }, headers: { 'Retry-After': '60' } })
    // Another address is not limited; the key's own limit counts every address.
    expect((await read(good, 'none')).status).toBe(404)
    now += DAST_API_LIMITS.windowMs
    for (let n = 0; n < DAST_API_LIMITS.perKey; n++) expect((await read(good, 'none')).status).toBe(404)
    expect(await read(good, 'none')).toMatchObject({ status: 429, headers: { 'Retry-After': '60' } })
  }, 180_000)

  it('fails at once a scan its agent refused, where another failure is tried again', async () => {
    now += 10 * 60_000
    const agent = await enrolledAgent()
    const token = await key(COMPANY)
    const queue = async () => {
      const answer = await trigger(token, { target: TARGET, location: agent.locationId })
      expect(answer.status).toBe(202)
      return (answer.body as { id: string }).id
    }
    const fail = async (jobId: string, failure: { error: string; refused?: boolean }) => {
      const leased = await agent.call(AGENT_API_PATHS.lease, {})
      expect((leased.body as { job: { id: string } | null }).job?.id).toBe(jobId)
      expect((await agent.call(AGENT_API_PATHS.result(jobId), { outcome: 'failed', ...failure })).status).toBe(200)
      return scanJobFromDocument(jobId, (await admin.db.doc(scanJobPath(jobId)).get()).data())
    }
    const crashed = await queue()
    expect(await fail(crashed, { error: 'wapiti exited with 1' })).toMatchObject({ state: 'queued', attempts: 1 })
    await admin.db.doc(scanJobPath(crashed)).update({ state: 'cancelled' })
    const refused = await queue()
    const reason =
      'Refused to scan: staging.acme.example resolves to 10.0.0.5, which is a private-use address (10.0.0.0/8) that the scan scope does not list by address'
    expect(await fail(refused, { error: reason, refused: true })).toMatchObject({ state: 'failed', attempts: 1, error: reason })
    expect(await read(token, refused)).toMatchObject({ status: 200, body: { status: 'failed', error: reason } })
  })

  it('takes an API token with dast:trigger for a target in the company scope, refuses one without, and audits each call', async () => {
    now += 10 * 60_000
    await onlineAgent()
    const { id, token } = await apiToken(COMPANY, ['findings:read', 'dast:trigger'])
    const queued = await trigger(token, { target: 'http://127.0.0.1:9999/' })
    expect(queued.status).toBe(202)
    const jobId = (queued.body as { id: string }).id
    expect((await admin.db.doc(scanJobPath(jobId)).get()).data()).toMatchObject({
      company: COMPANY,
      createdBy: `api-token:${id}`,
      publishAtOnce: false,
    })
    expect((await read(token, jobId)).body).toMatchObject({ id: jobId, status: 'queued' })
    expect(await trigger(token, { target: 'http://192.0.2.1/' })).toEqual({ status: 403, body: { error: dastApiMessages.target } })
    const reader = await apiToken(COMPANY, ['findings:read', 'findings:write'])
    expect(await trigger(reader.token)).toEqual({ status: 403, body: { error: dastApiMessages.noScope } })
    const revoked = await apiToken(COMPANY, ['dast:trigger'], { revokedAt: now - 1 })
    expect(await trigger(revoked.token)).toEqual({ status: 401, body: { error: apiTokenMessages.revoked } })
    const elsewhere = await apiToken(OFF, ['dast:trigger'])
    await admin.db.doc(companyPath(OFF)).update({ enableDastTriggering: false })
    expect(await trigger(elsewhere.token)).toEqual({ status: 403, body: { error: dastApiMessages.notTriggering } })
    const statuses = async (tokenId: string) =>
      (await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('targetId', '==', tokenId).get()).docs
        .map((d) => d.data())
        .filter((e) => e.action === 'api_token.used')
        .map((e) => (e.after as { status: number }).status)
        .sort()
    expect(await statuses(id)).toEqual([200, 202, 403])
    expect(await statuses(reader.id)).toEqual([403])
    expect(await statuses(revoked.id)).toEqual([401])
  })
})
