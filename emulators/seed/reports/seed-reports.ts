// The demo year of reports: for every demo company and each service its switches turn on, twelve
// monthly published scans and one draft, the findings they made (in every status, with history,
// occurrences, comments and retests), assets, scan members, the service's counters and monthly
// figures, and the activity feed. Deterministic: every run writes the same documents, and removes
// report documents of the demo companies that the seed did not write.
import { Timestamp, type Firestore } from 'firebase-admin/firestore'
import { serviceEnabledFor } from '#domain/access.ts'
import { ASSETS_COLLECTION, assetPath } from '#domain/assets.ts'
import { companyActivityPath, COMPANY_ACTIVITY_COLLECTION } from '#domain/company-activity.ts'
import { companyPath } from '#domain/companies.ts'
import { findingCommentsPath } from '#domain/finding-comments.ts'
import { findingHistoryPath, storedHistoryEntry } from '#domain/finding-history.ts'
import {
  FINDINGS_COLLECTION,
  findingFromDocument,
  findingPath,
  findingsPath,
  occurrencePath,
  type StoredFinding,
} from '#domain/findings.ts'
import { storedTimes } from '#domain/stored.ts'
import { applyFindingsIndexSettings, FINDINGS_INDEX, findingSearchRecord, type FindingSearchRecord } from '#domain/findings-search.ts'
import { RETESTS_COLLECTION, retestPath } from '#domain/retests.ts'
import { DRAFT_ASSETS_COLLECTION, DRAFT_FINDINGS_COLLECTION, draftAssetsPath, draftFindingPath } from '#domain/scan-drafts.ts'
import { scanMembersPath, SCANS_COLLECTION, scanPath } from '#domain/scans.ts'
import {
  readServiceStats,
  serviceMonthPath,
  SERVICE_STATS_COLLECTION,
  serviceStatsPath,
  sumContributions,
  type ServiceStats,
} from '#domain/service-stats.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { services } from '#domain/services.ts'
import { withSlaChangeAt } from '#domain/sla.ts'
import { withoutBackgroundTriggers } from '../../firebase/triggers.ts'
import { searchEmulatorAdmin } from '../../search/admin-client.ts'
import type { SearchEmulatorConfig } from '../../search/config.ts'
import { DEMO_ACCOUNTS, DEMO_COMPANIES } from '../demo-accounts.ts'
import {
  SCALE_CHUNK,
  scaleChunk,
  scaleChunkCount,
  SCALE_COMPANY,
  SCALE_SERVICE,
  tallyScaleFindings,
  type ScaleTally,
} from './scale-findings.ts'
import { simulateService, type CompanyPeople, type MonthFigures, type Person } from './simulate.ts'
import { buildUniverse, COMPANY_PROFILES, reportsScale } from './universe.ts'
import { demoVulnIntelDocuments, withDemoIntel } from './vuln-intel.ts'

/** The collections of a company the reports seed owns. */
export const REPORT_COLLECTIONS = [
  FINDINGS_COLLECTION,
  SCANS_COLLECTION,
  RETESTS_COLLECTION,
  ASSETS_COLLECTION,
  SERVICE_STATS_COLLECTION,
  COMPANY_ACTIVITY_COLLECTION,
] as const

/** The subcollections of a scan: kept scans may hold documents the seed did not write (an import, a publication). */
export const SCAN_SUBCOLLECTIONS = ['members', DRAFT_FINDINGS_COLLECTION, DRAFT_ASSETS_COLLECTION] as const

const person = (uid: string, role: Person['role']): Person => {
  const account = DEMO_ACCOUNTS.find((a) => a.uid === uid)
  if (!account) throw new Error(`No demo account ${uid}`)
  return { uid, name: account.displayName, role }
}

/**
 * Who acts in each company: the demo accounts where they belong to it; a company without a demo
 * company admin gets one of its own (named in history only, no account).
 */
export function companyPeople(slug: string): CompanyPeople {
  const manager = person('demo-client-manager', 'manager')
  switch (slug) {
    case 'acme':
      return {
        analyst: person('demo-analyst', 'analyst'),
        manager,
        admin: person('demo-company-admin', 'company-admin'),
        viewer: person('demo-client-viewer', 'viewer'),
      }
    case 'globex':
      return {
        analyst: person('demo-analyst', 'analyst'),
        manager,
        admin: { uid: 'globex-it-director', name: 'Gustav Greene', role: 'company-admin' },
        viewer: null,
      }
    default:
      return {
        analyst: person('demo-senior-analyst', 'analyst'),
        manager,
        admin: { uid: `${slug}-it-director`, name: 'Bill Lumbergh', role: 'company-admin' },
        viewer: null,
      }
  }
}

export interface ReportDocuments {
  /** Path to data (times as epoch milliseconds), in a stable order. */
  documents: Map<string, Record<string, unknown>>
  findings: Record<string, number>
  scans: number
}

const pad = (n: number) => String(n).padStart(3, '0')

/** Every report document of the demo companies (`share` of the demo year), computed in memory. */
export async function buildReportDocuments(share = reportsScale()): Promise<ReportDocuments> {
  const documents = new Map<string, Record<string, unknown>>()
  const put = (path: string, data: object) => documents.set(path, data as Record<string, unknown>)
  const findings: Record<string, number> = {}
  let scans = 0
  for (const company of DEMO_COMPANIES) {
    const profile = COMPANY_PROFILES[company.slug]
    findings[company.slug] = 0
    if (!profile) continue
    const people = companyPeople(company.slug)
    const activity: { at: number; service: string; data: object }[] = []
    for (const { id: service } of services) {
      if (!serviceEnabledFor(company, service)) continue
      const seed = await simulateService(profile, buildUniverse(profile, service, share), people)
      const slug = company.slug
      for (const [id, finding] of seed.findings) {
        put(findingPath(slug, id), withSlaChangeAt(withDemoIntel(finding)))
        seed.history
          .get(id)
          ?.forEach((entry, n) => put(`${findingHistoryPath(slug, id)}/${pad(n + 1)}`, storedHistoryEntry(slug, service, id, entry)))
        for (const [scanId, occurrence] of seed.occurrences.get(id) ?? []) put(occurrencePath(slug, id, scanId), occurrence)
        seed.comments.get(id)?.forEach((comment, n) => put(`${findingCommentsPath(slug, id)}/${pad(n + 1)}`, comment))
      }
      for (const [id, scan] of seed.scans) {
        put(scanPath(slug, id), scan)
        seed.members.get(id)?.forEach((members, n) => put(`${scanMembersPath(slug, id)}/${n}`, members))
      }
      for (const [id, draft] of seed.draft.findings) put(draftFindingPath(slug, seed.draft.id, id), draft)
      for (const [id, asset] of seed.draft.assets) put(`${draftAssetsPath(slug, seed.draft.id)}/${id}`, asset)
      for (const [id, retest] of seed.retests) put(retestPath(slug, id), retest)
      for (const [id, asset] of seed.assets) put(assetPath(slug, id), asset)
      put(serviceStatsPath(slug, service), seed.stats)
      for (const [month, figures] of [...seed.months].sort(([a], [b]) => a.localeCompare(b)))
        put(serviceMonthPath(slug, service, month), figures)
      for (const entry of seed.activity) activity.push({ at: entry.at, service, data: entry })
      findings[slug] = (findings[slug] ?? 0) + seed.findings.size
      scans += seed.scans.size
    }
    // Activity ids sort by time, so the feed reads newest first by id as well as by time.
    activity.sort((a, b) => a.at - b.at || a.service.localeCompare(b.service))
    activity.forEach((entry, n) => {
      const stamp = new Date(entry.at)
        .toISOString()
        .replace(/[-:.TZ]/g, '')
        .slice(0, 14)
      put(`${companyActivityPath(company.slug)}/${stamp}-${String(n).padStart(5, '0')}`, entry.data)
    })
  }
  for (const [path, intel] of demoVulnIntelDocuments()) put(path, intel)
  return { documents, findings, scans }
}

/** What the scale option added to Acme's DAST (SEED_FINDINGS). */
export interface ScaleSummary {
  open: number
  closed: number
  retests: number
}

export interface ReportsSummary {
  findings: Record<string, number>
  /** Null without the scale option. */
  scale: ScaleSummary | null
  scans: number
  documents: number
  removed: number
  /** Findings put in the search index (0 when not asked to). */
  indexed: number
  milliseconds: number
}

const searchClient = (search: SearchEmulatorConfig) => searchEmulatorAdmin(search)

/** Replaces the findings index with `records` (the demo companies own every finding there). */
async function replaceFindingsIndex(search: SearchEmulatorConfig, records: FindingSearchRecord[]): Promise<number> {
  const client = searchClient(search)
  await applyFindingsIndexSettings(client)
  await client.clearObjects({ indexName: FINDINGS_INDEX })
  // Copied into plain objects: the client takes records as string-keyed maps.
  await client.saveObjects({ indexName: FINDINGS_INDEX, objects: records.map((record) => ({ ...record })), waitForTasks: true })
  return records.length
}

/** Replaces the findings index with the seeded findings. */
async function indexFindings(search: SearchEmulatorConfig, documents: ReadonlyMap<string, Record<string, unknown>>): Promise<number> {
  const records: FindingSearchRecord[] = []
  for (const [path, data] of documents) {
    const match = /^companies\/([^/]+)\/findings\/([^/]+)$/.exec(path)
    if (match) records.push(findingSearchRecord(match[1]!, { id: match[2]!, ...(data as unknown as StoredFinding) }))
  }
  return replaceFindingsIndex(search, records)
}

/** Replaces the findings index with the demo companies' findings as Firestore holds them (a snapshot just imported). */
export async function indexStoredFindings(db: Firestore, search: SearchEmulatorConfig): Promise<number> {
  const perCompany = await Promise.all(
    DEMO_COMPANIES.map(async ({ slug }) =>
      (await db.collection(findingsPath(slug)).get()).docs.flatMap((document) => {
        const finding = findingFromDocument(document.id, document.data())
        return finding ? [findingSearchRecord(slug, finding)] : []
      }),
    ),
  )
  return replaceFindingsIndex(search, perCompany.flat())
}

/** The counters of stored figures, in findingContribution's form (dotted paths), to add others to. */
function statsContribution(stats: ServiceStats): Map<string, number> {
  const out = new Map<string, number>()
  for (const group of ['open', 'byStatus', 'dueSoon', 'breached'] as const)
    for (const [key, n] of Object.entries(stats[group])) if (n) out.set(`${group}.${key}`, n)
  for (const key of ['retestsWaitingOnUs', 'retestsWaitingOnYou', 'regressions'] as const) if (stats[key]) out.set(key, stats[key])
  return out
}

/** The demo year's figures of the scale service with the scale findings' part added. */
function addScaleFigures(documents: Map<string, Record<string, unknown>>, tally: ScaleTally): void {
  const statsPath = serviceStatsPath(SCALE_COMPANY, SCALE_SERVICE)
  const demo = readServiceStats(documents.get(statsPath))
  documents.set(statsPath, {
    ...sumContributions([statsContribution(demo), tally.contribution]),
    lastScanId: demo.lastScanId,
    lastPublishedAt: demo.lastPublishedAt,
  })
  for (const [month, scale] of tally.months) {
    const path = serviceMonthPath(SCALE_COMPANY, SCALE_SERVICE, month)
    const demoMonth = documents.get(path) as MonthFigures | undefined
    const sum = (key: 'opened' | 'fixed' | 'fixedWithinSla') =>
      Object.fromEntries(SEVERITIES.map((s) => [s, (demoMonth?.[key][s] ?? 0) + scale[key][s]]))
    documents.set(path, {
      opened: sum('opened'),
      fixed: sum('fixed'),
      fixedWithinSla: sum('fixedWithinSla'),
      remediationTenths: Object.fromEntries(
        SEVERITIES.map((s) => {
          const counts = { ...demoMonth?.remediationTenths[s] }
          for (const [tenth, n] of Object.entries(scale.remediationTenths[s])) counts[tenth] = (counts[tenth] ?? 0) + n
          return [s, counts]
        }),
      ),
    })
  }
}

export interface SeedReportsOptions {
  /** Fill the findings search index too (the dev stack); tests without a search emulator leave it out. */
  search?: SearchEmulatorConfig
  /** Open findings to add to Acme's DAST, the case of a large client (SEED_FINDINGS); none by default. */
  scaleFindings?: number
  /** The share of the demo year to write (SEED_REPORTS_SCALE by default). */
  share?: number
  /** Told how the long parts get on. */
  progress?: (line: string) => void
}

/** Writes the demo reports (BulkWriter), and deletes report documents of demo companies it did not write. */
export async function seedReports(db: Firestore, options: SeedReportsOptions = {}): Promise<ReportsSummary> {
  const started = performance.now()
  const { documents, findings, scans } = await buildReportDocuments(options.share)
  const scaleOpen = options.scaleFindings ?? 0
  const people = companyPeople(SCALE_COMPANY)
  // A first pass over the scale findings: the paths to keep, and their part of the service's figures.
  const tally = scaleOpen > 0 ? await tallyScaleFindings(scaleOpen, people) : null
  if (tally) {
    addScaleFigures(documents, tally)
    options.progress?.(
      `Scale findings: ${tally.open.toLocaleString('en-GB')} open and ${tally.closed.toLocaleString('en-GB')} closed in Acme's DAST, ` +
        `planned in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
  }
  const written = (path: string) => documents.has(path) || tally?.paths.has(path) === true
  let indexed = 0
  // The findings search trigger would otherwise run once per seeded finding, for minutes; the seed
  // fills the index itself instead.
  const removed = await withoutBackgroundTriggers(async () => {
    // Unthrottled: the default ramp (500 writes a second at first) would take minutes on an emulator.
    const writer = db.bulkWriter({ throttling: false })
    writer.onWriteError((error) => error.failedAttempts < 5)
    // What an earlier run or someone's experiment left behind: top-level report documents only.
    // Ids only (an empty projection): listing documents instead makes the emulator scan every document.
    const stale = await Promise.all(
      DEMO_COMPANIES.flatMap((company) =>
        REPORT_COLLECTIONS.map(async (name) =>
          (
            await db
              .collection(`${companyPath(company.slug)}/${name}`)
              .select()
              .get()
          ).docs.map((d) => d.ref),
        ),
      ),
    )
    // Inside the scans the seed keeps (the others go whole): members, draft findings and draft assets it did not write.
    const nested = await Promise.all(
      SCAN_SUBCOLLECTIONS.map(async (name) =>
        (await db.collectionGroup(name).select().get()).docs
          .map((d) => d.ref)
          .filter((ref) => {
            const scan = ref.parent.parent
            return scan?.parent.id === SCANS_COLLECTION && documents.has(scan.path)
          }),
      ),
    )
    const deletions = [...stale.flat(), ...nested.flat()].filter((ref) => !written(ref.path))

    await Promise.all(deletions.map((ref) => db.recursiveDelete(ref, writer)))
    const set = (path: string, data: object) =>
      void writer.set(db.doc(path), storedTimes(data, Timestamp.fromMillis) as Record<string, unknown>)
    for (const [path, data] of documents) set(path, data)
    await writer.flush()
    if (options.search) indexed = await indexFindings(options.search, documents)
    // The second pass writes (and indexes) them a chunk at a time: never all of them in memory.
    const client = options.search && tally ? searchClient(options.search) : null
    const chunks = scaleChunkCount(scaleOpen)
    for (let index = 0; index < chunks; index++) {
      const chunk = await scaleChunk(scaleOpen, index, people)
      for (const [id, finding] of chunk.findings) set(findingPath(SCALE_COMPANY, id), withSlaChangeAt(finding))
      for (const [id, retest] of chunk.retests) set(retestPath(SCALE_COMPANY, id), retest)
      await writer.flush()
      if (client) {
        const objects = chunk.findings.map(([id, finding]) => ({ ...findingSearchRecord(SCALE_COMPANY, { id, ...finding }) }))
        await client.saveObjects({ indexName: FINDINGS_INDEX, objects, waitForTasks: true })
        indexed += objects.length
      }
      const done = Math.min(scaleOpen, (index + 1) * SCALE_CHUNK)
      options.progress?.(
        `Scale findings: ${done.toLocaleString('en-GB')} of ${scaleOpen.toLocaleString('en-GB')} open (and the closed ones with them) ` +
          `written${client ? ' and indexed' : ''}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
    }
    await writer.close()
    return deletions.length
  })
  return {
    findings,
    scale: tally ? { open: tally.open, closed: tally.closed, retests: tally.retests } : null,
    scans,
    documents: documents.size + (tally?.paths.size ?? 0),
    removed,
    indexed,
    milliseconds: Math.round(performance.now() - started),
  }
}
