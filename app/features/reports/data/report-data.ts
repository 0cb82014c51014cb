// What the report pages show, in the shape both the edge's first read and the live listeners give.
// Pure: imported by pages, listeners and the edge alike.
import { canViewReport, canViewResults, type Access, type CompanyFlags } from '#domain/access.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceMonth, ServiceStats } from '#domain/service-stats.ts'
import { services, type ServiceId } from '#domain/services.ts'
import { summariseRemediation, type RemediationSummary } from '#domain/sla.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'

/** Published scans kept for the scan picker: a year of monthly scans and more. */
export const SCANS_SHOWN = 24
/** Scans each overview tile reads: the latest, and the one before for the trend. */
export const OVERVIEW_SCANS = 3
/** Months of remediation figures shown. */
export const MONTHS_SHOWN = 12

/** What the overview shows of a published scan: its tile's trend and date, and the latest-scans list. */
export type ScanSummary = Pick<Scan, 'id' | 'service' | 'title' | 'startedAt' | 'publishedAt' | 'previousScanId' | 'counts' | 'side'>

/** Only the summary goes into the overview's first paint and state, not the whole scan document. */
export const scanSummary = ({ id, service, title, startedAt, publishedAt, previousScanId, counts, side }: Scan): ScanSummary => ({
  id,
  service,
  title,
  startedAt,
  publishedAt,
  previousScanId,
  counts,
  side,
})

/**
 * A month's remediation as the page shows it: each severity's count, mean and median days. The
 * stored month counts fixes per tenth of a day; the page's first paint and state keep the summary.
 */
export type MonthFigures = Omit<ServiceMonth, 'remediationTenths'> & { remediation: Record<Severity, RemediationSummary> }

export const monthFigures = ({ remediationTenths, ...month }: ServiceMonth): MonthFigures => ({
  ...month,
  remediation: Object.fromEntries(SEVERITIES.map((s) => [s, summariseRemediation([remediationTenths[s]])])) as Record<
    Severity,
    RemediationSummary
  >,
})

export interface ServiceOverview {
  service: ServiceId
  results: boolean
  stats: ServiceStats
  /** Published, newest first. */
  scans: ScanSummary[]
}

export interface OverviewData {
  company: string
  services: ServiceOverview[]
}

export interface ServiceReportData {
  company: string
  service: ServiceId
  stats: ServiceStats
  /** Published, newest first: the latest SCANS_SHOWN. */
  scans: Scan[]
  /** Older published scans exist than those in `scans` (the page says so). */
  moreScans?: boolean
  /** Oldest first. */
  months: MonthFigures[]
}

/**
 * What a report page follows live from the start. The months are followed apart, once the reader
 * comes near their chart: their documents hold every fix's days, most of what a report reads.
 */
export type ServiceReportLive = Omit<ServiceReportData, 'months'>

export const reportLiveOf = ({ months: _months, ...live }: ServiceReportData): ServiceReportLive => live

/** The services whose report the person may open in this company, in the product's order. */
export const visibleServices = (access: Access | null | undefined, company: CompanyFlags | null | undefined): ServiceId[] =>
  services.filter((s) => canViewReport(access, company, s.id)).map((s) => s.id)

export const seesResults = canViewResults

/** The newest published scans of every service, newest first. */
export function latestScans(overview: readonly ServiceOverview[], count: number): ScanSummary[] {
  return overview
    .flatMap((s) => s.scans)
    .sort((a, b) => (b.publishedAt ?? b.startedAt) - (a.publishedAt ?? a.startedAt))
    .slice(0, count)
}

/**
 * Months whose figures can still change: a finding counts in the month it was published or fixed,
 * both now. The one before is followed too, for a page that came up (or was cached at the edge)
 * just before a month began.
 */
export const CHANGING_MONTHS = 2

/**
 * Of `months` (oldest first), those the chart follows live: the changing ones, and any the first
 * paint lacks; the others are kept as the first paint gave them, which costs no read.
 */
export function monthsToFollow(months: readonly string[], firstPaint: readonly MonthFigures[] | undefined): string[] {
  const known = new Set((firstPaint ?? []).map((figures) => figures.month))
  return months.filter((month, i) => i >= months.length - CHANGING_MONTHS || !known.has(month))
}

/** The last `count` months (YYYY-MM, UTC) up to `now`, oldest first. */
export function recentMonths(now: number, count: number): string[] {
  const date = new Date(now)
  const out: string[] = []
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - i, 1))
    out.push(d.toISOString().slice(0, 7))
  }
  return out
}
