// getSearchClient: a search key for the finding templates, for analysts above level 5. The key is
// a secured key derived from the search-only key: it searches the templates indexes only and
// expires after SEARCH_KEY_LIFETIME_SECONDS; the browser then asks again.
import { algoliasearch } from 'algoliasearch'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { SEARCH_KEY_LIFETIME_SECONDS, TEMPLATE_INDEX_NAMES } from '#domain/template-search.ts'
import { defineCallable } from './define-callable.ts'
import { declaredSecrets, searchConfig, searchSearchKey, type SearchConfig } from './search-config.ts'

export const getSearchClient = defineCallable('getSearchClient', { secrets: declaredSecrets(searchSearchKey) }, async (caller) => {
  let config: SearchConfig
  try {
    config = searchConfig(searchSearchKey)
  } catch (error) {
    logger.error('getSearchClient: the search settings are incomplete', { error: error instanceof Error ? error.message : String(error) })
    throw new HttpsError('internal', 'Search is not available right now.')
  }
  const searchKey = algoliasearch(config.appId, config.apiKey).generateSecuredApiKey({
    parentApiKey: config.apiKey,
    restrictions: {
      restrictIndices: [...TEMPLATE_INDEX_NAMES],
      validUntil: Math.floor(Date.now() / 1000) + SEARCH_KEY_LIFETIME_SECONDS,
      // Algolia counts rate limits per user rather than per office address.
      userToken: caller.uid,
    },
  })
  return { success: true, searchKey, appId: config.appId, ...(config.hosts ? { searchHosts: config.hosts } : {}) }
})
