// The templates list's first page, searched at the edge for the server's render: a search key
// from getSearchClient, asked with the person's own token (the callable decides, as for the
// browser), then one multi-query to the search service. The key is kept for its life in this
// isolate and handed to the page, so neither the edge nor the browser asks for one on every visit.
import * as v from 'valibot'
import { SearchClientResponseSchema, type SearchClientResponse } from '#domain/template-library-calls.ts'
import { SEARCH_KEY_LIFETIME_SECONDS } from '#domain/template-search.ts'
import { functionUrl } from '~/server/function-proxy.server'
import { templateSearchRequests, type TemplateListSearch } from './template-query'
import { searchResultOf, type TemplateHit, type TemplateSearchResult } from './use-template-search'

/** A key and when it is due for renewal (epoch ms), as the browser keeps it. */
export interface KeptSearchKey {
  response: SearchClientResponse
  renewAfter: number
}

/** The server's render gives up on search after this long: the browser then searches itself. */
const EDGE_SEARCH_TIMEOUT_MS = 800
/** A key is asked for once an hour per person: long enough for the callable's cold start. */
const KEY_TIMEOUT_MS = 4000

const keys = new Map<string, KeptSearchKey>()

async function searchKeyFor(uid: string, idToken: string): Promise<KeptSearchKey> {
  const kept = keys.get(uid)
  if (kept && Date.now() < kept.renewAfter) return kept
  const answer = await fetch(functionUrl('getSearchClient'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ data: { type: 'search' } }),
    signal: AbortSignal.timeout(KEY_TIMEOUT_MS),
  })
  if (!answer.ok) throw new Error(`getSearchClient answered ${answer.status}`)
  const { result } = v.parse(v.object({ result: SearchClientResponseSchema }), await answer.json())
  // Renewed a minute early, as in the browser, so no search runs with a key about to expire.
  const fresh = { response: result, renewAfter: Date.now() + (SEARCH_KEY_LIFETIME_SECONDS - 60) * 1000 }
  keys.set(uid, fresh)
  return fresh
}

const ResultsSchema = v.object({ results: v.array(v.looseObject({})) })

async function search(key: SearchClientResponse, search: TemplateListSearch): Promise<TemplateSearchResult> {
  const { appId, searchKey, searchHosts } = key
  const hosts = searchHosts
    ? searchHosts.hosts.map((host) => `${searchHosts.protocol}://${host}`)
    : [`https://${appId}-dsn.algolia.net`, `https://${appId}-1.algolianet.com`]
  let failure: unknown = null
  // Hosts in order, as the browser's client tries them.
  for (const host of hosts) {
    try {
      const answer = await fetch(`${host}/1/indexes/*/queries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-algolia-application-id': appId, 'x-algolia-api-key': searchKey },
        body: JSON.stringify({ requests: templateSearchRequests(search) }),
        signal: AbortSignal.timeout(EDGE_SEARCH_TIMEOUT_MS),
      })
      if (!answer.ok) throw new Error(`The search service answered ${answer.status}`)
      const { results } = v.parse(ResultsSchema, await answer.json())
      return searchResultOf(search, results as { hits?: TemplateHit[] }[])
    } catch (error) {
      failure = error
    }
  }
  throw failure
}

/** The first page for `uid` (who may search the templates), with the key it was found with. */
export async function templatesFirstPageAtEdge(
  uid: string,
  idToken: string,
  listSearch: TemplateListSearch,
): Promise<{ result: TemplateSearchResult; key: KeptSearchKey }> {
  const key = await searchKeyFor(uid, idToken)
  try {
    return { result: await search(key.response, listSearch), key }
  } catch (error) {
    // The key may be what was refused (rights changed, say): the next render asks for a new one.
    keys.delete(uid)
    throw error
  }
}
