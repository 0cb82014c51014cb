// The search index as the index trigger leaves it, read with the emulator's admin key: the list
// searches once per query, so a spec waits for the trigger before it asks.
import { FINDINGS_INDEX } from '#domain/findings-search.ts'
import { TEMPLATES_INDEX } from '#domain/template-search.ts'
import { searchEmulatorAdmin } from '../../../emulators/search/admin-client.ts'
import { searchEmulatorConfigFromEnv } from '../../../emulators/search/config.ts'

const client = searchEmulatorAdmin(searchEmulatorConfigFromEnv())

/** Whether the templates index holds a record for `slug` now. */
export async function isIndexed(slug: string): Promise<boolean> {
  const { results } = await client.getObjects({ requests: [{ indexName: TEMPLATES_INDEX, objectID: slug }] })
  return results[0] !== null && results[0] !== undefined
}

/** How many findings records carry `tag` now (of every company: the tag is the calling test's own). */
export async function indexedFindingsTagged(tag: string): Promise<number> {
  const { nbHits } = await client.searchSingleIndex({
    indexName: FINDINGS_INDEX,
    searchParams: { facetFilters: [[`tags:${tag}`]], hitsPerPage: 0 },
  })
  return nbHits ?? 0
}
