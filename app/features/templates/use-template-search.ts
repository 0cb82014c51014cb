import { useCallback, useEffect, useRef, useState } from 'react'
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

/** Runs the list's search whenever its state changes; the previous result stays while the next loads. */
export function useTemplateSearch(search: TemplateListSearch): { state: TemplateSearchState; retry(): void } {
  const [state, setState] = useState<TemplateSearchState>({ status: 'loading', result: null })
  const [attempt, setAttempt] = useState(0)
  const key = JSON.stringify(search)
  // The client caches answers by request. A list opened afresh (back from an edit, say) and a
  // retry must not show answers from before: they start from an empty cache.
  const cacheIsFresh = useRef(false)

  useEffect(() => {
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
        const [main] = results
        if (!main || !('hits' in main)) throw new Error('The search service gave no hits')
        setState({
          status: 'ready',
          result: {
            hits: main.hits,
            nbHits: main.nbHits ?? 0,
            nbPages: main.nbPages ?? 0,
            page: main.page ?? 0,
            facets: mergeFacetCounts(
              search,
              results.map((result) => ('facets' in result ? { facets: result.facets } : {})),
            ),
            processingTimeMS: main.processingTimeMS ?? 0,
          },
        })
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
