// The findings table's data, answered by the search index (decision 0036): the exact total and
// counts, the filter options and groups in one round trip, then rows a page at a time as the
// reader scrolls to them. Nothing grows with the service's findings: a page holds at most the
// pages scrolled to. `refresh` asks again for what is shown (a live change, a move made here).
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  findingsPageRequest,
  findingsSummaryRequests,
  FINDINGS_PAGE_SIZE,
  FINDINGS_INDEX_SETTINGS,
  type FindingRowHit,
  type FindingsGroupBy,
  type FindingsQuery,
  type FindingsSearchRequest,
} from '#domain/findings-search.ts'
import type { FindingsSearchResult } from '~/core/findings-search-client'

/** Runs several queries of one company's findings in one round trip. */
export type FindingsSearcher = (requests: readonly FindingsSearchRequest[]) => Promise<FindingsSearchResult<FindingRowHit>[]>

export const searcherFor =
  (company: string): FindingsSearcher =>
  async (requests) =>
    (await import('~/core/findings-search-client')).searchFindingsIndex<FindingRowHit>(company, requests)

/** How many rows one order can be paged to; past it the table says so. */
export const REACHABLE_ROWS = FINDINGS_INDEX_SETTINGS.paginationLimitedTo ?? 1000

export interface FindingsSummary {
  total: number
  severity: Record<string, number>
  status: Record<string, number>
  assets: string[]
  tags: string[]
  /** The groups with their sizes, the largest first (when grouped). */
  groups: { value: string; count: number }[]
}

/**
 * `stale`: the summary (and the rows) are the last answer, to an earlier query, shown while the
 * new one is asked, so a filter's click does not blank the table.
 */
export type FindingsResults =
  | { status: 'loading'; summary: FindingsSummary | undefined; stale: boolean; retry(): void }
  | { status: 'ready'; summary: FindingsSummary; stale: false; retry(): void }
  | { status: 'failed'; summary: FindingsSummary | undefined; stale: false; error: Error; retry(): void }

const byCount = (counts: Record<string, number> | undefined) =>
  Object.entries(counts ?? {})
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([value, count]) => ({ value, count }))

function summaryOf(results: FindingsSearchResult<FindingRowHit>[], groupBy: FindingsGroupBy | undefined): FindingsSummary {
  const [options, severity, status, groups] = results
  return {
    total: options?.nbHits ?? 0,
    severity: severity?.facets.severity ?? {},
    status: status?.facets.status ?? {},
    assets: byCount(options?.facets.asset).map((g) => g.value),
    tags: byCount(options?.facets.tags).map((g) => g.value),
    groups: groupBy ? byCount(groups?.facets[groupBy]) : [],
  }
}

/** Pages asked for again on a refresh, at most. */
const REFRESHED_PAGES = 6

/** Where rows come from: the whole list, or one group of it. */
const sourceKey = (group: string | null) => (group === null ? '' : `group:${group}`)

export interface FindingsRows {
  /** The row at `index` of the list (or of a group), undefined until its page has arrived. */
  rowAt(index: number, group?: string | null): FindingRowHit | undefined
  /** Asks for the pages holding rows `from` to `to` (inclusive), unless already there or asked for. */
  want(from: number, to: number, group?: string | null): void
}

/**
 * The findings the query finds, from the search index. Until a new query's answer comes, the last
 * answer stays (marked stale); `refresh` asks again for what is shown.
 */
export function useFindingsResults(
  searcher: FindingsSearcher,
  query: FindingsQuery,
  groupBy: FindingsGroupBy | undefined,
): FindingsResults & { rows: FindingsRows; refresh(): void; version: number } {
  const queryKey = JSON.stringify([query, groupBy ?? null])
  // `summaryKey`: the query the summary (and `pages`) answer, which is `key`'s once its answer came.
  const [state, setState] = useState<{
    key: string
    status: 'loading' | 'ready' | 'failed'
    summary?: FindingsSummary
    summaryKey?: string
    /** How the summary's groups were made: an answer grouped otherwise is not shown for this one. */
    summaryGroupBy?: FindingsGroupBy | null
    error?: Error
  }>({ key: queryKey, status: 'loading' })
  // Pages by source, each page's rows; replaced whole when an answer comes.
  const pages = useRef(new Map<string, Map<number, FindingRowHit[]>>())
  const pagesKey = useRef<string | null>(null)
  const asked = useRef(new Set<string>())
  const [version, setVersion] = useState(0)
  const [attempt, setAttempt] = useState(0)
  const current = useRef(queryKey)
  current.current = queryKey

  const groupFor = (group: string | null | undefined) => (group && groupBy ? { by: groupBy, value: group } : undefined)

  useEffect(() => {
    let live = true
    const keep = pagesKey.current === queryKey
    setState((last) => ({ ...last, key: queryKey, status: 'loading' }))
    // The first page comes with the figures; on a refresh, the pages last shown come again with
    // them (a few: the others are asked for again when scrolled back to).
    const shown = keep
      ? [...pages.current.entries()]
          .flatMap(([source, byPage]) => [...byPage.keys()].map((page) => ({ source, page })))
          .slice(-REFRESHED_PAGES)
      : []
    const first = shown.length > 0 ? shown : [{ source: '', page: 0 }]
    const groupOf = (source: string) => (source.startsWith('group:') ? source.slice('group:'.length) : null)
    searcher([
      ...first.map(({ source, page }) => findingsPageRequest(query, page, groupFor(groupOf(source)))),
      ...findingsSummaryRequests(query, groupBy),
    ]).then(
      (results) => {
        if (!live) return
        const next = new Map<string, Map<number, FindingRowHit[]>>()
        first.forEach(({ source, page }, i) => {
          const byPage = next.get(source) ?? new Map<number, FindingRowHit[]>()
          byPage.set(page, results[i]?.hits ?? [])
          next.set(source, byPage)
        })
        pages.current = next
        pagesKey.current = queryKey
        asked.current = new Set(first.map(({ source, page }) => `${source}#${page}`))
        setState({
          key: queryKey,
          status: 'ready',
          summary: summaryOf(results.slice(first.length), groupBy),
          summaryKey: queryKey,
          summaryGroupBy: groupBy ?? null,
        })
        setVersion((n) => n + 1)
      },
      (error: unknown) => {
        if (!live) return
        // The page says it in words; the console keeps what the search service answered.
        console.warn('The findings search failed', error)
        const failed = error instanceof Error ? error : new Error(String(error))
        // A refresh that failed keeps what is shown; an earlier query's answer is not this one's.
        if (!keep) {
          pages.current = new Map()
          pagesKey.current = null
          asked.current = new Set()
        }
        setState((last) => ({ ...last, status: 'failed', error: failed, ...(keep ? {} : { summary: undefined, summaryKey: undefined }) }))
      },
    )
    return () => {
      live = false
    }
    // `query` and `groupBy` are in queryKey; attempt is a refresh or retry.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searcher, queryKey, attempt])

  const want = useCallback(
    (from: number, to: number, group: string | null = null) => {
      const source = sourceKey(group)
      const key = current.current
      // The rows shown are an earlier query's: this one's first page is on its way.
      if (pagesKey.current !== key) return
      for (let page = Math.floor(from / FINDINGS_PAGE_SIZE); page <= Math.floor(to / FINDINGS_PAGE_SIZE); page += 1) {
        const id = `${source}#${page}`
        if (asked.current.has(id) || page * FINDINGS_PAGE_SIZE >= REACHABLE_ROWS) continue
        asked.current.add(id)
        searcher([findingsPageRequest(query, page, groupFor(group))]).then(
          ([result]) => {
            if (current.current !== key) return
            const byPage = pages.current.get(source) ?? new Map<number, FindingRowHit[]>()
            byPage.set(page, result?.hits ?? [])
            pages.current.set(source, byPage)
            setVersion((n) => n + 1)
          },
          () => {
            // Asked again when the rows are next in view.
            asked.current.delete(id)
          },
        )
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [searcher, queryKey],
  )

  const rows: FindingsRows = {
    rowAt: (index, group = null) =>
      pages.current.get(sourceKey(group))?.get(Math.floor(index / FINDINGS_PAGE_SIZE))?.[index % FINDINGS_PAGE_SIZE],
    want,
  }
  const retry = () => setAttempt((n) => n + 1)
  const fresh = state.key === queryKey
  const stale = state.summaryKey !== queryKey
  const summary = !stale || state.summaryGroupBy === (groupBy ?? null) ? state.summary : undefined
  const base =
    state.status === 'failed' && fresh
      ? { status: 'failed' as const, summary, stale: false as const, error: state.error ?? new Error('Search failed'), retry }
      : state.status === 'ready' && fresh && summary && !stale
        ? { status: 'ready' as const, summary, stale: false as const, retry }
        : { status: 'loading' as const, summary, stale: summary !== undefined && stale, retry }
  return { ...base, rows, refresh: retry, version }
}
