// Searching findings: syncFindingSearch keeping the findings index equal to every company's
// findings, and getSearchClient's findings keys, used against the search emulator: a key is for
// one company and the services whose results the caller may see there, whatever the query asks.
import { createHmac } from 'node:crypto'
import { algoliasearch } from 'algoliasearch'
import { Timestamp } from 'firebase-admin/firestore'
import { signOut } from 'firebase/auth'
import { httpsCallable } from 'firebase/functions'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { companyPath } from '#domain/companies.ts'
import { findingPath, type StoredFinding } from '#domain/findings.ts'
import { alphabeticalOrder } from '#domain/alphabetical-order.ts'
import {
  findingObjectID,
  findingsSortIndex,
  FINDINGS_INDEX,
  FINDINGS_SEARCH_KEY_LIFETIME_SECONDS,
  type FindingSearchRecord,
} from '#domain/findings-search.ts'
import type { ServiceId } from '#domain/services.ts'
import type { SearchClientResponse } from '#domain/template-library-calls.ts'
import { algoliaHosts } from '#domain/template-search.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { SEARCH_EMULATOR_DEFAULTS } from '../../emulators/search/config.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { companyDocument, findingDocument, tokenClaims, usersAccessDocument } from '../builders.ts'
import { connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'
import { eventually, INDEX_TIMEOUT_MS, runId, SEARCH_HOSTS, searchAdmin } from './template-fixtures.ts'

let admin: AdminClients
let client: CallableClient
const run = runId()
const acme = `${run}-acme`
const globex = `${run}-globex`
const statsOnly = `${run}-stats`

const getSearchClient = async (data: unknown) =>
  (await httpsCallable<unknown, SearchClientResponse>(client.functions, 'getSearchClient')(data)).data

const searchAs = (key: string) => algoliasearch(SEARCH_EMULATOR_DEFAULTS.appId, key, { hosts: algoliaHosts(SEARCH_HOSTS, 'read') })

/** The stored form: epoch ms become Timestamps. */
function stored(finding: StoredFinding): Record<string, unknown> {
  const ts = (ms: number | null | undefined) => (ms == null ? null : Timestamp.fromMillis(ms))
  return {
    ...finding,
    firstSeenAt: ts(finding.firstSeenAt),
    lastSeenAt: ts(finding.lastSeenAt),
    publishedAt: ts(finding.publishedAt),
    updatedAt: ts(finding.updatedAt),
    sla: { startedAt: ts(finding.sla.startedAt), dueAt: ts(finding.sla.dueAt), pausedAt: ts(finding.sla.pausedAt) },
  }
}

/** Every company gets one finding per service, titled so that one word finds them all. */
const SERVICES: ServiceId[] = ['dast', 'network', 'cloud']
const findingId = (service: ServiceId) => `${run}-${service}`

async function writeFinding(company: string, service: ServiceId, overrides: Partial<StoredFinding> = {}) {
  await admin.db
    .doc(findingPath(company, findingId(service)))
    .set(stored(findingDocument(service, { title: `Exposed ${run} admin panel`, tags: ['exposure'], ...overrides })))
}

async function indexed(company: string, service: ServiceId): Promise<FindingSearchRecord | null> {
  const { results } = await searchAdmin().getObjects<FindingSearchRecord>({
    requests: [{ indexName: FINDINGS_INDEX, objectID: findingObjectID(company, findingId(service)) }],
  })
  return results[0] ?? null
}

/** Signs in a new account with `level` and a users_access document in `companies`; its uid. */
async function signInAs(level: number, companies: string[], servicesEnabled: string[] = []): Promise<string> {
  const claims = tokenClaims(level)
  const { uid } = await signInWithClaims(client, admin.auth, claims)
  await admin.db.doc(userAccessPath(uid)).set(usersAccessDocument({ claims, companies, servicesEnabled }))
  return uid
}

/** The restrictions a secured key signs: after its 64-character signature, as query parameters. */
const restrictionsOf = (searchKey: string) => new URLSearchParams(Buffer.from(searchKey, 'base64').toString('utf8').slice(64))

/** What a key finds for the run's word, as company/service pairs, with any extra filter the browser adds. */
async function found(searchKey: string, filters?: string): Promise<string[]> {
  const { hits } = await searchAs(searchKey).searchSingleIndex<FindingSearchRecord>({
    indexName: FINDINGS_INDEX,
    searchParams: { query: `exposed ${run}`, ...(filters ? { filters } : {}) },
  })
  return hits.map((hit) => `${hit.company}/${hit.service}`).sort()
}

beforeAll(async () => {
  admin = connectToEmulators()
  client = connectCallableClient('findings-search')
  await admin.db.doc(companyPath(acme)).set(
    // DAST and network results; cloud stats only.
    companyDocument(acme, { enableDast: true, enableViewResultsNetwork: true, enableViewCloudScanStats: true }),
  )
  await admin.db
    .doc(companyPath(globex))
    .set(companyDocument(globex, { enableDast: true, enableViewResultsNetwork: true, enableViewCloudScanResults: true }))
  await admin.db.doc(companyPath(statsOnly)).set(companyDocument(statsOnly, { enableViewCloudScanStats: true }))
  await Promise.all([acme, globex].flatMap((company) => SERVICES.map((service) => writeFinding(company, service))))
  await eventually(async () => {
    for (const company of [acme, globex]) for (const service of SERVICES) expect(await indexed(company, service)).not.toBeNull()
  })
}, INDEX_TIMEOUT_MS + 10_000)

beforeEach(async () => {
  await signOut(client.auth)
})

afterAll(async () => {
  await client.close()
  await disconnect(admin)
})

describe('syncFindingSearch', () => {
  it('indexes a finding with what the search needs, follows its changes and drops it when deleted', async () => {
    const written = findingDocument('dast', { title: `Exposed ${run} admin panel`, tags: ['exposure'] })
    expect(await indexed(acme, 'dast')).toEqual({
      objectID: findingObjectID(acme, findingId('dast')),
      findingId: findingId('dast'),
      company: acme,
      service: 'dast',
      title: `Exposed ${run} admin panel`,
      severity: 'high',
      severityRank: 4,
      status: 'open',
      statusRank: 0,
      asset: 'app.acme.example:443',
      tags: ['exposure'],
      cwe: written.cwe,
      templateSlug: null,
      regression: false,
      // What the table shows and sorts by, as the document has it.
      lastSeenAt: written.lastSeenAt,
      sla: { startedAt: written.sla.startedAt, dueAt: written.sla.dueAt, pausedAt: null },
      closedAt: null,
      slaDueAt: written.sla.dueAt,
      // No CVE the feeds list: not known exploited, no score.
      kev: false,
      epss: null,
      epssPercentile: null,
      ...Object.fromEntries(alphabeticalOrder(`Exposed ${run} admin panel`).map((n, i) => [`titleOrder${i}`, n])),
      ...Object.fromEntries(alphabeticalOrder('app.acme.example:443').map((n, i) => [`assetOrder${i}`, n])),
    })
    await admin.db.doc(findingPath(acme, findingId('dast'))).update({ status: 'in_remediation', severity: 'critical' })
    await eventually(async () => expect(await indexed(acme, 'dast')).toMatchObject({ status: 'in_remediation', severity: 'critical' }))

    await admin.db.doc(findingPath(globex, findingId('cloud'))).delete()
    await eventually(async () => expect(await indexed(globex, 'cloud')).toBeNull())
    await writeFinding(globex, 'cloud')
    await eventually(async () => expect(await indexed(globex, 'cloud')).not.toBeNull())
  })
})

describe('getSearchClient for findings', () => {
  it('gives a manager of acme a key that finds acme findings of the services with results, and nothing of globex', async () => {
    await signInAs(LEVEL.clientManager, [acme])
    const { searchKey } = await getSearchClient({ type: 'findings', company: acme })
    expect(await found(searchKey)).toEqual([`${acme}/dast`, `${acme}/network`])
    // The browser's own filters are ANDed with the key's: asking for globex or cloud finds nothing.
    expect(await found(searchKey, `company:"${globex}"`)).toEqual([])
    expect(await found(searchKey, 'service:cloud')).toEqual([])
    // The table's sort replicas too, under the same filter.
    const { hits } = await searchAs(searchKey).searchSingleIndex<FindingSearchRecord>({
      indexName: findingsSortIndex('-lastSeen'),
      searchParams: { query: `exposed ${run}` },
    })
    expect(hits.map((hit) => `${hit.company}/${hit.service}`).sort()).toEqual([`${acme}/dast`, `${acme}/network`])
    // Only the findings indexes.
    await expect(
      searchAs(searchKey).searchSingleIndex({ indexName: 'finding_templates', searchParams: { query: '' } }),
    ).rejects.toMatchObject({
      status: 403,
    })
  })

  it('limits a viewer to the services enabled for them', async () => {
    await signInAs(LEVEL.clientViewer, [acme], ['network'])
    const { searchKey } = await getSearchClient({ type: 'findings', company: acme })
    expect(await found(searchKey)).toEqual([`${acme}/network`])
  })

  it('refuses a company the caller may not select', async () => {
    await signInAs(LEVEL.companyAdmin, [acme])
    await expectCallableError(getSearchClient({ type: 'findings', company: globex }), 'permission-denied')
    await expectCallableError(getSearchClient({ type: 'findings', company: `${run}-nowhere` }), 'permission-denied')
  })

  it('refuses a company where the caller sees no results, only stats', async () => {
    await signInAs(LEVEL.clientManager, [statsOnly])
    await expectCallableError(getSearchClient({ type: 'findings', company: statsOnly }), 'permission-denied')
  })

  it('gives analysts who see every company any company, all its services with results', async () => {
    await signInAs(LEVEL.seniorAnalyst, [])
    const { searchKey } = await getSearchClient({ type: 'findings', company: globex })
    expect(await found(searchKey)).toEqual([`${globex}/cloud`, `${globex}/dast`, `${globex}/network`])
  })

  it('gives a key that lives minutes, not an hour', async () => {
    await signInAs(LEVEL.clientManager, [acme])
    const before = Math.floor(Date.now() / 1000)
    const { searchKey } = await getSearchClient({ type: 'findings', company: acme })
    const validUntil = Number(restrictionsOf(searchKey).get('validUntil'))
    expect(validUntil).toBeGreaterThanOrEqual(before + FINDINGS_SEARCH_KEY_LIFETIME_SECONDS)
    expect(validUntil).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + FINDINGS_SEARCH_KEY_LIFETIME_SECONDS)
    expect(validUntil - before).toBeLessThanOrEqual(5 * 60)
  })

  it('has the search service refuse the key once it has expired', async () => {
    await signInAs(LEVEL.clientManager, [acme])
    const { searchKey } = await getSearchClient({ type: 'findings', company: acme })
    // The same key as the search service sees it once its lifetime is over: validUntil passed, signed alike.
    const restrictions = restrictionsOf(searchKey)
    restrictions.set('validUntil', String(Math.floor(Date.now() / 1000) - 1))
    const signature = createHmac('sha256', SEARCH_EMULATOR_DEFAULTS.searchApiKey).update(restrictions.toString()).digest('hex')
    const lapsed = Buffer.from(signature + restrictions.toString()).toString('base64')
    await expect(found(lapsed)).rejects.toMatchObject({ status: 400, message: 'validUntil parameter expired (less than current date)' })
    expect(await found(searchKey)).toEqual([`${acme}/dast`, `${acme}/network`])
  })

  it('gives no new key once the caller has left the company or its results were switched off', async () => {
    const initech = `${run}-initech`
    await admin.db.doc(companyPath(initech)).set(companyDocument(initech, { enableDast: true }))
    const uid = await signInAs(LEVEL.clientManager, [initech])
    expect((await getSearchClient({ type: 'findings', company: initech })).searchKey).not.toBe('')
    await admin.db.doc(userAccessPath(uid)).update({ companies: [] })
    await expectCallableError(getSearchClient({ type: 'findings', company: initech }), 'permission-denied')
    await admin.db.doc(userAccessPath(uid)).update({ companies: [initech] })
    await admin.db.doc(companyPath(initech)).update({ enableDast: false })
    await expectCallableError(getSearchClient({ type: 'findings', company: initech }), 'permission-denied')
  })

  it('still refuses template keys to clients', async () => {
    await signInAs(LEVEL.companyAdmin, [acme])
    await expectCallableError(getSearchClient({ type: 'search' }), 'permission-denied')
  })
})
