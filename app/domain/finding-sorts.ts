// The orders of the findings table, apart from the index settings that serve them
// (findings-search.ts): the report's route checks its address with these alone, so nothing heavier
// comes into the first load of every page.

/** The columns the findings table sorts by; `-column` reverses the column's order. */
export const FINDING_SORT_COLUMNS = ['severity', 'title', 'asset', 'status', 'sla', 'lastSeen', 'epss'] as const
export type FindingSortColumn = (typeof FINDING_SORT_COLUMNS)[number]
export type FindingSort = FindingSortColumn | `-${FindingSortColumn}`
export const FINDING_SORTS: readonly FindingSort[] = FINDING_SORT_COLUMNS.flatMap((c) => [c, `-${c}`] as const)
