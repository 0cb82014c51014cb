// getSearchClient: a search key for the finding templates (analysts above level 5) or for one
// company's findings (whoever may select the company). The key is a secured key derived from the
// search-only key: it searches the named indexes only, a findings key only that company's
// findings of the services whose results the caller may see. A secured key cannot be revoked,
// so it expires: a findings key after FINDINGS_SEARCH_KEY_LIFETIME_SECONDS (minutes: access to
// findings is checked again at each new key), a templates key after SEARCH_KEY_LIFETIME_SECONDS;
// the browser renews it before then.
import { algoliasearch } from 'algoliasearch'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayRequestSearchCredentials, seesAllCompanies } from '#domain/access.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import {
  FINDINGS_INDEX_NAMES,
  FINDINGS_SEARCH_KEY_LIFETIME_SECONDS,
  findingsKeyFilter,
  searchableServices,
} from '#domain/findings-search.ts'
import { SEARCH_KEY_LIFETIME_SECONDS, TEMPLATE_INDEX_NAMES } from '#domain/template-search.ts'
import { readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { adminDb } from './admin.ts'
import { callerMessages, defineCallable, type Caller } from './define-callable.ts'
import { declaredSecrets, searchConfig, searchSearchKey, type SearchConfig } from './search-config.ts'

/** The indexes and filter of a findings key, or a refusal. */
async function findingsRestrictions(caller: Caller, slug: string): Promise<{ restrictIndices: string[]; filters: string }> {
  const db = adminDb()
  const [accessSnap, companySnap] = await Promise.all([db.doc(userAccessPath(caller.uid)).get(), db.doc(companyPath(slug)).get()])
  const stored = readUserAccess(accessSnap.data())
  // The token's claims are the authority on level and type, as in the rules; the document on companies and services.
  const access = { ...caller.access, servicesEnabled: stored.servicesEnabled, servicesManaged: stored.servicesManaged }
  const company = companyFromDocument(slug, companySnap.data())
  if (!company || !(seesAllCompanies(access) || stored.companies.includes(slug))) {
    throw new HttpsError('permission-denied', callerMessages.denied)
  }
  const filters = findingsKeyFilter(slug, searchableServices(access, company))
  if (filters === null) throw new HttpsError('permission-denied', 'There are no findings you may search in this company.')
  return { restrictIndices: [...FINDINGS_INDEX_NAMES], filters }
}

export const getSearchClient = defineCallable('getSearchClient', { secrets: declaredSecrets(searchSearchKey) }, async (caller, data) => {
  let restrictions: { restrictIndices: string[]; filters?: string }
  let lifetimeSeconds: number
  if (data.type === 'findings') {
    restrictions = await findingsRestrictions(caller, data.company)
    lifetimeSeconds = FINDINGS_SEARCH_KEY_LIFETIME_SECONDS
  } else {
    if (!mayRequestSearchCredentials(caller.access)) throw new HttpsError('permission-denied', callerMessages.denied)
    restrictions = { restrictIndices: [...TEMPLATE_INDEX_NAMES] }
    lifetimeSeconds = SEARCH_KEY_LIFETIME_SECONDS
  }
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
      ...restrictions,
      validUntil: Math.floor(Date.now() / 1000) + lifetimeSeconds,
      // Algolia counts rate limits per user rather than per office address.
      userToken: caller.uid,
    },
  })
  return { success: true, searchKey, appId: config.appId, ...(config.hosts ? { searchHosts: config.hosts } : {}) }
})
