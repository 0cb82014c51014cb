// The DAST API against the Firestore emulator, through its handler with the test's clock: a key
// triggers a scan of an allowed target (202, then its status), and each refusal has its status and
// message: no key, an unknown, expired or revoked key, a target outside the key's targets, a
// company without DAST triggering, too many scans at once, no agent online; a finished scan's
// summary counts the findings new to the company.
import { randomUUID } from 'node:crypto'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentPath, locationPath } from '#domain/agents.ts'
import { companyPath } from '#domain/companies.ts'
import { DAST_SCANS_AT_ONCE, dastApiMessages } from '#domain/dast-api.ts'
import { dastKeyHashPath, dastKeyPath, newDastKeyDocument, newDastKeyToken } from '#domain/dast-keys.ts'
import { findingPath } from '#domain/findings.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { scanJobPath } from '#domain/scan-jobs.ts'
import { scanScopePath } from '#domain/scan-scope.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { hashDastKey } from '../../functions/src/admin/dast-keys.ts'
import { handleDastRequest } from '../../functions/src/agents/dast-api.ts'
import { companyDocument } from '../builders.ts'

const SECRET = 'dast-api-test-secret-0123456789'
const unique = () => randomUUID().slice(0, 8)
const COMPANY = `dast-api-${unique()}`
const OFF = `dast-off-${unique()}`
const TARGET = 'http://127.0.0.1:8765/'
const DAY = 86_400_000

let admin: AdminClients
let now = Date.now()

async function key(company: string, overrides: { expiresAt?: number; revokedAt?: number } = {}): Promise<string> {
  const { id, token } = newDastKeyToken()
  await admin.db.doc(dastKeyPath(id)).set({
    ...newDastKeyDocument({
      id,
      company,
      name: 'ci',
      last4: token.slice(-4),
      allowedTargets: [TARGET],
      expiresAt: Timestamp.fromMillis(overrides.expiresAt ?? now + 30 * DAY),
      createdAt: Timestamp.fromMillis(now),
      createdBy: 'admin@acme.example',
    }),
    ...(overrides.revokedAt ? { revokedAt: Timestamp.fromMillis(overrides.revokedAt), revokedBy: 'admin@acme.example' } : {}),
  })
  await admin.db.doc(dastKeyHashPath(id)).set({ hash: hashDastKey(SECRET, token), company })
  return token
}

const trigger = (token: string | null, body: unknown = { target: TARGET }) =>
  handleDastRequest(
    admin.db,
    { method: 'POST', path: '/scans', authorization: token ? `Bearer ${token}` : undefined, body: JSON.stringify(body) },
    now,
    SECRET,
  )
const read = (token: string, id: string) =>
  handleDastRequest(admin.db, { method: 'GET', path: `/scans/${id}`, authorization: `Bearer ${token}`, body: '' }, now, SECRET)

async function onlineAgent(): Promise<string> {
  const loc = `dast-loc-${unique()}`
  await admin.db.doc(locationPath(loc)).set({ name: loc, country: 'GB', region: '', network: '', egressIps: [] })
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
})
