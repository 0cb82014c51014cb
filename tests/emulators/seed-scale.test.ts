// The seed's option for a large client (SEED_FINDINGS): open findings added to Acme's DAST through
// the demo year's seed, with the service's figures equal to a recount of its findings and retests,
// every finding in the search index as the product indexes it, and a rerun writing the same documents.
// A small demo year (2 %) and 2,000 open findings: the same code as 100,000, in chunks. That the
// findings go again when the option is left out is the reports seed's own removal of what it did
// not write (seed-reports.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DocumentData } from 'firebase-admin/firestore'
import { findingFromDocument, findingsPath, isOpenStatus, OPEN_STATUSES, type Finding } from '#domain/findings.ts'
import { FINDINGS_INDEX, findingObjectID, findingSearchRecord } from '#domain/findings-search.ts'
import { retestFromDocument, retestsPath } from '#domain/retests.ts'
import {
  findingContribution,
  readServiceMonth,
  readServiceStats,
  retestContribution,
  serviceStatsPath,
  sumContributions,
} from '#domain/service-stats.ts'
import { monthKey } from '#domain/sla.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { SEARCH_EMULATOR_DEFAULTS } from '../../emulators/search/config.ts'
import { SCALE_COMPANY, SCALE_SERVICE, scaleFindingsFromEnv } from '../../emulators/seed/reports/scale-findings.ts'
import {
  buildReportDocuments,
  seedReports,
  type ReportsSummary,
  type SeedReportsOptions,
} from '../../emulators/seed/reports/seed-reports.ts'
import { clearEmulators } from './emulator-data.ts'
import { searchAdmin } from './template-fixtures.ts'

const OPEN = 2_000
const OPTIONS: SeedReportsOptions = { share: 0.02, scaleFindings: OPEN, search: SEARCH_EMULATOR_DEFAULTS }
const SLOW = 120_000

/** Acme's DAST as stored: findings, retests, the service's figures and months, path to data. */
async function serviceState(db: AdminClients['db']): Promise<Map<string, DocumentData>> {
  const snapshots = await Promise.all([
    db.collection(findingsPath(SCALE_COMPANY)).where('service', '==', SCALE_SERVICE).get(),
    db.collection(retestsPath(SCALE_COMPANY)).where('service', '==', SCALE_SERVICE).get(),
    db.collection(`${serviceStatsPath(SCALE_COMPANY, SCALE_SERVICE)}/months`).get(),
  ])
  const state = new Map<string, DocumentData>()
  for (const snapshot of snapshots) for (const doc of snapshot.docs) state.set(doc.ref.path, doc.data())
  const stats = await db.doc(serviceStatsPath(SCALE_COMPANY, SCALE_SERVICE)).get()
  state.set(stats.ref.path, stats.data()!)
  return state
}

const findingsOf = (state: Map<string, DocumentData>): Finding[] =>
  [...state]
    .filter(([path]) => path.startsWith(`${findingsPath(SCALE_COMPANY)}/`))
    .map(([path, data]) => {
      const finding = findingFromDocument(path.split('/').at(-1)!, data)
      if (!finding) throw new Error(`${path} is not a readable finding`)
      return finding
    })

describe('seed option for a large client (SEED_FINDINGS)', () => {
  let clients: AdminClients
  let first: ReportsSummary
  let state: Map<string, DocumentData>
  let findings: Finding[]
  const demoOnly = new Map<string, number>()

  beforeAll(async () => {
    await clearEmulators()
    clients = connectToEmulators()
    // The same small demo year without the option, in memory: what the option adds is the difference.
    const { documents } = await buildReportDocuments(OPTIONS.share)
    for (const [path, data] of documents)
      if (
        /^companies\/[^/]+\/findings\/[^/]+$/.test(path) &&
        path.startsWith(`${findingsPath(SCALE_COMPANY)}/`) &&
        data.service === SCALE_SERVICE
      )
        demoOnly.set(String(data.status), (demoOnly.get(String(data.status)) ?? 0) + 1)
    const lines: string[] = []
    first = await seedReports(clients.db, { ...OPTIONS, progress: (line) => lines.push(line) })
    expect(lines.at(-1)).toMatch(/^Scale findings: 2,000 of 2,000 open .* written and indexed/)
    state = await serviceState(clients.db)
    findings = findingsOf(state)
  }, SLOW)

  afterAll(async () => {
    await disconnect(clients)
  })

  it('reads the count from SEED_FINDINGS and refuses anything but a whole number up to a million', () => {
    expect(scaleFindingsFromEnv({})).toBe(0)
    expect(scaleFindingsFromEnv({ SEED_FINDINGS: ' 100000 ' })).toBe(100_000)
    for (const bad of ['-1', '1e5', '10k', '2000000', '1.5'])
      expect(() => scaleFindingsFromEnv({ SEED_FINDINGS: bad }), bad).toThrow(/SEED_FINDINGS/)
  })

  it('adds that many open findings to Acme’s DAST, a twentieth as many closed, in a realistic mix', () => {
    const demoOpen = OPEN_STATUSES.reduce((n, s) => n + (demoOnly.get(s) ?? 0), 0)
    const demoTotal = [...demoOnly.values()].reduce((a, b) => a + b, 0)
    expect(first.scale).toEqual({ open: OPEN, closed: OPEN / 20, retests: expect.any(Number) })
    expect(findings.filter((f) => isOpenStatus(f.status))).toHaveLength(demoOpen + OPEN)
    expect(findings).toHaveLength(demoTotal + OPEN + OPEN / 20)
    const added = findings.filter((f) => f.asset.includes('.apps.acme.example'))
    expect(added).toHaveLength(OPEN + OPEN / 20)
    expect(new Set(added.map((f) => f.severity))).toEqual(new Set(SEVERITIES))
    expect(new Set(added.filter((f) => isOpenStatus(f.status)).map((f) => f.status))).toEqual(new Set(OPEN_STATUSES))
    expect(new Set(added.map((f) => monthKey(f.lastSeenAt))).size).toBeGreaterThanOrEqual(10)
    expect(new Set(added.map((f) => f.asset)).size).toBeGreaterThan(OPEN / 2)
    expect(added.every((f) => f.sla.startedAt === f.publishedAt && f.tags.length > 0)).toBe(true)
    const clocks = new Set(added.map((f) => f.slaState))
    for (const state of ['ok', 'due_soon', 'breached', 'paused', 'none'] as const) expect(clocks.has(state), state).toBe(true)
  })

  it('keeps the service’s figures equal to a recount of its findings and retests', () => {
    const retests = [...state]
      .filter(([path]) => path.startsWith(`${retestsPath(SCALE_COMPANY)}/`))
      .map(([path, data]) => retestFromDocument(path.split('/').at(-1)!, data)!)
    expect(retests.filter((r) => r.state === 'requested').length).toBeGreaterThan(0)
    const stored = readServiceStats(state.get(serviceStatsPath(SCALE_COMPANY, SCALE_SERVICE)))
    const recount = sumContributions([...findings.map(findingContribution), ...retests.map(retestContribution)])
    expect({ ...stored, lastScanId: null, lastPublishedAt: null }).toEqual(recount)
    // Each finding opened once, in the month a client first saw it.
    const opened = new Map<string, number>()
    for (const f of findings)
      opened.set(`${monthKey(f.publishedAt)}/${f.severity}`, (opened.get(`${monthKey(f.publishedAt)}/${f.severity}`) ?? 0) + 1)
    const months = [...state].filter(([path]) => path.includes('/months/'))
    let total = 0
    for (const [path, data] of months) {
      const month = readServiceMonth(path.split('/').at(-1)!, data)
      for (const severity of SEVERITIES) {
        expect(month.opened[severity], `${month.month} ${severity}`).toBe(opened.get(`${month.month}/${severity}`) ?? 0)
        total += month.opened[severity]
      }
    }
    expect(total).toBe(findings.length)
  })

  it('puts every finding of the service in the search index, as the product indexes it', async () => {
    const search = searchAdmin()
    const { nbHits } = await search.searchSingleIndex({
      indexName: FINDINGS_INDEX,
      searchParams: { query: '', filters: `company:${SCALE_COMPANY} AND service:${SCALE_SERVICE}`, hitsPerPage: 0 },
    })
    expect(nbHits).toBe(findings.length)
    for (let start = 0; start < findings.length; start += 1000) {
      const batch = findings.slice(start, start + 1000)
      const { results } = await search.getObjects({
        requests: batch.map((f) => ({ indexName: FINDINGS_INDEX, objectID: findingObjectID(SCALE_COMPANY, f.id) })),
      })
      expect(results).toEqual(batch.map((f) => findingSearchRecord(SCALE_COMPANY, f)))
    }
  })

  it(
    'writes the same documents when run again',
    async () => {
      const again = await seedReports(clients.db, OPTIONS)
      expect(again.removed).toBe(0)
      expect(again.documents).toBe(first.documents)
      expect(await serviceState(clients.db)).toEqual(state)
    },
    SLOW,
  )
})
