// Searching the finding templates (decision 0011): the index, its sort orders and settings,
// and the getSearchClient contract. The functions (trigger, search keys), the seed and the app
// import it; pure TypeScript, with algoliasearch for types only.
import type { IndexSettings } from 'algoliasearch'
import { alphabeticalOrderKeys } from './alphabetical-order.ts'
import type { SearchHosts } from './template-library-calls.ts'

/** The primary index: one record per finding_templates document, objectID = slug. */
export const TEMPLATES_INDEX = 'finding_templates'

export interface TemplateSort {
  id: 'relevance' | 'updated' | 'severity' | 'title'
  label: string
  indexName: string
  /** A replica's order; the primary (relevance) has none. */
  replicaRanking?: string[]
}

/**
 * The orders a search can list templates in: the primary index by relevance, each other one a
 * virtual replica (same records, sorted by its ranking before textual relevance).
 */
export const TEMPLATE_SORTS: readonly TemplateSort[] = [
  { id: 'relevance', label: 'Most relevant', indexName: TEMPLATES_INDEX },
  { id: 'updated', label: 'Recently updated', indexName: `${TEMPLATES_INDEX}_updated_desc`, replicaRanking: ['desc(updatedAt)'] },
  {
    id: 'severity',
    label: 'Most severe',
    indexName: `${TEMPLATES_INDEX}_severity_desc`,
    replicaRanking: ['desc(severityRank)', 'desc(cvssScore)'],
  },
  // The search service sorts by numbers only: the records carry their titles' alphabetical order as numbers.
  {
    id: 'title',
    label: 'Title A to Z',
    indexName: `${TEMPLATES_INDEX}_title_asc`,
    replicaRanking: alphabeticalOrderKeys('title').map((key) => `asc(${key})`),
  },
]

const replicas = TEMPLATE_SORTS.flatMap(({ indexName, replicaRanking }) => (replicaRanking ? [{ indexName, replicaRanking }] : []))

/** Every index a templates search key may query. */
export const TEMPLATE_INDEX_NAMES: readonly string[] = TEMPLATE_SORTS.map((sort) => sort.indexName)

/** Settings by index name, in the order they are written (a primary before its replicas). */
export type IndexSettingsList = readonly (readonly [indexName: string, settings: IndexSettings])[]

/** Settings by index name, the primary first: it declares the replicas the others configure. */
export const TEMPLATE_INDEX_SETTINGS: IndexSettingsList = [
  [
    TEMPLATES_INDEX,
    {
      // Order is importance: a title match beats a CWE or tag match, which beats the excerpt.
      searchableAttributes: ['title', 'cwe', 'tags', 'unordered(excerpt)'],
      attributesForFaceting: ['severity', 'searchable(tags)', 'services', 'status', 'filterOnly(cwe)'],
      // Equally relevant templates: the more severe, then the more recently edited, first.
      customRanking: ['desc(severityRank)', 'desc(cvssScore)', 'desc(updatedAt)'],
      replicas: replicas.map((sort) => `virtual(${sort.indexName})`),
    },
  ],
  ...replicas.map(({ indexName, replicaRanking }) => [indexName, { customRanking: replicaRanking }] as const),
]

/** The part of an Algolia search client that reads and writes index settings. */
export interface IndexSettingsClient {
  getSettings(request: { indexName: string }): Promise<IndexSettings>
  setSettings(request: { indexName: string; indexSettings: IndexSettings }): Promise<{ taskID: number }>
  waitForTask(request: { indexName: string; taskID: number }): Promise<unknown>
}

const isNotFound = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 404

const sameSetting = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * Gives each index its settings, writing only those that differ: cheap enough to run on every
 * start of the functions and every seed. Returns the names of the indexes it changed.
 */
export async function applyIndexSettings(client: IndexSettingsClient, settings: IndexSettingsList): Promise<string[]> {
  const changed: string[] = []
  for (const [indexName, wanted] of settings) {
    const current = await client.getSettings({ indexName }).catch((error: unknown) => {
      if (isNotFound(error)) return {} as IndexSettings
      throw error
    })
    const differs = Object.entries(wanted).some(([key, value]) => !sameSetting(current[key as keyof IndexSettings], value))
    if (!differs) continue
    const { taskID } = await client.setSettings({ indexName, indexSettings: wanted })
    await client.waitForTask({ indexName, taskID })
    changed.push(indexName)
  }
  return changed
}

/** Every templates index with its settings; the names of those it changed. */
export const applyTemplateIndexSettings = (client: IndexSettingsClient) => applyIndexSettings(client, TEMPLATE_INDEX_SETTINGS)

/** The `hosts` option of an algoliasearch client for these hosts. */
export function algoliaHosts(searchHosts: SearchHosts, accept: 'read' | 'readWrite') {
  return searchHosts.hosts.map((url) => ({ url, accept, protocol: searchHosts.protocol }))
}

/** How long a templates search key works; the browser asks for a new one when it expires. */
export const SEARCH_KEY_LIFETIME_SECONDS = 60 * 60
