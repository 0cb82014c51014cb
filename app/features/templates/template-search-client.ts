// Searching the templates from the browser: a time-limited key from getSearchClient, then
// algoliasearch's lite client straight to the search service (its own host fallback, retries and
// caches). Loaded with `import()`, so only the templates pages carry it.
import { liteClient, type LiteClient } from 'algoliasearch/lite'
import type { SearchClientResponse } from '#domain/template-library-calls.ts'
import { algoliaHosts, SEARCH_KEY_LIFETIME_SECONDS } from '#domain/template-search.ts'
import { call } from '~/core/call'
import { forgetKeptKey, keepKey, keptKey } from './template-search-key'

/**
 * The search client's timeouts (ms). A host that timed out is skipped for 120 s: algoliasearch's own
 * hosts cache keeps it "down" for that long.
 */
export const SEARCH_TIMEOUTS = { connect: 1000, read: 2000, write: 30_000 } as const

interface KeyedClient {
  client: LiteClient
  /** Epoch ms after which a new key is needed. */
  renewAfter: number
}

let current: Promise<KeyedClient> | null = null

const clientFor = (response: SearchClientResponse, renewAfter: number): KeyedClient => ({
  client: liteClient(response.appId, response.searchKey, {
    timeouts: SEARCH_TIMEOUTS,
    ...(response.searchHosts ? { hosts: algoliaHosts(response.searchHosts, 'read') } : {}),
  }),
  renewAfter,
})

async function createClient(): Promise<KeyedClient> {
  const kept = keptKey()
  if (kept) return clientFor(kept.response, kept.renewAfter)
  const response = await call('getSearchClient', { type: 'search' })
  // Renew a minute early, so no search runs with a key about to expire.
  const renewAfter = Date.now() + (SEARCH_KEY_LIFETIME_SECONDS - 60) * 1000
  keepKey(response, renewAfter)
  return clientFor(response, renewAfter)
}

/** Forgets the key (a search refused with it: it may have been revoked or the rights changed). */
export function forgetSearchKey(): void {
  current = null
  forgetKeptKey()
}

/** The search client, with a key that is still valid. */
export async function templateSearchClient(): Promise<LiteClient> {
  const keyed = current ? await current.catch(() => null) : null
  if (keyed && Date.now() < keyed.renewAfter) return keyed.client
  current = createClient()
  try {
    return (await current).client
  } catch (error) {
    current = null
    throw error
  }
}

/** The slugs of every template the list's query and filters match (all pages), for an export of what is shown. */
export async function matchingTemplateSlugs(request: { indexName: string; query: string; facetFilters: string[][] }): Promise<Set<string>> {
  const client = await templateSearchClient()
  const slugs = new Set<string>()
  for (let page = 0; ; page += 1) {
    const { results } = await client.search<{ objectID: string }>({
      requests: [{ ...request, page, hitsPerPage: 1000, attributesToHighlight: [] }],
    })
    const [result] = results
    if (!result || !('hits' in result)) throw new Error('The search service gave no hits')
    for (const hit of result.hits) slugs.add(hit.objectID)
    if (page + 1 >= (result.nbPages ?? 0)) return slugs
  }
}
