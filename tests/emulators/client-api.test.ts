// The client API against the Firestore emulator, through its handler with the test's clock: an API
// token reads its company's findings (filtered, a page at a time), one finding with its history,
// and published scans, within its scopes and the company's switches (app/domain/access.ts); each
// refusal has its status and code (no token, malformed, a DAST key, unknown, expired, revoked,
// missing scope, another company's finding, a service closed to tokens, bad parameters, too many
// calls); every call of a genuine token is audited. With findings:write a token requests a retest,
// asks to accept a risk and comments, through the pages' workflow, once per Idempotency-Key, and
// each refusal of those (scope, token, another company's finding, body, workflow, key) has its
// status and code. Every answer is checked against the OpenAPI document.
import { randomUUID } from 'node:crypto'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL, type ApiScope } from '#domain/access.ts'
import { apiTokenFormat, apiTokenFromDocument, apiTokenHashPath, apiTokenPath, newApiTokenDocument } from '#domain/api-tokens.ts'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument } from '#domain/audit-events.ts'
import { API_PAGE, CLIENT_API_LIMITS, type ApiErrorCode } from '#domain/client-api.ts'
import { companyPath } from '#domain/companies.ts'
import { newDastKeyToken } from '#domain/dast-keys.ts'
import { commentFromDocument, COMMENT_MAX_LENGTH, findingCommentsPath } from '#domain/finding-comments.ts'
import { findingHistoryPath, historyFromDocument, storedHistoryEntry } from '#domain/finding-history.ts'
import { acceptanceEndOfDay, MAX_ACCEPTANCE_DAYS } from '#domain/finding-workflow.ts'
import { findingFromDocument, findingPath, type StoredFinding } from '#domain/findings.ts'
import { notificationFromDocument } from '#domain/notifications.ts'
import { retestFromDocument, retestsPath } from '#domain/retests.ts'
import { scanPath } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { storedTimes } from '#domain/stored.ts'
import type { Severity } from '#domain/template-vocabulary.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { hashToken } from '../../functions/src/admin/secret-tokens.ts'
import { handleClientApiRequest } from '../../functions/src/api/client-api.ts'
import { companyDocument, findingDocument, tokenClaims, usersAccessDocument } from '../builders.ts'
import { expectDocumented } from './openapi-check.ts'

const SECRET = 'client-api-test-secret-0123456789'
const unique = () => randomUUID().slice(0, 8)
const ACME = `capi-${unique()}`
const OTHER = `capi-other-${unique()}`
const DAY = 86_400_000
const MINUTE = 60_000
const READ: ApiScope[] = ['findings:read']

let admin: AdminClients
let now = Date.UTC(2026, 5, 1)

const ts = (value: unknown) => storedTimes(value, Timestamp.fromMillis) as Record<string, unknown>

async function token(
  company: string,
  scopes: ApiScope[] = READ,
  overrides: { expiresAt?: number; revokedAt?: number; stored?: boolean } = {},
): Promise<{ id: string; token: string }> {
  const issued = apiTokenFormat.issue()
  if (overrides.stored === false) return issued
  await admin.db.doc(apiTokenPath(issued.id)).set({
    ...newApiTokenDocument({
      id: issued.id,
      company,
      name: `tool ${unique()}`,
      last4: issued.token.slice(-4),
      scopes,
      expiresAt: Timestamp.fromMillis(overrides.expiresAt ?? now + 30 * DAY),
      createdAt: Timestamp.fromMillis(now - DAY),
      createdBy: 'admin@acme.example',
    }),
    ...(overrides.revokedAt ? { revokedAt: Timestamp.fromMillis(overrides.revokedAt), revokedBy: 'admin@acme.example' } : {}),
  })
  await admin.db.doc(apiTokenHashPath(issued.id)).set({ hash: hashToken(SECRET, issued.token), company })
  return issued
}

/** One call, its answer checked against the OpenAPI document. */
async function call(presented: string | null, path: string, query = '', method = 'GET', ip: string | null = null) {
  const answer = await handleClientApiRequest(
    admin.db,
    { method, path, query, authorization: presented === null ? undefined : `Bearer ${presented}`, ip },
    now,
    SECRET,
  )
  expectDocumented(method, path, answer)
  return answer
}

/** A write: the body as JSON (a string as it is), with an Idempotency-Key when one is given; checked against the document. */
async function post(presented: string, path: string, body: unknown, key?: string) {
  const answer = await handleClientApiRequest(
    admin.db,
    {
      method: 'POST',
      path,
      query: '',
      authorization: `Bearer ${presented}`,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...(key === undefined ? {} : { idempotencyKey: key }),
    },
    now,
    SECRET,
  )
  expectDocumented('POST', path, answer)
  return answer
}

const refusal = async (answer: Promise<{ status: number; body: unknown }>, status: number, code: ApiErrorCode, field?: string) =>
  expect(await answer).toMatchObject({ status, body: { error: { code, ...(field === undefined ? {} : { field }) } } })

type Page = { data: { id: string }[]; nextCursor: string | null }
const ids = (body: unknown) => (body as Page).data.map((item) => item.id)

/** Every page of a list, following nextCursor. */
async function allPages(presented: string, path: string, query: string): Promise<string[][]> {
  const pages: string[][] = []
  let cursor: string | null = null
  do {
    const answer = await call(presented, path, [query, cursor ? `cursor=${cursor}` : ''].filter(Boolean).join('&'))
    expect(answer.status).toBe(200)
    pages.push(ids(answer.body))
    cursor = (answer.body as Page).nextCursor
  } while (cursor && pages.length < 20)
  return pages
}

async function finding(
  company: string,
  id: string,
  service: ServiceId,
  severity: Severity,
  status: StoredFinding['status'],
  daysAgo: number,
) {
  const at = now - daysAgo * DAY
  await admin.db.doc(findingPath(company, id)).set(ts(findingDocument(service, { severity, status, fingerprint: id }, at)))
}

async function scan(company: string, id: string, service: ServiceId, state: 'published' | 'draft', daysAgo: number) {
  const at = now - daysAgo * DAY
  const counts = {
    bySeverity: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
    total: 1,
    new: 1,
    persisting: 0,
    notDetected: 0,
    reopened: 0,
  }
  await admin.db.doc(scanPath(company, id)).set(
    ts({
      service,
      state,
      title: `${service} scan ${id}`,
      tool: 'nmap',
      scopeKey: `${service}:whole`,
      targets: ['app.acme.example'],
      startedAt: at - 3_600_000,
      finishedAt: at - 60_000,
      publishedAt: state === 'published' ? at : null,
      publishedBy: state === 'published' ? 'analyst@sectest.example' : null,
      counts,
      stats: { service: 'network', hostsUp: 1, openPorts: 2, vulnerableHosts: 1, newOpenPorts: 0, services: [], hostSeverity: [] },
      updatedAt: at,
      updatedBy: 'analyst@sectest.example',
    }),
  )
}

async function usesOf(tokenId: string) {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('targetId', '==', tokenId).get()
  return snapshot.docs.map((d) => auditEventFromDocument(d.id, d.data())!).filter((e) => e.action === 'api_token.used')
}

beforeAll(async () => {
  admin = connectToEmulators()
  // DAST and network results open; cloud's stats only, so its findings are closed to tokens.
  await admin.db.doc(companyPath(ACME)).set(
    companyDocument(ACME, {
      enableDast: true,
      enableViewResultsNetwork: true,
      enableViewCloudScanStats: true,
      enableViewCloudScanResults: false,
    }),
  )
  await admin.db.doc(companyPath(OTHER)).set(companyDocument(OTHER, { enableViewResultsNetwork: true }))
  await finding(ACME, 'f1-dast-high-open', 'dast', 'high', 'open', 1)
  await finding(ACME, 'f2-dast-critical-fixed', 'dast', 'critical', 'fixed', 2)
  await finding(ACME, 'f3-network-high-open', 'network', 'high', 'open', 3)
  await finding(ACME, 'f4-network-low-open', 'network', 'low', 'open', 4)
  await finding(ACME, 'f5-network-high-remediation', 'network', 'high', 'in_remediation', 5)
  await finding(ACME, 'f6-cloud-high-open', 'cloud', 'high', 'open', 0)
  await finding(OTHER, 'o1-network-high-open', 'network', 'high', 'open', 1)
  const change = (to: StoredFinding['status'], from: StoredFinding['status'], hoursAgo: number, byName: string) =>
    ts(
      storedHistoryEntry(ACME, 'dast', 'f1-dast-high-open', {
        action: 'status_changed',
        from,
        to,
        at: now - hoursAgo * 3_600_000,
        byUid: 'uid-manager',
        byName,
        role: 'manager',
        note: null,
      }),
    )
  await admin.db.doc(`${findingHistoryPath(ACME, 'f1-dast-high-open')}/h2`).set(change('open', 'in_remediation', 2, 'Second'))
  await admin.db.doc(`${findingHistoryPath(ACME, 'f1-dast-high-open')}/h1`).set(change('in_remediation', 'open', 5, 'First'))
  await scan(ACME, 's1-network', 'network', 'published', 1)
  await scan(ACME, 's2-network', 'network', 'published', 3)
  await scan(ACME, 's3-network-draft', 'network', 'draft', 0)
  await scan(ACME, 's4-cloud', 'cloud', 'published', 0)
  await scan(OTHER, 'o1-scan', 'network', 'published', 0)
})
afterAll(async () => disconnect(admin))

describe('GET /findings', () => {
  it("lists the company's findings of the services open to tokens, last seen first, a bounded page at a time", async () => {
    const { token: read } = await token(ACME)
    expect(await allPages(read, '/findings', 'limit=2')).toEqual([
      ['f1-dast-high-open', 'f2-dast-critical-fixed'],
      ['f3-network-high-open', 'f4-network-low-open'],
      ['f5-network-high-remediation'],
    ])
    const first = await call(read, '/findings')
    expect(first.status).toBe(200)
    expect((first.body as Page).data).toHaveLength(5)
    expect((first.body as Page).data[0]).toMatchObject({ id: 'f1-dast-high-open', service: 'dast', severity: 'high', status: 'open' })
  })

  it('filters by service, status and severity, together or apart', async () => {
    const { token: read } = await token(ACME)
    const listed = async (query: string) => (await allPages(read, '/findings', query)).flat()
    expect(await listed('service=network')).toEqual(['f3-network-high-open', 'f4-network-low-open', 'f5-network-high-remediation'])
    expect(await listed('status=open')).toEqual(['f1-dast-high-open', 'f3-network-high-open', 'f4-network-low-open'])
    expect(await listed('severity=high')).toEqual(['f1-dast-high-open', 'f3-network-high-open', 'f5-network-high-remediation'])
    expect(await listed('service=network&status=open&severity=high')).toEqual(['f3-network-high-open'])
    expect(await listed('status=open&severity=high&limit=1')).toEqual(['f1-dast-high-open', 'f3-network-high-open'])
    expect(await listed('service=dast&severity=critical')).toEqual(['f2-dast-critical-fixed'])
  })

  it('refuses a service closed to tokens, and parameters it does not take', async () => {
    const { token: read } = await token(ACME)
    await refusal(call(read, '/findings', 'service=cloud'), 403, 'forbidden')
    await refusal(call(read, '/findings', 'service=nothing'), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'status=gone'), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'severity=huge'), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'limit=0'), 400, 'invalid_request')
    await refusal(call(read, '/findings', `limit=${API_PAGE.max + 1}`), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'company=' + OTHER), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'status=open&status=fixed'), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'cursor=no-such-finding'), 400, 'invalid_request')
    await refusal(call(read, '/findings', 'cursor=a/b'), 400, 'invalid_request')
  })

  it("never answers with another company's findings", async () => {
    const { token: other } = await token(OTHER)
    expect((await allPages(other, '/findings', '')).flat()).toEqual(['o1-network-high-open'])
    // A cursor naming the other company's finding is not one of this company's.
    await refusal(call(other, '/findings', 'cursor=f1-dast-high-open'), 400, 'invalid_request')
  })
})

describe('GET /findings/{id}', () => {
  it('answers one finding with what its page says and its history, oldest first', async () => {
    const { token: read } = await token(ACME)
    const answer = await call(read, '/findings/f1-dast-high-open')
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      id: 'f1-dast-high-open',
      description: 'What it is.',
      remediation: 'How to fix it.',
      history: [
        { id: 'h1', from: 'open', to: 'in_remediation', by: 'First', role: 'manager' },
        { id: 'h2', from: 'in_remediation', to: 'open', by: 'Second' },
      ],
    })
  })

  it("is not found for another company's finding, one of a closed service, or none", async () => {
    const { token: read } = await token(ACME)
    const { token: other } = await token(OTHER)
    await refusal(call(other, '/findings/f1-dast-high-open'), 404, 'not_found')
    await refusal(call(read, '/findings/o1-network-high-open'), 404, 'not_found')
    await refusal(call(read, '/findings/f6-cloud-high-open'), 404, 'not_found')
    await refusal(call(read, '/findings/nothing-here'), 404, 'not_found')
  })
})

describe('GET /scans', () => {
  it('lists published scans of the open services, newest first, a page at a time', async () => {
    const { token: read } = await token(ACME)
    expect(await allPages(read, '/scans', 'limit=1')).toEqual([['s1-network'], ['s2-network']])
    const answer = await call(read, '/scans', 'service=network')
    expect((answer.body as Page).data[0]).toMatchObject({ id: 's1-network', service: 'network', counts: { total: 1 } })
    await refusal(call(read, '/scans', 'service=cloud'), 403, 'forbidden')
    const { token: other } = await token(OTHER)
    expect((await allPages(other, '/scans', '')).flat()).toEqual(['o1-scan'])
  })
})

describe('tokens and scopes', () => {
  it('refuses no token, a malformed one, a DAST key, an unknown, an expired and a revoked one', async () => {
    const good = await token(ACME)
    await refusal(call(null, '/findings'), 401, 'unauthenticated')
    await refusal(call('bwk_api_nonsense', '/findings'), 401, 'unauthenticated')
    await refusal(call(`${good.token.slice(0, -6)}AAAAAA`, '/findings'), 401, 'unauthenticated')
    await refusal(call(newDastKeyToken().token, '/findings'), 401, 'unauthenticated')
    await refusal(call((await token(ACME, READ, { stored: false })).token, '/findings'), 401, 'unauthenticated')
    await refusal(call((await token(ACME, READ, { expiresAt: now - 1 })).token, '/findings'), 401, 'token_expired')
    await refusal(call((await token(ACME, READ, { revokedAt: now - 1 })).token, '/findings'), 401, 'token_revoked')
    // The same secret under another id: the hash does not match.
    const forged = apiTokenFormat.issue()
    await admin.db.doc(apiTokenPath(forged.id)).set((await admin.db.doc(apiTokenPath(good.id)).get()).data()!)
    await admin.db.doc(apiTokenHashPath(forged.id)).set({ hash: hashToken(SECRET, good.token), company: ACME })
    await refusal(call(forged.token, '/findings'), 401, 'unauthenticated')
    expect((await call(good.token, '/findings')).status).toBe(200)
  })

  it('answers each read only with findings:read', async () => {
    for (const scopes of [['findings:write'], ['dast:trigger'], ['findings:write', 'dast:trigger']] as ApiScope[][]) {
      const { token: without } = await token(ACME, scopes)
      await refusal(call(without, '/findings'), 403, 'missing_scope')
      await refusal(call(without, '/findings/f1-dast-high-open'), 403, 'missing_scope')
      await refusal(call(without, '/scans'), 403, 'missing_scope')
    }
    const { token: all } = await token(ACME, ['findings:read', 'findings:write', 'dast:trigger'])
    expect((await call(all, '/findings/f1-dast-high-open')).status).toBe(200)
  })

  it('answers a call it does not have with 404 and a method it does not take with 405', async () => {
    const { token: read } = await token(ACME)
    await refusal(call(read, '/nothing'), 404, 'not_found')
    await refusal(call(read, '/findings', '', 'POST'), 405, 'method_not_allowed')
  })

  it('audits every call of a genuine token, refused ones too, and records its last use', async () => {
    const issued = await token(ACME)
    now += MINUTE
    await call(issued.token, '/findings', 'service=network', 'GET', '203.0.113.7')
    await call(issued.token, '/findings/f1-dast-high-open', '', 'GET', '203.0.113.7')
    await call(issued.token, '/findings', 'service=cloud', 'GET', '203.0.113.7')
    const uses = await usesOf(issued.id)
    expect(uses.map((e) => e.after)).toHaveLength(3)
    expect(uses.map((e) => e.after)).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/findings/f1-dast-high-open', status: 200, ip: '203.0.113.7' },
        { method: 'GET', path: '/findings?service=cloud', status: 403, ip: '203.0.113.7' },
        { method: 'GET', path: '/findings?service=network', status: 200, ip: '203.0.113.7' },
      ]),
    )
    expect(uses.every((e) => e.companyId === ACME && e.actorUid === `api-token:${issued.id}`)).toBe(true)
    const stored = apiTokenFromDocument(issued.id, (await admin.db.doc(apiTokenPath(issued.id)).get()).data())!
    expect(stored).toMatchObject({ lastUsedAt: now, lastUsedIp: '203.0.113.7' })
    const revoked = await token(ACME, READ, { revokedAt: now - 1 })
    await call(revoked.token, '/findings')
    expect((await usesOf(revoked.id)).map((e) => e.after?.status)).toEqual([401])
  })

  it(`answers 429 with Retry-After after ${CLIENT_API_LIMITS.perToken} calls a minute of one token, and again in the next minute`, async () => {
    now += 10 * MINUTE
    const { token: busy } = await token(ACME)
    for (let n = 0; n < CLIENT_API_LIMITS.perToken; n++) {
      const answer = await handleClientApiRequest(
        admin.db,
        { method: 'GET', path: '/nothing', query: '', authorization: `Bearer ${busy}` },
        now,
        SECRET,
      )
      expect(answer.status).toBe(404)
    }
    const limited = await call(busy, '/findings')
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } }, headers: { 'Retry-After': '60' } })
    await refusal(post(busy, '/findings/f1-dast-high-open/comments', { body: 'Counted too.' }), 429, 'rate_limited')
    now += CLIENT_API_LIMITS.windowMs
    expect((await call(busy, '/findings')).status).toBe(200)
  })
})

describe('the writes (findings:write)', () => {
  const WRITE: ApiScope[] = ['findings:write']
  const key = () => randomUUID()
  const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10)

  // The workflow runs on the server's clock, as the pages' callables do.
  beforeAll(() => {
    now = Date.now()
  })

  /** A finding of Acme's (or `company`'s), published yesterday, its SLA clock running. */
  async function fresh(status: StoredFinding['status'] = 'open', service: ServiceId = 'network', company = ACME) {
    const id = `w-${service}-${unique()}`
    await admin.db.doc(findingPath(company, id)).set(ts(findingDocument(service, { status, fingerprint: id }, Date.now() - DAY)))
    return id
  }
  const stored = async (id: string) => findingFromDocument(id, (await admin.db.doc(findingPath(ACME, id)).get()).data())!
  const historyOf = async (id: string) =>
    (await admin.db.collection(findingHistoryPath(ACME, id)).get()).docs.map((d) => historyFromDocument(d.id, d.data())!)
  const retestsOf = async (id: string) =>
    (await admin.db.collection(retestsPath(ACME)).where('findingIds', 'array-contains', id).get()).docs.map((d) =>
      retestFromDocument(d.id, d.data())!,
    )
  const commentsOf = async (id: string) =>
    (await admin.db.collection(findingCommentsPath(ACME, id)).get()).docs.map((d) => commentFromDocument(d.id, d.data())!)

  it('requests a retest as the page does: the finding waits for the analysts under a new retest request, named after the token', async () => {
    const issued = await token(ACME, WRITE)
    const id = await fresh('in_remediation')
    const answer = await post(issued.token, `/findings/${id}/retest`, { note: 'Patched the TLS configuration.' })
    expect(answer).toMatchObject({ status: 201, body: { findingId: id, status: 'retest_requested' } })
    expect(answer.headers).toBeUndefined()
    const [retest, ...more] = await retestsOf(id)
    expect(more).toEqual([])
    expect(retest).toMatchObject({ state: 'requested', note: 'Patched the TLS configuration.', requestedByUid: `api-token:${issued.id}` })
    expect(retest!.requestedByName).toMatch(/^tool .* \(API token\)$/)
    expect(answer.body).toMatchObject({ retestId: retest!.id, dueAt: new Date(retest!.dueAt).toISOString() })
    expect(await stored(id)).toMatchObject({ status: 'retest_requested', retestId: retest!.id, slaState: 'paused' })
    expect(await historyOf(id)).toEqual([
      expect.objectContaining({ action: 'request_retest', from: 'in_remediation', to: 'retest_requested', role: 'manager' }),
    ])
    // The workflow refuses a second request of a finding already waiting for its retest.
    await refusal(post(issued.token, `/findings/${id}/retest`, { note: 'Again.' }), 409, 'conflict')
  })

  it('writes once for a retried Idempotency-Key, answers the first answer again, and refuses the key with another body', async () => {
    const { token: writer } = await token(ACME, WRITE)
    const id = await fresh()
    const retry = key()
    const first = await post(writer, `/findings/${id}/retest`, { note: 'Fixed in release 4.2.' }, retry)
    expect(first.status).toBe(201)
    const again = await post(writer, `/findings/${id}/retest`, { note: 'Fixed in release 4.2.' }, retry)
    expect(again).toEqual({ ...first, headers: { 'Idempotent-Replayed': 'true' } })
    expect(await retestsOf(id)).toHaveLength(1)
    expect(await historyOf(id)).toHaveLength(1)
    await refusal(post(writer, `/findings/${id}/retest`, { note: 'Something else.' }, retry), 422, 'idempotency_key_reused')
    // Another token's same key is its own request: refused by the workflow, not answered from the first token's receipt.
    const { token: otherWriter } = await token(ACME, WRITE)
    await refusal(post(otherWriter, `/findings/${id}/retest`, { note: 'Fixed in release 4.2.' }, retry), 409, 'conflict')

    const commented = await fresh()
    const commentKey = key()
    const posted = await post(writer, `/findings/${commented}/comments`, { body: 'Deployed on Monday.' }, commentKey)
    expect(await post(writer, `/findings/${commented}/comments`, { body: 'Deployed on Monday.' }, commentKey)).toEqual({
      ...posted,
      headers: { 'Idempotent-Replayed': 'true' },
    })
    expect(await commentsOf(commented)).toHaveLength(1)
    expect((await stored(commented)).commentCount).toBe(1)

    const accepted = await fresh()
    const acceptKey = key()
    const asked = { justification: 'Compensating control in place.', expiresAt: inDays(30) }
    const acceptance = await post(writer, `/findings/${accepted}/accept-risk`, asked, acceptKey)
    expect(acceptance.status).toBe(200)
    expect(await post(writer, `/findings/${accepted}/accept-risk`, asked, acceptKey)).toEqual({
      ...acceptance,
      headers: { 'Idempotent-Replayed': 'true' },
    })
    expect(await historyOf(accepted)).toHaveLength(1)
  })

  it('asks to accept a risk until a day or a date-time, for a company admin to decide on the page', async () => {
    const issued = await token(ACME, WRITE)
    const id = await fresh()
    const day = inDays(90)
    const answer = await post(issued.token, `/findings/${id}/accept-risk`, { justification: 'Internal host only.', expiresAt: day })
    const expiresAt = acceptanceEndOfDay(day)
    expect(answer).toEqual({
      status: 200,
      body: { findingId: id, status: 'acceptance_requested', expiresAt: new Date(expiresAt).toISOString() },
    })
    expect(await stored(id)).toMatchObject({
      status: 'acceptance_requested',
      previousStatus: 'open',
      riskAcceptance: { reason: 'Internal host only.', expiresAt, requestedByUid: `api-token:${issued.id}` },
    })
    const timed = await fresh()
    const at = new Date(Date.now() + 10 * DAY).toISOString().replace('Z', '+00:00')
    const exact = await post(issued.token, `/findings/${timed}/accept-risk`, { justification: 'Until the migration.', expiresAt: at })
    expect(exact.body).toMatchObject({ expiresAt: new Date(Date.parse(at)).toISOString() })
    // A finding that is fixed takes no acceptance: the workflow's reason, as the page would give it.
    const fixed = await fresh('fixed')
    const refused = await post(issued.token, `/findings/${fixed}/accept-risk`, { justification: 'Why not.', expiresAt: day })
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'conflict', message: expect.stringContaining('fixed') } } })
    expect(await historyOf(fixed)).toEqual([])
  })

  it('comments for the client, telling a person of the company it mentions', async () => {
    const issued = await token(ACME, WRITE)
    const id = await fresh()
    const manager = await admin.auth.createUser({ email: `capi-manager-${unique()}@acme.example` })
    await admin.db
      .doc(`users_access/${manager.uid}`)
      .set(usersAccessDocument({ claims: tokenClaims(LEVEL.clientManager), companies: [ACME], servicesEnabled: ['network'] }))
    const answer = await post(issued.token, `/findings/${id}/comments`, { body: `@${manager.email} the fix is deployed.` })
    expect(answer).toMatchObject({ status: 201, body: { findingId: id } })
    const [comment] = await commentsOf(id)
    expect(comment).toMatchObject({
      id: (answer.body as { commentId: string }).commentId,
      authorUid: `api-token:${issued.id}`,
      authorRole: 'manager',
      visibility: 'client',
      mentions: [manager.email],
    })
    expect(comment!.authorName).toMatch(/\(API token\)$/)
    const told = (await admin.db.collection('notifications').where('uid', '==', manager.uid).get()).docs.map((d) =>
      notificationFromDocument(d.id, d.data()),
    )
    expect(told).toEqual([expect.objectContaining({ type: 'mention', link: `/reports/network/${id}` })])
  })

  it('refuses bodies it does not take, naming the field', async () => {
    const { token: writer } = await token(ACME, WRITE)
    const id = await fresh()
    await refusal(post(writer, `/findings/${id}/retest`, {}), 400, 'invalid_request', 'note')
    await refusal(post(writer, `/findings/${id}/retest`, { note: '   ' }), 400, 'invalid_request', 'note')
    await refusal(post(writer, `/findings/${id}/retest`, { note: 'x', company: OTHER }), 400, 'invalid_request', 'company')
    await refusal(post(writer, `/findings/${id}/retest`, '{"note": '), 400, 'invalid_request')
    await refusal(post(writer, `/findings/${id}/retest`, ['note']), 400, 'invalid_request')
    await refusal(post(writer, `/findings/${id}/comments`, { body: 'x'.repeat(COMMENT_MAX_LENGTH + 1) }), 400, 'invalid_request', 'body')
    await refusal(post(writer, `/findings/${id}/comments`, { body: 5 }), 400, 'invalid_request', 'body')
    const accept = (body: unknown) => post(writer, `/findings/${id}/accept-risk`, body)
    await refusal(accept({ expiresAt: inDays(30) }), 400, 'invalid_request', 'justification')
    await refusal(accept({ justification: 'Fine.' }), 400, 'invalid_request', 'expiresAt')
    await refusal(accept({ justification: 'Fine.', expiresAt: 'next month' }), 400, 'invalid_request', 'expiresAt')
    await refusal(accept({ justification: 'Fine.', expiresAt: '2026-13-45' }), 400, 'invalid_request', 'expiresAt')
    await refusal(accept({ justification: 'Fine.', expiresAt: inDays(-2) }), 400, 'invalid_request', 'expiresAt')
    await refusal(accept({ justification: 'Fine.', expiresAt: inDays(MAX_ACCEPTANCE_DAYS + 2) }), 400, 'invalid_request', 'expiresAt')
    await refusal(post(writer, `/findings/${id}/retest`, { note: 'x' }, 'short'), 400, 'invalid_request', 'Idempotency-Key')
    // Nothing of it was written.
    expect(await stored(id)).toMatchObject({ status: 'open', commentCount: 0 })
    expect(await historyOf(id)).toEqual([])
  })

  it("refuses a token without findings:write, a revoked or expired one, and another company's finding or a closed service's", async () => {
    const id = await fresh()
    // One call after another: a token's calls at once would queue on its rate-limit counter.
    const everyWrite = async (presented: string, status: number, code: ApiErrorCode, finding = id) => {
      await refusal(post(presented, `/findings/${finding}/retest`, { note: 'Fixed.' }), status, code)
      await refusal(post(presented, `/findings/${finding}/accept-risk`, { justification: 'Fine.', expiresAt: inDays(30) }), status, code)
      await refusal(post(presented, `/findings/${finding}/comments`, { body: 'Hello.' }), status, code)
    }
    for (const scopes of [READ, ['dast:trigger'], ['findings:read', 'dast:trigger']] as ApiScope[][])
      await everyWrite((await token(ACME, scopes)).token, 403, 'missing_scope')
    await everyWrite((await token(ACME, WRITE, { revokedAt: now - 1 })).token, 401, 'token_revoked')
    await everyWrite((await token(ACME, WRITE, { expiresAt: now - 1 })).token, 401, 'token_expired')
    const { token: writer } = await token(ACME, WRITE)
    const theirs = await fresh('open', 'network', OTHER)
    const closed = await fresh('open', 'cloud')
    for (const finding of [theirs, closed, 'no-such-finding']) await everyWrite(writer, 404, 'not_found', finding)
    // The other company's own token may: the finding was refused, not broken.
    const { token: theirWriter } = await token(OTHER, WRITE)
    expect((await post(theirWriter, `/findings/${theirs}/comments`, { body: 'Ours.' })).status).toBe(201)
    await refusal(call(writer, `/findings/${id}/retest`), 405, 'method_not_allowed')
    expect(await stored(id)).toMatchObject({ status: 'open', commentCount: 0 })
  })

  it('audits each write of a genuine token with its call and status', async () => {
    const issued = await token(ACME, WRITE)
    const id = await fresh()
    await post(issued.token, `/findings/${id}/comments`, { body: 'Audited.' })
    await post(issued.token, `/findings/${id}/retest`, {})
    expect((await usesOf(issued.id)).map((e) => e.after)).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: `/findings/${id}/comments`, status: 201, ip: null },
        { method: 'POST', path: `/findings/${id}/retest`, status: 400, ip: null },
      ]),
    )
  })
})
