import { algoliasearch, type IndexSettings } from 'algoliasearch'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSearchEmulator, type SearchEmulator } from '../../emulators/search/search-emulator.ts'
import type { FindingTemplate } from './finding-template.ts'
import { searchRecordFromTemplate } from './template-search-record.ts'
import { SearchClientRequestSchema } from './template-library-calls.ts'
import {
  algoliaHosts,
  applyTemplateIndexSettings,
  TEMPLATE_INDEX_NAMES,
  TEMPLATE_INDEX_SETTINGS,
  TEMPLATE_SORTS,
  TEMPLATES_INDEX,
  type IndexSettingsClient,
} from './template-search.ts'

/** An index service holding settings by index name; absent indexes answer 404 as Algolia does. */
function fakeClient(initial: Record<string, IndexSettings> = {}) {
  const settings = new Map(Object.entries(initial))
  const written: string[] = []
  const client: IndexSettingsClient = {
    async getSettings({ indexName }) {
      const found = settings.get(indexName)
      if (!found) throw Object.assign(new Error('Index does not exist'), { status: 404 })
      return found
    },
    async setSettings({ indexName, indexSettings }) {
      written.push(indexName)
      settings.set(indexName, { ...settings.get(indexName), ...indexSettings })
      return { taskID: written.length }
    },
    async waitForTask() {},
  }
  return { client, written, settings }
}

describe('the templates indexes', () => {
  it('are the primary and one virtual replica per other sort order, all open to search keys', () => {
    expect(TEMPLATE_SORTS[0]?.indexName).toBe(TEMPLATES_INDEX)
    expect(TEMPLATE_INDEX_NAMES).toEqual(TEMPLATE_SORTS.map((sort) => sort.indexName))
    const [[primary, settings], ...replicas] = TEMPLATE_INDEX_SETTINGS as [[string, IndexSettings], ...[string, IndexSettings][]]
    expect(primary).toBe(TEMPLATES_INDEX)
    expect(settings.replicas).toEqual(replicas.map(([name]) => `virtual(${name})`))
    expect(replicas.map(([name]) => name)).toEqual(TEMPLATE_INDEX_NAMES.slice(1))
    for (const [, replica] of replicas) expect(replica.customRanking?.length).toBeGreaterThan(0)
  })

  it('search and facet on fields the search record has', () => {
    const [, settings] = TEMPLATE_INDEX_SETTINGS[0] ?? []
    const bare = (attribute: string) => attribute.replace(/^\w+\((.*)\)$/, '$1')
    const recordFields = [
      'title',
      'severity',
      'severityRank',
      'cvssScore',
      'cwe',
      'tags',
      'services',
      'status',
      'excerpt',
      'updatedAt',
      'titleOrder0',
      'titleOrder1',
      'titleOrder2',
    ]
    for (const attribute of [...(settings?.searchableAttributes ?? []), ...(settings?.attributesForFaceting ?? [])]) {
      expect(recordFields).toContain(bare(attribute))
    }
    for (const [, { customRanking }] of TEMPLATE_INDEX_SETTINGS)
      for (const ranking of customRanking ?? []) expect(recordFields).toContain(bare(ranking))
  })
})

describe('the templates sort orders on the search emulator', () => {
  const credentials = { appId: 'TEMPLATESORT', adminApiKey: 'admin-key', searchApiKey: 'search-key' }
  let emulator: SearchEmulator
  beforeAll(async () => {
    emulator = await startSearchEmulator({ port: 0, ...credentials })
  })
  afterAll(async () => {
    await emulator.close()
  })

  const template = (slug: string, title: string, severity: FindingTemplate['severity'], updatedAt: number): FindingTemplate => ({
    slug,
    title,
    severity,
    cvss: null,
    cwe: [],
    description: 'What it is.',
    impact: 'What it allows.',
    remediation: 'How to fix it.',
    references: [],
    tags: [],
    services: ['dast'],
    status: 'ready',
    createdAt: 0,
    updatedAt,
    updatedBy: 'analyst@example.com',
  })

  it('lists titles A to Z, case and accents ignored, whatever their severity or age', async () => {
    const client = algoliasearch(credentials.appId, credentials.adminApiKey, {
      hosts: algoliaHosts({ hosts: [emulator.host], protocol: 'http' }, 'readWrite'),
    })
    await applyTemplateIndexSettings(client)
    const templates = [
      template('c', 'Ça va', 'critical', 5),
      template('b2', 'beta', 'low', 4),
      template('a2', 'alpha beta', 'info', 3),
      template('a1', 'Alpha', 'medium', 2),
      template('digits', '10 exposed services', 'high', 1),
    ]
    const records = templates.map((t) => ({ ...searchRecordFromTemplate(t) }))
    await client.saveObjects({ indexName: TEMPLATES_INDEX, objects: records, waitForTasks: true })
    const title = TEMPLATE_SORTS.find((sort) => sort.id === 'title')!
    const { hits } = await client.searchSingleIndex({ indexName: title.indexName, searchParams: { query: '' } })
    expect(hits.map((hit) => hit.objectID)).toEqual(['digits', 'a1', 'a2', 'b2', 'c'])
  })
})

describe('applyTemplateIndexSettings', () => {
  it('configures missing indexes, the primary first', async () => {
    const { client, written, settings } = fakeClient()
    expect(await applyTemplateIndexSettings(client)).toEqual([...TEMPLATE_INDEX_NAMES])
    expect(written).toEqual([...TEMPLATE_INDEX_NAMES])
    for (const [name, wanted] of TEMPLATE_INDEX_SETTINGS) expect(settings.get(name)).toEqual(wanted)
  })

  it('writes nothing when every index has its settings, whatever else it holds', async () => {
    const { client, written } = fakeClient(
      Object.fromEntries(TEMPLATE_INDEX_SETTINGS.map(([name, wanted]) => [name, { ...wanted, hitsPerPage: 20, typoTolerance: true }])),
    )
    expect(await applyTemplateIndexSettings(client)).toEqual([])
    expect(written).toEqual([])
  })

  it('writes only the indexes whose settings differ', async () => {
    const current = Object.fromEntries(TEMPLATE_INDEX_SETTINGS.map(([name, wanted]) => [name, { ...wanted }]))
    const replica = TEMPLATE_INDEX_NAMES[2] ?? ''
    current[replica] = { customRanking: ['asc(updatedAt)'] }
    const { client, written } = fakeClient(current)
    expect(await applyTemplateIndexSettings(client)).toEqual([replica])
    expect(written).toEqual([replica])
  })

  it('passes on errors other than a missing index', async () => {
    const { client } = fakeClient()
    client.getSettings = async () => {
      throw Object.assign(new Error('Invalid Application-ID or API key'), { status: 403 })
    }
    await expect(applyTemplateIndexSettings(client)).rejects.toThrow('Invalid Application-ID or API key')
  })
})

describe('getSearchClient contract', () => {
  it('asks for type "search", or "findings" with a company, and nothing else', () => {
    expect(v.is(SearchClientRequestSchema, { type: 'search' })).toBe(true)
    expect(v.is(SearchClientRequestSchema, { type: 'findings', company: 'acme' })).toBe(true)
    for (const payload of [
      {},
      { type: 'admin' },
      { type: 'search', restrictIndices: '*' },
      { type: 'findings' },
      { type: 'findings', company: 'Acme Corp' },
      { type: 'findings', company: 'acme', filters: '' },
      'search',
      null,
    ]) {
      expect(v.is(SearchClientRequestSchema, payload)).toBe(false)
    }
  })

  it('turns search hosts into the hosts option of algoliasearch', () => {
    expect(algoliaHosts({ hosts: ['127.0.0.1:7700', 'localhost:7701'], protocol: 'http' }, 'read')).toEqual([
      { url: '127.0.0.1:7700', accept: 'read', protocol: 'http' },
      { url: 'localhost:7701', accept: 'read', protocol: 'http' },
    ])
  })
})
