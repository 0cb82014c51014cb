// The report pages' first paint: the same figures the listeners follow, read at the edge through
// Firestore REST with the signed-in user's own token, so the rules decide exactly as in the browser.
import { scanFromDocument, scansPath, type Scan } from '#domain/scans.ts'
import { readServiceMonth, readServiceStats, serviceMonthPath, serviceStatsPath } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { runStructuredQuery } from '~/server/firestore-rest'
import type { PublicConfig } from '~/core/session'
import { firestoreReader } from '~/server/firestore-rest.server'
import {
  monthFigures,
  MONTHS_SHOWN,
  OVERVIEW_SCANS,
  recentMonths,
  scanSummary,
  SCANS_SHOWN,
  type OverviewData,
  type ServiceReportData,
} from './report-data'

type Config = Pick<PublicConfig, 'projectId' | 'emulators'>

async function publishedScans(config: Config, idToken: string, company: string, service: ServiceId, count: number): Promise<Scan[]> {
  const slash = scansPath(company).lastIndexOf('/')
  const rows = await runStructuredQuery(
    config,
    idToken,
    {
      parent: scansPath(company).slice(0, slash),
      collectionId: scansPath(company).slice(slash + 1),
      filters: [
        { field: 'service', op: 'EQUAL', value: { stringValue: service } },
        { field: 'state', op: 'EQUAL', value: { stringValue: 'published' } },
      ],
      orderBy: [{ field: 'publishedAt', direction: 'DESCENDING' }],
      limit: count,
    },
    AbortSignal.timeout(5_000),
  )
  return rows.map((row) => scanFromDocument(row.id, row.data)).filter((scan): scan is Scan => scan !== null)
}

/** The overview's figures and latest scans of each service the person may see. */
export async function readOverview(
  config: Config,
  idToken: string,
  company: string,
  visible: readonly { service: ServiceId; results: boolean }[],
): Promise<OverviewData> {
  const reader = firestoreReader(config, idToken)
  // Every service's figures in one read, beside each service's query.
  const [stats, ...scans] = await Promise.all([
    reader.getAll(visible.map(({ service }) => serviceStatsPath(company, service))),
    ...visible.map(({ service }) => publishedScans(config, idToken, company, service, OVERVIEW_SCANS)),
  ])
  return {
    company,
    services: visible.map(({ service, results }, i) => ({
      service,
      results,
      stats: readServiceStats(stats[i]),
      scans: scans[i]!.map(scanSummary),
    })),
  }
}

/** One service's figures, published scans and monthly remediation. */
export async function readServiceReport(config: Config, idToken: string, company: string, service: ServiceId): Promise<ServiceReportData> {
  const reader = firestoreReader(config, idToken)
  const months = recentMonths(Date.now(), MONTHS_SHOWN)
  // The figures and the monthly documents in one read, beside the query.
  const [[stats, ...monthly], scans] = await Promise.all([
    reader.getAll([serviceStatsPath(company, service), ...months.map((month) => serviceMonthPath(company, service, month))]),
    // One more than shown: it tells that older scans exist.
    publishedScans(config, idToken, company, service, SCANS_SHOWN + 1),
  ])
  return {
    company,
    service,
    stats: readServiceStats(stats),
    scans: scans.slice(0, SCANS_SHOWN),
    moreScans: scans.length > SCANS_SHOWN,
    months: months.map((month, i) => monthFigures(readServiceMonth(month, monthly[i]))),
  }
}
