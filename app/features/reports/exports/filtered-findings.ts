// The findings an export holds: those the findings table shows for the same search (facets, text,
// order), so a download matches the screen: the same rules (findings-query.ts) filter and sort both.
import type { Finding } from '#domain/findings.ts'
import type { ExportFilters } from '#domain/report-export.ts'
import { findingRow, matchesSearch, rowComparators, sortOf } from '../findings/findings-query'
import { type FindingsSearch } from '../findings/findings-search-params'

const FACETS = ['severity', 'status', 'asset', 'tag'] as const

export function filteredFindings(findings: readonly Finding[], search: FindingsSearch, now: number): Finding[] {
  const kept = findings.map((finding) => ({ finding, row: findingRow(finding, now) })).filter(({ row }) => matchesSearch(row, search))
  const { column, descending } = sortOf(search)
  const compare = rowComparators[column]
  kept.sort((a, b) => (descending ? -1 : 1) * compare(a.row, b.row))
  return kept.map((k) => k.finding)
}

/** The search's filters as the export records them (grouping and order are not filters). */
export const exportFiltersOf = (search: FindingsSearch): ExportFilters =>
  Object.fromEntries([
    ...FACETS.filter((facet) => (search[facet]?.length ?? 0) > 0).map((facet) => [facet, [...(search[facet] ?? [])]]),
    ...(search.q?.trim() ? [['q', search.q.trim()]] : []),
  ])
