import { useCallback, useEffect, useRef, useState } from 'react'
import type { SearchClientResponse } from '#domain/template-library-calls.ts'
import { mergeFacetCounts, templateSearchRequests, type FacetCounts, type TemplateListSearch } from './template-query'

/** A search hit as the list shows it: the record and its highlighted title and excerpt. */
export interface TemplateHit {
  objectID: string
  title: string
  severity: string
  cvssScore: number | null
  tags: string[]
  services: string[]
  status: string
  excerpt: string
  _highlightResult?: { title?: { value: string }; excerpt?: { value: string } }
}

export interface TemplateSearchResult {
  hits: TemplateHit[]
  nbHits: number
  nbPages: number
  page: number
  facets: FacetCounts
  processingTimeMS: number
}

export type TemplateSearchState =
  | { status: 'loading'; result: TemplateSearchResult | null }
  | { status: 'ready'; result: TemplateSearchResult }
  | { status: 'unreachable'; result: null; message: string }

/** The answers of `templateSearchRequests(search)` as the list shows them. */
export function searchResultOf(search: TemplateListSearch, results: readonly object[]): TemplateSearchResult {
  const [main] = results
  if (!main || !('hits' in main)) throw new Error('The search service gave no hits')
  const first = main as { hits: TemplateHit[]; nbHits?: number; nbPages?: number; page?: number; processingTimeMS?: number }
  return {
    hits: first.hits,
    nbHits: first.nbHits ?? 0,
    nbPages: first.nbPages ?? 0,
    page: first.page ?? 0,
    facets: mergeFacetCounts(
      search,
      results.map((result) => ('facets' in result ? { facets: result.facets as Record<string, Record<string, number>> } : {})),
    ),
    processingTimeMS: first.processingTimeMS ?? 0,
  }
}

/** A page of results found before the list ran (at the edge), for the search it answers. */
export interface FirstPage {
  search: TemplateListSearch
  result: TemplateSearchResult
  /** The key it was found with, kept for the list's next searches. */
  key?: { response: SearchClientResponse; renewAfter: number }
}

/**
 * Runs the list's search whenever its state changes; the previous result stays while the next loads.
 * `firstPage` (rendered at the edge) is shown at once and not searched again.
 */
export function useTemplateSearch(search: TemplateListSearch, firstPage?: FirstPage): { state: TemplateSearchState; retry(): void } {
  const key = JSON.stringify(search)
  const given = firstPage && JSON.stringify(firstPage.search) === key ? firstPage.result : null
  const [state, setState] = useState<TemplateSearchState>(given ? { status: 'ready', result: given } : { status: 'loading', result: null })
  const [attempt, setAttempt] = useState(0)
  // The edge's answer stands for the first search: it is as fresh as the page.
  const skipFirst = useRef(given !== null)
  // The client caches answers by request. A list opened afresh (back from an edit, say) and a
  // retry must not show answers from before: they start from an empty cache.
  const cacheIsFresh = useRef(false)

  useEffect(() => {
    if (skipFirst.current) {
      skipFirst.current = false
      const key = firstPage?.key
      if (key) void import('./template-search-key').then((m) => m.adoptSearchKey(key.response, key.renewAfter))
      return
    }
    let current = true
    setState((previous) => ({ status: 'loading', result: previous.result }))
    void (async () => {
      try {
        const { templateSearchClient } = await import('./template-search-client')
        const client = await templateSearchClient()
        if (!cacheIsFresh.current) {
          await client.clearCache()
          cacheIsFresh.current = true
        }
        const { results } = await client.search<TemplateHit>({ requests: templateSearchRequests(search) })
        if (!current) return
        setState({ status: 'ready', result: searchResultOf(search, results) })
      } catch (error) {
        // The next try asks for a fresh key: a kept one may be what was refused.
        void import('./template-search-client').then((m) => m.forgetSearchKey())
        if (!current) return
        console.warn('Template search failed', error)
        setState({ status: 'unreachable', result: null, message: error instanceof Error ? error.message : String(error) })
      }
    })()
    return () => {
      current = false
    }
    // `key` stands for `search`: a new object with the same content must not search again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt])

  const retry = useCallback(() => {
    cacheIsFresh.current = false
    setAttempt((n) => n + 1)
  }, [])
  return { state, retry }
}
