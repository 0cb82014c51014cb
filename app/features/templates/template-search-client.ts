// Searching the templates from the browser: a time-limited key from getSearchClient, then
// algoliasearch's lite client straight to the search service (its own host fallback, retries and
// caches). Loaded with `import()`, so only the templates pages carry it.
import { liteClient, type LiteClient } from 'algoliasearch/lite'
import * as v from 'valibot'
import { algoliaHosts, SEARCH_KEY_LIFETIME_SECONDS, type SearchClientRequest } from '#domain/template-search.ts'
import { callable } from '~/core/firebase'

/**
 * The spec's timeouts (ms). A host that timed out is skipped for 120 s: algoliasearch's own
 * hosts cache keeps it "down" for that long.
 */
export const SEARCH_TIMEOUTS = { connect: 1000, read: 2000, write: 30_000 } as const

const SearchClientResponseSchema = v.object({
  success: v.literal(true),
  searchKey: v.pipe(v.string(), v.minLength(1, 'apiKey is missing')),
  appId: v.pipe(v.string(), v.minLength(1, 'appId is missing')),
  searchHosts: v.optional(
    v.object({ hosts: v.pipe(v.array(v.string()), v.minLength(1)), protocol: v.picklist(['http', 'https']) }),
  ),
})

interface KeyedClient {
  client: LiteClient
  /** Epoch ms after which a new key is needed. */
  renewAfter: number
}

let current: Promise<KeyedClient> | null = null

async function createClient(): Promise<KeyedClient> {
  const response = v.parse(SearchClientResponseSchema, (await callable<SearchClientRequest, unknown>('getSearchClient')({ type: 'search' })).data)
  const client = liteClient(response.appId, response.searchKey, {
    timeouts: SEARCH_TIMEOUTS,
    ...(response.searchHosts ? { hosts: algoliaHosts(response.searchHosts, 'read') } : {}),
  })
  // Renew a minute early, so no search runs with a key about to expire.
  return { client, renewAfter: Date.now() + (SEARCH_KEY_LIFETIME_SECONDS - 60) * 1000 }
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
