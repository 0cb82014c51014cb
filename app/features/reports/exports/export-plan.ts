// How an export reads its findings from the database: page by page, in an order the indexes serve
// (service, status [, severity], last seen descending), and what it still checks in the browser.
// The table's own order is kept when the database can serve it in pages (by severity or status,
// each one query after another, or most recently seen first); otherwise the export says so and
// comes most severe first. Nothing is loaded whole to be sorted.
import type { Finding, FindingStatus } from '#domain/findings.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import { findingFilter, loadedStatuses, sortOf, statusRank } from '../findings/findings-query'
import type { FindingSortColumn, FindingsSearch } from '../findings/findings-search-params'

/** One query: the service's findings in these statuses (and of this severity), most recently seen first. */
export interface ExportSegment {
  statuses: readonly FindingStatus[]
  severity?: Severity
}

export interface ExportPlan {
  segments: ExportSegment[]
  /** The export's order, in words. */
  order: string
  /** Why the table's order is not the export's, when it is not. */
  orderNote: string | null
  /** Whether the database's count is the export's count (no filter is left for the browser). */
  exactCount: boolean
  /** The filters the queries leave to the browser (text, assets, tags, several severities), as the table's index applies them. */
  keep: (finding: Finding) => boolean
}

const ORDER_WORDS = {
  severity: 'Most severe first, then most recently seen',
  '-severity': 'Least severe first, then most recently seen',
  status: 'By status in the workflow’s order, then most recently seen',
  '-status': 'By status, the workflow’s last first, then most recently seen',
  '-lastSeen': 'Most recently seen first',
} as const

const COLUMN_WORDS: Record<FindingSortColumn, string> = {
  severity: 'severity',
  title: 'title',
  asset: 'asset',
  status: 'status',
  sla: 'SLA',
  lastSeen: 'last seen',
  epss: 'EPSS',
}

export function exportPlan(search: FindingsSearch): ExportPlan {
  const statuses = loadedStatuses(search)
  const severities = search.severity?.length ? SEVERITIES.filter((s) => search.severity!.includes(s)) : null
  const { column, descending } = sortOf(search)
  const key = `${descending ? '-' : ''}${column}`
  const served = key in ORDER_WORDS ? (key as keyof typeof ORDER_WORDS) : 'severity'
  // One severity asked for: every query names it. Several, outside the severity order: the browser checks.
  const single = severities?.length === 1 ? { severity: severities[0]! } : {}
  let segments: ExportSegment[]
  let severityServed: boolean
  if (served === 'severity' || served === '-severity') {
    const order = severities ?? SEVERITIES
    segments = (served === 'severity' ? order : [...order].reverse()).map((severity) => ({ statuses, severity }))
    severityServed = true
  } else if (served === 'status' || served === '-status') {
    const order = [...statuses].sort((a, b) => statusRank(a) - statusRank(b))
    segments = (served === 'status' ? order : order.reverse()).map((status) => ({ statuses: [status], ...single }))
    severityServed = !severities || severities.length === 1
  } else {
    segments = [{ statuses, ...single }]
    severityServed = !severities || severities.length === 1
  }
  const rest: FindingsSearch = {
    ...(severityServed ? {} : { severity: search.severity }),
    asset: search.asset,
    tag: search.tag,
    kev: search.kev,
    q: search.q,
  }
  const exactCount = severityServed && !search.asset?.length && !search.tag?.length && !search.kev && !(search.q ?? '').trim()
  return {
    segments,
    order: ORDER_WORDS[served],
    orderNote:
      served === key
        ? null
        : `Ordering by ${COLUMN_WORDS[column]} cannot be kept while the export reads page by page: it comes most severe first.`,
    exactCount,
    keep: exactCount ? () => true : findingFilter(rest),
  }
}
