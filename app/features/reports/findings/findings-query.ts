// The findings table's state in the address bar (filters as repeated keys, the search text, the
// grouping and the order), and each finding as a table row with its SLA worked out at a moment;
// the exports filter the findings they read with the same rules as the index (findingFilter).
import { FINDING_STATUSES, type Finding, type FindingStatus } from '#domain/findings.ts'
import { findingTextMatcher, queriedStatuses, type FindingRowHit } from '#domain/findings-search.ts'
import { slaDaysLeft, slaStateAt, slaText as slaWords } from '#domain/sla.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import { type FindingSortColumn, type FindingsFacet, type FindingsSearch } from './findings-search-params'

/** The statuses the table and the exports cover: those the filter names, else the open ones. */
export const loadedStatuses = queriedStatuses

/** The table's default order: most severe first. */
export const DEFAULT_SORT = 'severity'

export function sortOf(search: FindingsSearch): { column: FindingSortColumn; descending: boolean } {
  const sort = search.sort ?? DEFAULT_SORT
  return sort.startsWith('-')
    ? { column: sort.slice(1) as FindingSortColumn, descending: true }
    : { column: sort as FindingSortColumn, descending: false }
}

/** The search with `value` added to or taken from the facet's list. */
export function toggleFacet(search: FindingsSearch, facet: FindingsFacet, value: string): FindingsSearch {
  const current: string[] = search[facet] ?? []
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value]
  return { ...search, [facet]: next.length > 0 ? next : undefined }
}

/** Severity as a rank: critical 0 … info 4, so ascending reads most severe first. */
export const severityRank = (severity: Severity) => SEVERITIES.indexOf(severity)
/** Status in the workflow's order. */
export const statusRank = (status: FindingStatus) => FINDING_STATUSES.indexOf(status)

export interface FindingRow {
  id: string
  title: string
  severity: Severity
  asset: string
  status: FindingStatus
  tags: string[]
  regression: boolean
  lastSeenAt: number
  slaState: 'none' | 'ok' | 'due_soon' | 'breached' | 'paused'
  /** Whole days left (negative once breached); null without a deadline or once closed. */
  slaDaysLeft: number | null
  /** A CVE of it is known to be exploited (KEV); its CVEs' highest EPSS score, null without one. */
  kev: boolean
  epss: number | null
}

/** A finding as a row, its SLA at `now` (closed findings have none). */
export const findingRow = (finding: Finding, now: number): FindingRow =>
  hitRow(
    {
      ...finding,
      findingId: finding.id,
      closedAt: finding.closedAt ?? null,
      kev: finding.intel?.kev ?? false,
      epss: finding.intel?.epss ?? null,
      epssPercentile: finding.intel?.epssPercentile ?? null,
    },
    now,
  )

/** A search hit as a row of the table (records indexed before the intelligence carry none of it). */
export function hitRow(hit: Omit<FindingRowHit, 'kev' | 'epss'> & Partial<Pick<FindingRowHit, 'kev' | 'epss'>>, now: number): FindingRow {
  const closed = hit.closedAt !== null
  const clock = { startedAt: hit.sla.startedAt, dueAt: hit.sla.dueAt, pausedAt: hit.sla.pausedAt ?? null }
  return {
    id: hit.findingId,
    title: hit.title,
    severity: hit.severity,
    asset: hit.asset,
    status: hit.status,
    tags: hit.tags,
    regression: hit.regression,
    lastSeenAt: hit.lastSeenAt,
    slaState: closed ? 'none' : slaStateAt(clock, now),
    slaDaysLeft: closed ? null : slaDaysLeft(clock, now),
    kev: hit.kev ?? false,
    epss: hit.epss ?? null,
  }
}

/** How an SLA reads in a cell: its state and the days left or over. */
export const slaText = (row: Pick<FindingRow, 'slaState' | 'slaDaysLeft'>): string => slaWords(row.slaState, row.slaDaysLeft)

/**
 * Which findings pass the search's facets and text, as the index answers the table (the text by
 * `findingTextMatcher`, the index's own rule): the exports hold those that do.
 */
export function findingFilter(search: FindingsSearch): (finding: Finding) => boolean {
  const matchesText = findingTextMatcher(search.q ?? '')
  return (finding) => {
    if (search.severity?.length && !search.severity.includes(finding.severity)) return false
    if (search.status?.length && !search.status.includes(finding.status)) return false
    if (search.asset?.length && !search.asset.includes(finding.asset)) return false
    if (search.tag?.length && !finding.tags.some((tag) => search.tag!.includes(tag))) return false
    if (search.kev && !finding.intel?.kev) return false
    return matchesText(finding)
  }
}
