// The search index as the index trigger leaves it, read with the emulator's admin key: the list
// searches once per query, so a spec waits for the trigger before it asks.
import { algoliasearch } from 'algoliasearch'
import { FINDINGS_INDEX } from '#domain/findings-search.ts'
import { algoliaHosts, TEMPLATES_INDEX } from '#domain/template-search.ts'
import { searchEmulatorConfigFromEnv } from '../../../emulators/search/config.ts'

const config = searchEmulatorConfigFromEnv()
const client = algoliasearch(config.appId, config.adminApiKey, {
  hosts: algoliaHosts({ hosts: [`${config.host}:${config.port}`], protocol: 'http' }, 'readWrite'),
})

/** Whether the templates index holds a record for `slug` now. */
export async function isIndexed(slug: string): Promise<boolean> {
  const { results } = await client.getObjects({ requests: [{ indexName: TEMPLATES_INDEX, objectID: slug }] })
  return results[0] !== null && results[0] !== undefined
}

/** How many findings records carry `tag` now (of every company: the tag is the spec's own). */
export async function indexedFindingsTagged(tag: string): Promise<number> {
  const { nbHits } = await client.searchSingleIndex({
    indexName: FINDINGS_INDEX,
    searchParams: { facetFilters: [[`tags:${tag}`]], hitsPerPage: 0 },
  })
  return nbHits ?? 0
}
