// The findings an export holds: those the findings table shows for the same search (facets, text,
// order), so a download matches the screen. The table filters rows with the same rules.
import type { Finding } from '#domain/findings.ts'
import type { ExportFilters } from '#domain/report-export.ts'
import { findingRow, severityRank, sortOf, statusRank, type FindingRow, type FindingsSearch } from '../findings/findings-query'

const FACETS = ['severity', 'status', 'asset', 'tag'] as const

const slaKey = (row: FindingRow) => row.slaDaysLeft ?? Number.MAX_SAFE_INTEGER
const compareText = new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare

const comparators: Record<ReturnType<typeof sortOf>['column'], (a: FindingRow, b: FindingRow) => number> = {
  severity: (a, b) => severityRank(a.severity) - severityRank(b.severity),
  title: (a, b) => compareText(a.title, b.title),
  asset: (a, b) => compareText(a.asset, b.asset),
  status: (a, b) => statusRank(a.status) - statusRank(b.status),
  sla: (a, b) => slaKey(a) - slaKey(b),
  lastSeen: (a, b) => a.lastSeenAt - b.lastSeenAt,
}

export function filteredFindings(findings: readonly Finding[], search: FindingsSearch, now: number): Finding[] {
  const query = (search.q ?? '').trim().toLowerCase()
  const kept: { finding: Finding; row: FindingRow }[] = []
  for (const finding of findings) {
    const row = findingRow(finding, now)
    if (search.severity?.length && !search.severity.includes(row.severity)) continue
    if (search.status?.length && !search.status.includes(row.status)) continue
    if (search.asset?.length && !search.asset.includes(row.asset)) continue
    if (search.tag?.length && !row.tags.some((tag) => search.tag!.includes(tag))) continue
    if (query && !row.haystack.includes(query)) continue
    kept.push({ finding, row })
  }
  const { column, descending } = sortOf(search)
  const compare = comparators[column]
  kept.sort((a, b) => (descending ? -1 : 1) * compare(a.row, b.row))
  return kept.map((k) => k.finding)
}

/** The search's filters as the export records them (grouping and order are not filters). */
export const exportFiltersOf = (search: FindingsSearch): ExportFilters =>
  Object.fromEntries([
    ...FACETS.filter((facet) => (search[facet]?.length ?? 0) > 0).map((facet) => [facet, [...(search[facet] ?? [])]]),
    ...(search.q?.trim() ? [['q', search.q.trim()]] : []),
  ])
