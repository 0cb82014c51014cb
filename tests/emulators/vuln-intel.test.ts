// The daily vulnerability intelligence refresh against the emulators, with the two feeds served on
// loopback in their published formats: the findings of two companies get their CVEs' KEV and EPSS
// figures, pages at a time; a second run on the same feeds writes nothing; a finding without CVEs
// is never touched; a hostile feed is refused before anything is written.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { companyPath, kevSlaDaysOf } from '#domain/companies.ts'
import { findingFromDocument, findingPath, withCves, type StoredFinding } from '#domain/findings.ts'
import { DAY_MS } from '#domain/sla.ts'
import { storedEmail, userAccessPath } from '#domain/users-access.ts'
import { vulnIntelFromDocument, vulnIntelPath } from '#domain/vuln-intel.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { applyFindingChanges } from '../../functions/src/reports/finding-store.ts'
import { refreshVulnIntel } from '../../functions/src/intel/refresh-vuln-intel.ts'
import { companyDocument, findingDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const FIXTURES = new URL('../fixtures/vuln-intel/', import.meta.url)
const FILES: Record<string, Buffer> = {
  '/kev.json': readFileSync(new URL('known_exploited_vulnerabilities.json', FIXTURES)),
  '/epss.csv.gz': readFileSync(new URL('epss_scores-2026-12-02.csv.gz', FIXTURES)),
  // Gzip magic, then nothing a gzip reader can unpack.
  '/broken.csv.gz': Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]),
}

const unique = () => randomUUID().slice(0, 8)
const ACME = `vi-${unique()}`
const GLOBEX = `vi-${unique()}`

let admin: AdminClients
const clients: CallableClient[] = []
let server: Server
let base: string

beforeAll(async () => {
  admin = connectToEmulators()
  server = createServer((request, response) => {
    const file = FILES[request.url ?? '']
    response.writeHead(file ? 200 : 404, { 'content-type': 'application/octet-stream' }).end(file ?? '')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await Promise.all([ACME, GLOBEX].map((c) => admin.db.doc(companyPath(c)).set(companyDocument(c, { enableViewResultsNetwork: true }))))
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await new Promise((resolve) => server.close(resolve))
  await disconnect(admin)
})

const withCveIds = (cves: string[], overrides: Partial<StoredFinding> = {}) =>
  findingDocument('network', { ...withCves(cves), ...overrides })

async function store(company: string, findings: Record<string, StoredFinding>) {
  await admin.db.runTransaction((tx) =>
    applyFindingChanges(admin.db, tx, {
      company,
      updatedBy: 'analyst@sectest.example',
      findings: Object.entries(findings).map(([id, finding]) => ({ id, before: null, patch: finding, change: null })),
    }),
  )
}

const read = async (company: string, id: string) => {
  const snapshot = await admin.db.doc(findingPath(company, id)).get()
  return { finding: findingFromDocument(id, snapshot.data()), updated: snapshot.updateTime?.toMillis() }
}

const NOW = Date.UTC(2026, 11, 3, 6, 30)

/** When each finding the feeds list was last written. */
const updateTimes = () =>
  Promise.all(
    [
      [ACME, 'log4shell'],
      [ACME, 'citrix'],
      [GLOBEX, 'eternalblue'],
      [GLOBEX, 'rapidreset'],
    ].map(async ([company, id]) => (await read(company!, id!)).updated),
  )

describe('the vulnerability intelligence refresh', () => {
  it('gives the findings of two companies their figures, writes nothing the second time and leaves findings without CVEs alone', async () => {
    await store(ACME, {
      log4shell: withCveIds(['CVE-2021-44228', 'CVE-2024-6387']),
      citrix: withCveIds(['cve-2023-4966']),
      unknown: withCveIds(['CVE-2099-0001']),
      plain: findingDocument('network'),
    })
    await store(GLOBEX, {
      eternalblue: withCveIds(['CVE-2017-0144', 'CVE-2019-0708']),
      rapidreset: withCveIds(['CVE-2023-44487']),
    })
    const plainBefore = await read(ACME, 'plain')

    // Pages of 2: every page boundary is crossed, both companies' findings among them.
    const urls = { kevUrl: `${base}/kev.json`, epssUrl: `${base}/epss.csv.gz`, pageSize: 2 }
    const first = await refreshVulnIntel(admin.db, NOW, urls)
    expect(first).toMatchObject({ kevVersion: '2026.12.01', epssDate: '2026-12-02' })
    expect(first.findingsWritten).toBeGreaterThanOrEqual(4)

    const log4shell = (await read(ACME, 'log4shell')).finding!
    expect(log4shell.intel).toEqual({
      kev: true,
      kevDateAdded: '2021-12-10',
      kevDueDate: '2021-12-24',
      epss: 0.9436,
      epssPercentile: 0.9996,
      cves: [
        {
          cve: 'CVE-2021-44228',
          kev: { dateAdded: '2021-12-10', dueDate: '2021-12-24', ransomware: true },
          epss: 0.9436,
          percentile: 0.9996,
        },
        { cve: 'CVE-2024-6387', kev: null, epss: 0.3773, percentile: 0.9712 },
      ],
      refreshedAt: NOW,
    })
    expect((await read(ACME, 'citrix')).finding!.intel).toMatchObject({ kev: true, kevDueDate: '2023-11-08', epss: 0.9429 })
    expect((await read(ACME, 'unknown')).finding!.intel).toBeNull()
    const eternalblue = (await read(GLOBEX, 'eternalblue')).finding!.intel!
    expect(eternalblue).toMatchObject({ kev: true, kevDateAdded: '2022-02-10', epss: 0.9446, epssPercentile: 0.9998 })
    expect(eternalblue.cves.map((c) => c.cve)).toEqual(['CVE-2017-0144', 'CVE-2019-0708'])
    expect((await read(GLOBEX, 'rapidreset')).finding!.intel).toMatchObject({ kev: false, kevDateAdded: null, epss: 0.8125 })
    expect(vulnIntelFromDocument((await admin.db.doc(vulnIntelPath('CVE-2023-4966')).get()).data())).toMatchObject({
      kev: { dateAdded: '2023-10-18', dueDate: '2023-11-08', ransomware: true },
      epss: 0.9429,
      epssDate: '2026-12-02',
      kevVersion: '2026.12.01',
      updatedAt: NOW,
    })

    const times = await updateTimes()
    const second = await refreshVulnIntel(admin.db, NOW + 86_400_000, urls)
    expect(second).toMatchObject({ intelWritten: 0, findingsWritten: 0 })
    expect(second.findingsRead).toBe(first.findingsRead)
    const again = await updateTimes()
    expect(again).toEqual(times)
    expect(await read(ACME, 'plain')).toEqual(plainBefore)
    expect(plainBefore.finding!.intel).toBeNull()
  })

  it("brings forward the deadline of open findings that become known exploited, as the company's SLA policy says, once", async () => {
    const strict = `vi-${unique()}`
    await admin.db.doc(companyPath(strict)).set({ ...companyDocument(strict, { enableViewResultsNetwork: true }), kevSlaDays: 7 })
    // High findings have 30 days. Published 20 days ago: 10 left, 7 from now is sooner. Published
    // 28 days ago: 2 left, already sooner. Fixed: no clock to move. No KEV CVE: as it was.
    const published = (days: number, cves: string[], overrides: Partial<StoredFinding> = {}) =>
      findingDocument('network', { ...withCves(cves), ...overrides }, NOW - days * DAY_MS)
    await store(strict, {
      late: published(20, ['CVE-2024-3400']),
      close: published(28, ['CVE-2023-4966']),
      fixed: published(20, ['CVE-2022-22965'], { status: 'fixed', closedAt: NOW - DAY_MS, slaState: 'none' }),
      scored: published(20, ['CVE-2024-6387']),
    })
    const before = Object.fromEntries(
      await Promise.all(['late', 'close', 'fixed', 'scored'].map(async (id) => [id, (await read(strict, id)).finding!] as const)),
    )
    const urls = { kevUrl: `${base}/kev.json`, epssUrl: `${base}/epss.csv.gz` }
    expect(await refreshVulnIntel(admin.db, NOW, urls)).toMatchObject({ kevDeadlines: 1 })

    const late = (await read(strict, 'late')).finding!
    expect(late.sla).toEqual({ ...before.late!.sla, dueAt: NOW + 7 * DAY_MS })
    expect(late).toMatchObject({ slaState: 'ok', intel: { kev: true, kevDueDate: '2024-04-19' } })
    expect(late.slaChangeAt).toBeGreaterThan(NOW)
    for (const id of ['close', 'fixed', 'scored']) expect((await read(strict, id)).finding!.sla, id).toEqual(before[id]!.sla)
    expect((await read(strict, 'scored')).finding!.intel).toMatchObject({ kev: false })
    // A company without a KEV deadline keeps its clocks.
    expect((await read(ACME, 'log4shell')).finding!.sla).toEqual(withCveIds([]).sla)

    // Known exploited already: a later run moves nothing.
    const again = await refreshVulnIntel(admin.db, NOW + DAY_MS, urls)
    expect(again).toMatchObject({ kevDeadlines: 0, findingsWritten: 0 })
    expect((await read(strict, 'late')).finding!.sla.dueAt).toBe(NOW + 7 * DAY_MS)
  })

  it('takes the KEV deadline from those who manage companies, refusing a company admin and days out of range', async () => {
    const person = async (level: number, companies: string[]) => {
      const client = connectCallableClient(`vuln-intel-${level}`)
      clients.push(client)
      const claims = tokenClaims(level)
      const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
      await admin.db
        .doc(userAccessPath(uid))
        .set({ claims, companies, servicesEnabled: [], servicesManaged: [], email: storedEmail(email) })
      return client
    }
    const [senior, companyAdmin] = await Promise.all([person(LEVEL.seniorAnalyst, []), person(LEVEL.companyAdmin, [GLOBEX])])
    const stored = async () => kevSlaDaysOf((await admin.db.doc(companyPath(GLOBEX)).get()).data())
    expect(await callByName(senior, 'updateCompany', { company: GLOBEX, kevSlaDays: 14 })).toEqual({ changed: true })
    expect(await stored()).toBe(14)
    expect(await callByName(senior, 'updateCompany', { company: GLOBEX, kevSlaDays: 14 })).toEqual({ changed: false })
    await expectCallableError(callByName(companyAdmin, 'updateCompany', { company: GLOBEX, kevSlaDays: 3 }), 'permission-denied')
    await expectCallableError(callByName(senior, 'updateCompany', { company: GLOBEX, kevSlaDays: 0 }), 'invalid-argument')
    expect(await callByName(senior, 'updateCompany', { company: GLOBEX, kevSlaDays: null })).toEqual({ changed: true })
    expect(await stored()).toBeNull()
  })

  it('refuses a broken feed before writing anything, saying which feed and why', async () => {
    await store(ACME, { fresh: withCveIds(['CVE-2024-3400']) })
    const before = await read(ACME, 'fresh')
    await expect(refreshVulnIntel(admin.db, NOW, { kevUrl: `${base}/kev.json`, epssUrl: `${base}/broken.csv.gz` })).rejects.toThrow(
      /^EPSS scores, line 1: the file cannot be unpacked/,
    )
    await expect(refreshVulnIntel(admin.db, NOW, { kevUrl: `${base}/missing.json`, epssUrl: `${base}/epss.csv.gz` })).rejects.toThrow(
      /^KEV catalogue, .*missing\.json: answered 404$/,
    )
    expect(await read(ACME, 'fresh')).toEqual(before)
  })
})
