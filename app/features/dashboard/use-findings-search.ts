import { useEffect, useState } from 'react'
import { useFindingsSearchAhead } from '~/core/findings-search-ahead'
import type { FindingHit } from '~/core/findings-search-client'

export type FindingsSearchState =
  | { status: 'idle' }
  | { status: 'loading'; hits: FindingHit[]; total: number }
  | { status: 'ready'; hits: FindingHit[]; total: number }
  | { status: 'failed'; message: string }

/** A pause after the last key press before asking the search service. */
const TYPING_PAUSE_MS = 200

/** The company's findings matching `text` (after a short pause in typing); idle while the text is empty. */
export function useFindingsSearch(company: string, text: string): FindingsSearchState {
  const [state, setState] = useState<FindingsSearchState>({ status: 'idle' })
  const query = text.trim()
  // Whoever is on the dashboard may search, or open a report's findings, next.
  useFindingsSearchAhead(company)

  useEffect(() => {
    if (query === '') {
      setState({ status: 'idle' })
      return
    }
    let current = true
    setState((last) =>
      'hits' in last ? { status: 'loading', hits: last.hits, total: last.total } : { status: 'loading', hits: [], total: 0 },
    )
    const timer = setTimeout(() => {
      import('~/core/findings-search-client')
        .then((search) => search.searchFindings(company, query))
        .then(
          (result) => {
            if (current) setState({ status: 'ready', ...result })
          },
          (error: unknown) => {
            if (!current) return
            console.warn('Findings search failed', error)
            setState({ status: 'failed', message: 'Search is not available right now. Please try again.' })
          },
        )
    }, TYPING_PAUSE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [company, query])

  return state
}
