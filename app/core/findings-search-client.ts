// Searching a company's findings from the browser (the dashboard's quick search and the findings
// table): a short-lived key from getSearchClient, restricted to that company and the services
// whose results the person may see, then algoliasearch's lite client straight to the search
// service. The key is renewed before it expires, so a page left open keeps searching. Loaded with
// `import()`.
import { liteClient, type LiteClient } from 'algoliasearch/lite'
import {
  FINDINGS_INDEX,
  FINDINGS_SEARCH_KEY_LIFETIME_SECONDS,
  type FindingSearchRecord,
  type FindingsSearchRequest,
} from '#domain/findings-search.ts'
import { algoliaHosts } from '#domain/template-search.ts'
import { call } from '~/core/call'

const SEARCH_TIMEOUTS = { connect: 1000, read: 2000, write: 30_000 } as const

/**
 * Answers are never kept: the browser client keeps every answer by default, so asking again after
 * a change (the findings table's refresh) would give the old answer back. Requests in flight are
 * still shared.
 */
const noResponsesCache = {
  get: <T>(_key: unknown, fetch: () => Promise<T>, events?: { miss?: (value: T) => Promise<unknown> }): Promise<T> =>
    fetch().then(async (value) => {
      await events?.miss?.(value)
      return value
    }),
  set: <T>(_key: unknown, value: T): Promise<T> => Promise.resolve(value),
  delete: (): Promise<void> => Promise.resolve(),
  clear: (): Promise<void> => Promise.resolve(),
}

interface KeyedClient {
  client: LiteClient
  renewAfter: number
}

/** One key per company: switching company asks for that company's key. */
const clients = new Map<string, Promise<KeyedClient>>()

async function createClient(company: string): Promise<KeyedClient> {
  const response = await call('getSearchClient', { type: 'findings', company })
  const client = liteClient(response.appId, response.searchKey, {
    timeouts: SEARCH_TIMEOUTS,
    responsesCache: noResponsesCache,
    ...(response.searchHosts ? { hosts: algoliaHosts(response.searchHosts, 'read') } : {}),
  })
  // Renewed a minute early, so no search runs with a key about to expire.
  return { client, renewAfter: Date.now() + (FINDINGS_SEARCH_KEY_LIFETIME_SECONDS - 60) * 1000 }
}

async function findingsClient(company: string): Promise<LiteClient> {
  const current = clients.get(company)
  const keyed = current ? await current.catch(() => null) : null
  if (keyed && Date.now() < keyed.renewAfter) return keyed.client
  const fresh = createClient(company)
  clients.set(company, fresh)
  try {
    return (await fresh).client
  } catch (error) {
    clients.delete(company)
    throw error
  }
}

export type FindingHit = Pick<FindingSearchRecord, 'objectID' | 'findingId' | 'service' | 'title' | 'severity' | 'status' | 'asset'>

export const FINDINGS_SHOWN = 8

/** The search service refused the key itself: expired (400) or not valid for this (403). */
const keyRefused = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && (error.status === 400 || error.status === 403)

/**
 * Asks for the company's key ahead of the first search (a page that will search soon: the report
 * with its findings table), so the first rows wait for the search alone. Failures are left for the
 * search itself to meet and say.
 */
export function prepareFindingsSearch(company: string): void {
  void findingsClient(company).catch(() => {})
}

/** What one query of a multi-query search answers. */
export interface FindingsSearchResult<Hit> {
  hits: Hit[]
  nbHits: number
  facets: Record<string, Record<string, number>>
}

/**
 * Several queries of the company's findings in one round trip; the key's filter keeps them to what
 * the person may see. A key the search service refuses (this computer's clock was set back, say)
 * is replaced once; a new key is refused by getSearchClient when the person's access is gone.
 */
export async function searchFindingsIndex<Hit>(
  company: string,
  requests: readonly FindingsSearchRequest[],
): Promise<FindingsSearchResult<Hit>[]> {
  const run = async () => {
    const { results } = await (await findingsClient(company)).search<Hit>({ requests: [...requests] })
    return results.map((result) => {
      if (!('hits' in result)) throw new Error('The search service gave no hits')
      return { hits: result.hits, nbHits: result.nbHits ?? result.hits.length, facets: result.facets ?? {} }
    })
  }
  try {
    return await run()
  } catch (error) {
    if (!keyRefused(error)) throw error
    clients.delete(company)
    return run()
  }
}

/** The company's findings matching `text`, the best match first (the most severe among equals). */
export async function searchFindings(company: string, text: string): Promise<{ hits: FindingHit[]; total: number }> {
  const [first] = await searchFindingsIndex<FindingHit>(company, [
    {
      indexName: FINDINGS_INDEX,
      query: text,
      hitsPerPage: FINDINGS_SHOWN,
      attributesToRetrieve: ['findingId', 'service', 'title', 'severity', 'status', 'asset'],
      attributesToHighlight: [],
    },
  ])
  if (!first) throw new Error('The search service gave no hits')
  return { hits: first.hits, total: first.nbHits }
}
