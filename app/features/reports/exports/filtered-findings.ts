// The search's filters as an export records them (JSON, PDF cover): the facets and the text, not
// the grouping or the order. Which findings an export holds is export-plan.ts's to say.
import type { ExportFilters } from '#domain/report-export.ts'
import { type FindingsSearch } from '../findings/findings-search-params'

const FACETS = ['severity', 'status', 'asset', 'tag'] as const

/** The search's filters as the export records them (grouping and order are not filters). */
export const exportFiltersOf = (search: FindingsSearch): ExportFilters =>
  Object.fromEntries([
    ...FACETS.filter((facet) => (search[facet]?.length ?? 0) > 0).map((facet) => [facet, [...(search[facet] ?? [])]]),
    ...(search.q?.trim() ? [['q', search.q.trim()]] : []),
  ])
