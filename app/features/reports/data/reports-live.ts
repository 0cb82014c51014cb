// The report pages' live data in the browser, one listener per stored collection the pages read.
// Loaded with `import()` (Firestore SDK). Every scans query names one service: the rules answer
// per service (stats or results).
import { collection, doc, documentId, getDoc, getDocsFromServer, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import * as v from 'valibot'
import { companyActivityFromDocument, companyActivityPath, type CompanyActivity } from '#domain/company-activity.ts'
import { FINDING_IDS_PER_READ, findingsPath } from '#domain/findings.ts'
import { compareScans, reopenCandidates, type ComparedScan, type ScanComparison } from '#domain/scan-comparison.ts'
import type { ComparedFindingDetails } from '#domain/scan-comparison-export.ts'
import { scanFromDocument, scanMembersFromDocument, scanMembersPath, scansPath, type Scan, type ScanMembers } from '#domain/scans.ts'
import {
  readServiceMonth,
  readServiceStats,
  serviceMonthPath,
  serviceStatsPath,
  type ServiceMonth,
  type ServiceStats,
} from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { TimestampSchema } from '#domain/stored.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { withinDeadline } from '~/core/read-deadline'
import {
  monthFigures,
  MONTHS_SHOWN,
  monthsToFollow,
  OVERVIEW_SCANS,
  recentMonths,
  scanSummary,
  SCANS_SHOWN,
  type MonthFigures,
  type OverviewData,
  type ServiceReportLive,
} from './report-data'
import { combine } from '~/core/combine'
import { sharedWatch } from '~/core/shared-watch'
import { watchDocument, watchQuery } from '~/core/watch-query'

/**
 * A document whose absence the collection's module reads as a value (zeros): absent only once the
 * server says so, never because the cache alone holds nothing while the database is out of reach.
 */
const watchFigures =
  <T>(path: string, read: (data: unknown) => T): Watch<T> =>
  (next, fail) =>
    watchDocument(path, (_id, data) => ({ figures: read(data) }))((value) => next((value ?? { figures: read(undefined) }).figures), fail)

/** The live figures of one service (an absent document is all zeros). */
export const watchServiceStats = (company: string, service: ServiceId): Watch<ServiceStats> =>
  watchFigures(serviceStatsPath(company, service), readServiceStats)

/** One month's remediation figures (a month without figures is zeros). */
const watchServiceMonth = (company: string, service: ServiceId, month: string): Watch<ServiceMonth> =>
  watchFigures(serviceMonthPath(company, service, month), (data) => readServiceMonth(month, data))

/** The monthly figures, whole, read once: the PDF's time to remediate over all the months shown. */
export async function readServiceMonths(company: string, service: ServiceId, count = MONTHS_SHOWN): Promise<ServiceMonth[]> {
  const months = recentMonths(Date.now(), count)
  const snapshots = await withinDeadline(
    Promise.all(months.map((month) => getDoc(doc(firestore(), serviceMonthPath(company, service, month))))),
  )
  return months.map((month, i) => readServiceMonth(month, snapshots[i]!.data()))
}

/** Published scans of one service, newest first. */
export const watchPublishedScans = (company: string, service: ServiceId, count = SCANS_SHOWN): Watch<Scan[]> =>
  watchQuery(
    scansPath(company),
    scanFromDocument,
    where('service', '==', service),
    where('state', '==', 'published'),
    orderBy('publishedAt', 'desc'),
    limit(count),
  )

/** Which findings and assets a scan saw, over all its member documents (results only). */
export const watchScanMembers =
  (company: string, scanId: string): Watch<ScanMembers> =>
  (next, fail) =>
    onSnapshot(
      collection(firestore(), scanMembersPath(company, scanId)),
      (snapshot) => {
        const members: ScanMembers = { findings: [], assets: [] }
        for (const d of snapshot.docs) {
          const part = scanMembersFromDocument(d.data())
          members.findings.push(...part.findings)
          members.assets.push(...part.assets)
        }
        next(members)
      },
      fail,
    )

/** Queries under way at once. */
const QUERIES_AT_ONCE = 4

export interface ComparedFindingRecord extends ComparedFindingDetails {
  firstSeenAt: number
}

/**
 * When each of these findings of the service was first seen, with its title and asset (results
 * only: the query names the service, as the rules ask). Absent findings are left out. Read from the
 * server: what the cache lacks would pass a reopened finding off as new.
 */
export async function readComparedFindings(
  company: string,
  service: ServiceId,
  ids: readonly string[],
): Promise<Map<string, ComparedFindingRecord>> {
  const out = new Map<string, ComparedFindingRecord>()
  const chunks: string[][] = []
  for (let i = 0; i < ids.length; i += FINDING_IDS_PER_READ) chunks.push(ids.slice(i, i + FINDING_IDS_PER_READ))
  let next = 0
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!
      const snapshot = await withinDeadline(
        getDocsFromServer(
          query(collection(firestore(), findingsPath(company)), where('service', '==', service), where(documentId(), 'in', chunk)),
        ),
      )
      for (const d of snapshot.docs) {
        const at = v.safeParse(TimestampSchema, d.get('firstSeenAt'))
        if (!at.success) continue
        out.set(d.id, { firstSeenAt: at.output, title: String(d.get('title') ?? ''), asset: String(d.get('asset') ?? '') })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(QUERIES_AT_ONCE, chunks.length) }, worker))
  return out
}

export interface ComparisonData {
  comparison: ScanComparison
  /** The findings in the target and not in the base (new or reopened), as read. */
  details: ReadonlyMap<string, ComparedFindingRecord>
}

/**
 * Two scans compared, live with their members. The findings that only the target saw are read
 * once each, for when they were first seen: that alone tells reopened from new.
 */
export const watchComparison =
  (company: string, service: ServiceId, base: ComparedScan['scan'], target: ComparedScan['scan']): Watch<ComparisonData> =>
  (next, fail) => {
    const details = new Map<string, ComparedFindingRecord>()
    const asked = new Set<string>()
    let stopped = false
    let latest = 0
    const stop = combine({ base: watchScanMembers(company, base.id), target: watchScanMembers(company, target.id) }, (parts) => parts)(
      (members) => {
        const round = ++latest
        const missing = reopenCandidates(members.base, members.target).filter((id) => !asked.has(id))
        readComparedFindings(company, service, missing).then(
          (read) => {
            missing.forEach((id) => asked.add(id))
            read.forEach((record, id) => details.set(id, record))
            if (stopped || round !== latest) return
            const firstSeen = new Map([...details].map(([id, record]) => [id, record.firstSeenAt]))
            const comparison = compareScans({ scan: base, members: members.base }, { scan: target, members: members.target }, firstSeen)
            next({ comparison, details })
          },
          (error: Error) => {
            if (!stopped) fail(error)
          },
        )
      },
      fail,
    )
    return () => {
      stopped = true
      stop()
    }
  }

/** What happened in one service of the company, newest first. */
export const watchCompanyActivity = (company: string, service: ServiceId, count = 10): Watch<CompanyActivity[]> =>
  watchQuery(
    companyActivityPath(company),
    companyActivityFromDocument,
    where('service', '==', service),
    orderBy('at', 'desc'),
    limit(count),
  )

/** The overview: figures and latest scans of each service the person may see. */
export const watchOverview = (company: string, visible: readonly { service: ServiceId; results: boolean }[]): Watch<OverviewData> =>
  combine(
    Object.fromEntries(
      visible.flatMap(({ service }) => [
        [`stats:${service}`, watchServiceStats(company, service)],
        [`scans:${service}`, watchPublishedScans(company, service, OVERVIEW_SCANS)],
      ]),
    ),
    (parts) => ({
      company,
      services: visible.map(({ service, results }) => ({
        service,
        results,
        stats: parts[`stats:${service}`] as ServiceStats,
        scans: (parts[`scans:${service}`] as Scan[]).map(scanSummary),
      })),
    }),
  )

/** One service's report: its figures and published scans. */
export const watchServiceReport = (company: string, service: ServiceId): Watch<ServiceReportLive> =>
  // The report and its export menu follow the same figures.
  sharedWatch(
    `service-report/${company}/${service}`,
    // One more scan than shown: it tells that older ones exist.
    combine({ stats: watchServiceStats(company, service), scans: watchPublishedScans(company, service, SCANS_SHOWN + 1) }, (parts) => ({
      company,
      service,
      stats: parts.stats,
      scans: parts.scans.slice(0, SCANS_SHOWN),
      moreScans: parts.scans.length > SCANS_SHOWN,
    })),
  )

/**
 * One service's monthly remediation figures of the months shown, oldest first. With the edge's
 * first paint, only the months that can still change are read and followed; past ones keep the
 * first paint's figures (ten document reads fewer a page view).
 */
export const watchServiceMonthFigures = (
  company: string,
  service: ServiceId,
  firstPaint?: readonly MonthFigures[],
): Watch<MonthFigures[]> => {
  const months = recentMonths(Date.now(), MONTHS_SHOWN)
  const known = new Map((firstPaint ?? []).map((figures) => [figures.month, figures]))
  const followed = monthsToFollow(months, firstPaint)
  return combine(Object.fromEntries(followed.map((month) => [month, watchServiceMonth(company, service, month)])), (parts) =>
    months.map((month) => {
      const live = parts[month]
      return live ? monthFigures(live) : known.get(month)!
    }),
  )
}

/** Recent activity of the visible services, newest first. */
export const watchActivity = (company: string, visible: readonly ServiceId[], count = 8): Watch<CompanyActivity[]> =>
  combine(Object.fromEntries(visible.map((service) => [service, watchCompanyActivity(company, service, count)])), (parts) =>
    Object.values(parts)
      .flat()
      .sort((a, b) => b.at - a.at)
      .slice(0, count),
  )
