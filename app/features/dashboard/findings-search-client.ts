// Searching a company's findings from the browser: a time-limited key from getSearchClient,
// restricted to that company and the services whose results the person may see, then
// algoliasearch's lite client straight to the search service. Loaded with `import()`.
import { liteClient, type LiteClient } from 'algoliasearch/lite'
import { FINDINGS_INDEX, type FindingSearchRecord } from '#domain/findings-search.ts'
import { algoliaHosts, SEARCH_KEY_LIFETIME_SECONDS } from '#domain/template-search.ts'
import { call } from '~/core/call'

const SEARCH_TIMEOUTS = { connect: 1000, read: 2000, write: 30_000 } as const

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
    ...(response.searchHosts ? { hosts: algoliaHosts(response.searchHosts, 'read') } : {}),
  })
  return { client, renewAfter: Date.now() + (SEARCH_KEY_LIFETIME_SECONDS - 60) * 1000 }
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

/** The company's findings matching `text`, the most severe first among equals; the key's filter does the rest. */
export async function searchFindings(company: string, text: string): Promise<{ hits: FindingHit[]; total: number }> {
  const client = await findingsClient(company)
  const { results } = await client.search<FindingHit>({
    requests: [
      {
        indexName: FINDINGS_INDEX,
        query: text,
        hitsPerPage: FINDINGS_SHOWN,
        attributesToRetrieve: ['findingId', 'service', 'title', 'severity', 'status', 'asset'],
        attributesToHighlight: [],
      },
    ],
  })
  const [first] = results
  if (!first || !('hits' in first)) throw new Error('The search service gave no hits')
  return { hits: first.hits, total: first.nbHits ?? first.hits.length }
}
