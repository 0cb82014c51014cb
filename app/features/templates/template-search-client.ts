// Searching the templates from the browser: a time-limited key from getSearchClient, then
// algoliasearch's lite client straight to the search service (its own host fallback, retries and
// caches). Loaded with `import()`, so only the templates pages carry it.
import { liteClient, type LiteClient } from 'algoliasearch/lite'
import { algoliaHosts, SEARCH_KEY_LIFETIME_SECONDS } from '#domain/template-search.ts'
import { call } from '~/core/call'

/**
 * The spec's timeouts (ms). A host that timed out is skipped for 120 s: algoliasearch's own
 * hosts cache keeps it "down" for that long.
 */
export const SEARCH_TIMEOUTS = { connect: 1000, read: 2000, write: 30_000 } as const

interface KeyedClient {
  client: LiteClient
  /** Epoch ms after which a new key is needed. */
  renewAfter: number
}

let current: Promise<KeyedClient> | null = null

async function createClient(): Promise<KeyedClient> {
  const response = await call('getSearchClient', { type: 'search' })
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
