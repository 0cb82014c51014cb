// The findings table's state in the address bar: filters as repeated keys, the search text, the
// grouping and the order. Apart from the rest of the table's query so the route checks its address
// without loading the table.
import * as v from 'valibot'
import { FINDING_STATUSES } from '#domain/finding-statuses.ts'
import { FINDING_SORTS } from '#domain/finding-sorts.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { listParam } from '~/core/search-params'

export const FINDING_GROUPS = ['title', 'asset'] as const
export type FindingGroup = (typeof FINDING_GROUPS)[number]

export { FINDING_SORT_COLUMNS, type FindingSortColumn } from '#domain/finding-sorts.ts'

const text = (max: number) => v.pipe(v.string(), v.maxLength(max))

export const FindingsSearchSchema = v.object({
  severity: listParam(v.picklist(SEVERITIES), SEVERITIES.length),
  status: listParam(v.picklist(FINDING_STATUSES), FINDING_STATUSES.length),
  asset: listParam(text(500)),
  tag: listParam(text(100)),
  // Only the findings with a CVE known to be exploited.
  kev: v.fallback(v.optional(v.literal(true)), undefined),
  q: v.fallback(v.optional(text(200)), undefined),
  group: v.fallback(v.optional(v.picklist(FINDING_GROUPS)), undefined),
  // `severity` sorts most severe first; `-severity` the other way round.
  sort: v.fallback(v.optional(v.picklist(FINDING_SORTS)), undefined),
})

export type FindingsSearch = v.InferOutput<typeof FindingsSearchSchema>
export type FindingsFacet = 'severity' | 'status' | 'asset' | 'tag'

/** Whether the address narrows the findings (a search, a filter or a grouping), not only orders them. */
export const hasFindingFilters = (search: FindingsSearch): boolean =>
  Boolean(
    search.severity?.length ||
    search.status?.length ||
    search.asset?.length ||
    search.tag?.length ||
    search.kev ||
    search.q ||
    search.group,
  )
