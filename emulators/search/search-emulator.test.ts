import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { algoliasearch } from 'algoliasearch'
import type { Algoliasearch, SearchResponse } from 'algoliasearch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDLE_CONNECTION_MS, SearchEmulatorListenError, startSearchEmulator } from './search-emulator.ts'
import type { SearchEmulator } from './search-emulator.ts'

const APP_ID = 'TESTAPP'
const ADMIN_KEY = 'test-admin-key'
const SEARCH_KEY = 'test-search-key'
const INDEX = 'templates'
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url))

type Template = {
  objectID: string
  title: string
  description: string
  service: string
  severity: string
  cvss: number
  tags: string[]
  companyId: string
  updatedAt: number
  internalNotes?: string
}

const TEMPLATES: Template[] = [
  {
    objectID: 'sqli',
    title: 'SQL Injection',
    description: 'User input reaches a database query without escaping.',
    service: 'web',
    severity: 'critical',
    cvss: 9.8,
    tags: ['owasp', 'injection'],
    companyId: 'acme',
    updatedAt: 1_700_000_500,
    internalNotes: 'seen in every second test',
  },
  {
    objectID: 'xss',
    title: 'Cross-Site Scripting',
    description: 'A page reflects user input as HTML.',
    service: 'web',
    severity: 'high',
    cvss: 7.4,
    tags: ['owasp', 'injection'],
    companyId: 'acme',
    updatedAt: 1_700_000_100,
  },
  {
    objectID: 'csrf',
    title: 'Cross-Site Request Forgery',
    description: 'A form accepts requests from any origin.',
    service: 'web',
    severity: 'medium',
    cvss: 6.1,
    tags: ['owasp'],
    companyId: 'globex',
    updatedAt: 1_700_000_400,
  },
  {
    objectID: 'weak-tls',
    title: 'Weak TLS Configuration',
    description: 'The server accepts protocol versions below TLS 1.2.',
    service: 'network',
    severity: 'medium',
    cvss: 5.3,
    tags: ['crypto'],
    companyId: 'globex',
    updatedAt: 1_700_000_300,
  },
  {
    objectID: 'default-password',
    title: 'Default Password',
    description: 'The device still uses the password it shipped with.',
    service: 'network',
    severity: 'high',
    cvss: 8.8,
    tags: ['authentication'],
    companyId: 'acme',
    updatedAt: 1_700_000_200,
  },
  {
    objectID: 'phishing',
    title: 'Phishing Susceptibility',
    description: 'Staff entered their credentials on a cloned sign-in page.',
    service: 'social',
    severity: 'low',
    cvss: 3.1,
    tags: ['awareness'],
    companyId: 'initech',
    updatedAt: 1_700_000_000,
  },
]

// The Node build of the client has generateSecuredApiKey; the project's types are the browser build's.
type NodeHelpers = { generateSecuredApiKey(options: { parentApiKey: string; restrictions: Record<string, unknown> }): string }

let emulator: SearchEmulator
let admin: Algoliasearch & NodeHelpers
let searchOnly: Algoliasearch

function client(apiKey: string, appId = APP_ID): Algoliasearch {
  return algoliasearch(appId, apiKey, { hosts: [{ url: emulator.host, accept: 'readWrite', protocol: 'http' }] })
}

async function search(apiKey: string, request: Record<string, unknown>, indexName = INDEX): Promise<SearchResponse<Template>> {
  const { results } = await client(apiKey).search<Template>({ requests: [{ indexName, ...request }] })
  return results[0] as SearchResponse<Template>
}

const ids = (response: SearchResponse<Template>) => response.hits.map((hit) => hit.objectID)

async function seed(): Promise<void> {
  const settings = await admin.setSettings({
    indexName: INDEX,
    indexSettings: {
      searchableAttributes: ['title', 'description', 'tags'],
      attributesForFaceting: ['service', 'severity', 'searchable(tags)', 'filterOnly(companyId)', 'cvss'],
      customRanking: ['desc(updatedAt)'],
      replicas: ['virtual(templates_mildest)', 'templates_oldest'],
      unretrievableAttributes: ['internalNotes'],
    },
  })
  await admin.waitForTask({ indexName: INDEX, taskID: settings.taskID })
  await admin.setSettings({ indexName: 'templates_mildest', indexSettings: { customRanking: ['asc(cvss)'] } })
  await admin.setSettings({ indexName: 'templates_oldest', indexSettings: { customRanking: ['asc(updatedAt)'] } })
  await admin.saveObjects({ indexName: INDEX, objects: TEMPLATES, waitForTasks: true })
}

function occupyPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

beforeAll(async () => {
  emulator = await startSearchEmulator({ port: 0, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY })
  admin = client(ADMIN_KEY) as Algoliasearch & NodeHelpers
  searchOnly = client(SEARCH_KEY)
  await seed()
})

afterAll(async () => {
  await emulator.close()
})

describe('search emulator: records and tasks', () => {
  it('reports the ephemeral port it got', () => {
    expect(emulator.port).toBeGreaterThan(0)
    expect(emulator.host).toBe(`127.0.0.1:${emulator.port}`)
    expect(emulator.url).toBe(`http://127.0.0.1:${emulator.port}`)
  })

  it('saves records with saveObjects, publishes the task and returns them by objectID', async () => {
    const [batch] = await admin.saveObjects({ indexName: 'scratch', objects: [{ objectID: 'a', title: 'Alpha' }] })
    expect(batch).toMatchObject({ taskID: expect.any(Number), objectIDs: ['a'] })
    await expect(admin.getTask({ indexName: 'scratch', taskID: batch?.taskID ?? 0 })).resolves.toEqual({
      status: 'published',
      pendingTask: false,
    })
    await expect(admin.getObject({ indexName: 'scratch', objectID: 'a' })).resolves.toEqual({ objectID: 'a', title: 'Alpha' })
    const saved = await admin.saveObject({ indexName: 'scratch', body: { title: 'Generated ID' } })
    expect(saved).toMatchObject({ taskID: expect.any(Number), createdAt: expect.any(String), objectID: expect.any(String) })
    await admin.waitForTask({ indexName: 'scratch', taskID: saved.taskID })
    await expect(admin.getObject({ indexName: 'scratch', objectID: saved.objectID ?? '' })).resolves.toMatchObject({
      title: 'Generated ID',
    })
  })

  it('replaces, partially updates and deletes records', async () => {
    await admin.addOrUpdateObject({ indexName: 'scratch', objectID: 'b', body: { title: 'Beta', views: 1, labels: ['x'] } })
    await admin.addOrUpdateObject({ indexName: 'scratch', objectID: 'b', body: { title: 'Beta two', views: 1, labels: ['x'] } })
    const update = await admin.partialUpdateObject({
      indexName: 'scratch',
      objectID: 'b',
      attributesToUpdate: {
        views: { _operation: 'Increment', value: 2 },
        labels: { _operation: 'AddUnique', value: 'y' },
        owner: 'ana',
      },
    })
    expect(update).toMatchObject({ taskID: expect.any(Number), updatedAt: expect.any(String), objectID: 'b' })
    await expect(admin.getObject({ indexName: 'scratch', objectID: 'b' })).resolves.toEqual({
      objectID: 'b',
      title: 'Beta two',
      views: 3,
      labels: ['x', 'y'],
      owner: 'ana',
    })

    await admin.partialUpdateObject({
      indexName: 'scratch',
      objectID: 'ghost',
      attributesToUpdate: { title: 'Ghost' },
      createIfNotExists: false,
    })
    await expect(admin.getObject({ indexName: 'scratch', objectID: 'ghost' })).rejects.toMatchObject({
      status: 404,
      message: 'ObjectID does not exist',
    })
    await admin.partialUpdateObject({ indexName: 'scratch', objectID: 'created', attributesToUpdate: { title: 'Created' } })
    await expect(admin.getObject({ indexName: 'scratch', objectID: 'created' })).resolves.toEqual({
      objectID: 'created',
      title: 'Created',
    })

    const deleted = await admin.deleteObject({ indexName: 'scratch', objectID: 'b' })
    expect(deleted).toMatchObject({ taskID: expect.any(Number), deletedAt: expect.any(String) })
    await expect(admin.getObject({ indexName: 'scratch', objectID: 'b' })).rejects.toMatchObject({ status: 404 })
  })

  it('applies a batch of mixed actions, and none of them when one is invalid', async () => {
    const response = await admin.batch({
      indexName: 'scratch-batch',
      batchWriteParams: {
        requests: [
          { action: 'addObject', body: { objectID: 'one', title: 'One', count: 1 } },
          { action: 'addObject', body: { objectID: 'two', title: 'Two' } },
          { action: 'partialUpdateObject', body: { objectID: 'one', count: { _operation: 'Increment', value: 1 } } },
          { action: 'partialUpdateObjectNoCreate', body: { objectID: 'nobody', title: 'Nobody' } },
          { action: 'updateObject', body: { objectID: 'three', title: 'Three' } },
          { action: 'deleteObject', body: { objectID: 'two' } },
        ],
      },
    })
    expect(response.objectIDs).toEqual(['one', 'two', 'one', 'nobody', 'three', 'two'])
    const all = await search(ADMIN_KEY, { query: '' }, 'scratch-batch')
    expect(
      all.hits
        .map(({ objectID, ...rest }) => ({ objectID, count: (rest as Record<string, unknown>).count }))
        .sort((a, b) => a.objectID.localeCompare(b.objectID)),
    ).toEqual([
      { objectID: 'one', count: 2 },
      { objectID: 'three', count: undefined },
    ])

    await expect(
      admin.batch({
        indexName: 'scratch-batch',
        batchWriteParams: {
          requests: [
            { action: 'deleteObject', body: { objectID: 'one' } },
            { action: 'partialUpdateObject', body: { objectID: 'three', title: { _operation: 'Explode', value: 1 } } },
          ],
        },
      }),
    ).rejects.toMatchObject({ status: 400 })
    await expect(admin.getObject({ indexName: 'scratch-batch', objectID: 'one' })).resolves.toMatchObject({ count: 2 })
  })

  it('clears and deletes indices; a missing index answers 404', async () => {
    await admin.saveObjects({ indexName: 'doomed', objects: [{ objectID: '1', title: 'Doomed' }], waitForTasks: true })
    expect((await admin.listIndices()).items.find((item) => item.name === 'doomed')).toMatchObject({ entries: 1 })
    await admin.clearObjects({ indexName: 'doomed' })
    expect((await search(ADMIN_KEY, { query: '' }, 'doomed')).nbHits).toBe(0)
    await admin.deleteIndex({ indexName: 'doomed' })
    await expect(search(ADMIN_KEY, { query: '' }, 'doomed')).rejects.toMatchObject({
      status: 404,
      message: 'Index does not exist',
    })
    await expect(admin.getSettings({ indexName: 'doomed' })).rejects.toMatchObject({ status: 404 })
  })

  it('returns settings with defaults, and the primary of a replica', async () => {
    const settings = await admin.getSettings({ indexName: INDEX })
    expect(settings).toMatchObject({
      searchableAttributes: ['title', 'description', 'tags'],
      customRanking: ['desc(updatedAt)'],
      replicas: ['virtual(templates_mildest)', 'templates_oldest'],
      hitsPerPage: 20,
    })
    await expect(admin.getSettings({ indexName: 'templates_oldest' })).resolves.toMatchObject({
      primary: INDEX,
      customRanking: ['asc(updatedAt)'],
      searchableAttributes: ['title', 'description', 'tags'],
    })
  })

  it('refuses unknown settings and malformed bodies with 400', async () => {
    await expect(admin.setSettings({ indexName: 'scratch', indexSettings: { customRanking: ['updatedAt'] } })).rejects.toMatchObject({
      status: 400,
    })
    await expect(
      admin.setSettings({ indexName: 'scratch', indexSettings: { distinct: true } as Record<string, unknown> }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('distinct') })
    const raw = await fetch(`${emulator.url}/1/indexes/scratch/batch`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
      body: '{"requests": [',
    })
    expect(raw.status).toBe(400)
    expect(await raw.json()).toEqual({ message: 'Invalid JSON', status: 400 })
  })
})

describe('search emulator: queries', () => {
  it('matches the last word as a prefix and highlights the matched part', async () => {
    const response = await search(SEARCH_KEY, { query: 'sql inj' })
    expect(ids(response)).toEqual(['sqli'])
    expect(response.hits[0]?._highlightResult?.title).toEqual({
      value: '<em>SQL</em> <em>Inj</em>ection',
      matchLevel: 'full',
      matchedWords: ['sql', 'inj'],
      fullyHighlighted: false,
    })
    // only the last word is a prefix, unless every word is (queryType prefixAll)
    expect((await search(SEARCH_KEY, { query: 'inj sql' })).nbHits).toBe(0)
    expect(ids(await search(SEARCH_KEY, { query: 'inj sql', queryType: 'prefixAll' }))).toEqual(['sqli'])
  })

  it('splits words as Algolia does: only letters and digits are searchable, symbols and tabs separate too', async () => {
    await admin.setSettings({ indexName: 'words', indexSettings: { searchableAttributes: ['text'] } })
    await admin.saveObjects({
      indexName: 'words',
      objects: [
        { objectID: 'symbols', text: 'price=9|qty~2 a+b <tag> acme.example/login' },
        { objectID: 'tab', text: 'left\tright' },
      ],
      waitForTasks: true,
    })
    const found = async (query: string) => ids(await search(SEARCH_KEY, { query, queryType: 'prefixAll', typoTolerance: false }, 'words'))
    for (const query of ['qty', '9', 'b', 'tag', 'qty=2', 'acme.example/login', 'login acme', 'pri QT'])
      expect(await found(query), query).toEqual(['symbols'])
    expect(await found('right')).toEqual(['tab'])
    expect(await found('ty')).toEqual([])
    const highlighted = (await search(SEARCH_KEY, { query: 'qty', attributesToHighlight: ['text'] }, 'words')).hits[0]?._highlightResult
    expect(highlighted?.text).toMatchObject({ value: 'price=9|<em>qty</em>~2 a+b <tag> acme.example/login', matchLevel: 'full' })
  })

  it('tolerates typos as Algolia does: 1 from 4 letters, 2 from 8', async () => {
    expect(ids(await search(SEARCH_KEY, { query: 'phisching' }))).toEqual(['phishing'])
    expect(ids(await search(SEARCH_KEY, { query: 'pasword' }))).toEqual(['default-password'])
    expect((await search(SEARCH_KEY, { query: 'tsl' })).nbHits).toBe(0) // 3 letters: no typo allowed
    expect((await search(SEARCH_KEY, { query: 'pasword', typoTolerance: false })).nbHits).toBe(0)
    const highlighted = (await search(SEARCH_KEY, { query: 'pasword' })).hits[0]?._highlightResult?.title
    expect(highlighted).toMatchObject({ value: 'Default <em>Password</em>', matchLevel: 'full', matchedWords: ['pasword'] })
  })

  it('ranks fewer typos, then the more important attribute, before the custom ranking', async () => {
    // "injection" is in the title of sqli and only in the tags of xss, which was updated earlier
    expect(ids(await search(SEARCH_KEY, { query: 'injection' }))).toEqual(['sqli', 'xss'])
    // "input" is in both descriptions: the custom ranking (newest first) decides
    expect(ids(await search(SEARCH_KEY, { query: 'input' }))).toEqual(['sqli', 'xss'])
    expect(ids(await search(SEARCH_KEY, { query: '' }))).toEqual(['sqli', 'csrf', 'weak-tls', 'default-password', 'xss', 'phishing'])
  })

  it('highlights with custom tags, partially, and not at all for an empty query', async () => {
    const response = await search(SEARCH_KEY, {
      query: 'cross site',
      highlightPreTag: '<mark>',
      highlightPostTag: '</mark>',
      attributesToHighlight: ['title', 'description'],
    })
    expect(ids(response)).toEqual(['csrf', 'xss'])
    const hit = response.hits.find((h) => h.objectID === 'xss')
    expect(hit?._highlightResult).toEqual({
      title: {
        value: '<mark>Cross</mark>-<mark>Site</mark> Scripting',
        matchLevel: 'full',
        matchedWords: ['cross', 'site'],
        fullyHighlighted: false,
      },
      description: { value: 'A page reflects user input as HTML.', matchLevel: 'none', matchedWords: [] },
    })
    const empty = await search(SEARCH_KEY, { query: '', hitsPerPage: 1 })
    expect(empty.hits[0]?._highlightResult?.title).toEqual({ value: 'SQL Injection', matchLevel: 'none', matchedWords: [] })
  })

  it('counts facets over the filtered hits, each array value once, and never filterOnly ones', async () => {
    const all = await search(SEARCH_KEY, { query: '', facets: ['*'] })
    expect(all.facets).toEqual({
      service: { web: 3, network: 2, social: 1 },
      severity: { high: 2, medium: 2, critical: 1, low: 1 },
      tags: { owasp: 3, injection: 2, authentication: 1, awareness: 1, crypto: 1 },
      cvss: { '3.1': 1, '5.3': 1, '6.1': 1, '7.4': 1, '8.8': 1, '9.8': 1 },
    })
    expect(all.facets_stats?.cvss).toMatchObject({ min: 3.1, max: 9.8 })
    const web = await search(SEARCH_KEY, { query: '', facets: ['severity', 'tags', 'companyId'], filters: 'service:web' })
    expect(web.facets).toEqual({
      severity: { critical: 1, high: 1, medium: 1 },
      tags: { owasp: 3, injection: 2 },
    })
  })

  it('filters with AND, OR, NOT, quotes, parentheses, comparisons and ranges', async () => {
    const filtered = async (filters: string) => ids(await search(SEARCH_KEY, { query: '', filters })).sort()
    expect(await filtered('service:web AND severity:high')).toEqual(['xss'])
    expect(await filtered('severity:critical OR severity:low')).toEqual(['phishing', 'sqli'])
    expect(await filtered('service:web AND NOT tags:injection')).toEqual(['csrf'])
    expect(await filtered('(service:network OR service:social) AND cvss > 5')).toEqual(['default-password', 'weak-tls'])
    expect(await filtered('cvss:6 TO 9 AND NOT companyId:globex')).toEqual(['default-password', 'xss'])
    expect(await filtered('companyId:"acme" AND updatedAt >= 1700000200 AND cvss != 9.8')).toEqual(['default-password'])
    expect(await filtered('service:WEB AND severity:Medium')).toEqual(['csrf'])
    // an attribute that is not declared for faceting filters everything out, as on Algolia
    expect(await filtered('title:"SQL Injection"')).toEqual([])
  })

  it('applies facetFilters and numericFilters lists: strings ANDed, nested arrays ORed', async () => {
    const response = await search(SEARCH_KEY, {
      query: '',
      facetFilters: [['severity:high', 'severity:medium'], 'service:network'],
    })
    expect(ids(response).sort()).toEqual(['default-password', 'weak-tls'])
    const negated = await search(SEARCH_KEY, { query: '', facetFilters: ['service:-web'], numericFilters: ['cvss<8'] })
    expect(ids(negated).sort()).toEqual(['phishing', 'weak-tls'])
  })

  it('refuses filter shapes Algolia refuses', async () => {
    for (const filters of [
      '(service:web AND severity:high) OR severity:low',
      'NOT (service:web OR service:social)',
      'service:web OR cvss > 5',
      'service:',
    ]) {
      await expect(search(SEARCH_KEY, { query: '', filters })).rejects.toMatchObject({ status: 400 })
    }
  })

  it('pages through hits', async () => {
    const second = await search(SEARCH_KEY, { query: '', hitsPerPage: 4, page: 1 })
    expect(second).toMatchObject({ nbHits: 6, nbPages: 2, page: 1, hitsPerPage: 4, index: INDEX, exhaustiveNbHits: true })
    expect(ids(second)).toEqual(['xss', 'phishing'])
    expect((await search(SEARCH_KEY, { query: '', hitsPerPage: 4, page: 5 })).hits).toEqual([])
  })

  it('sorts replicas by their own custom ranking over the primary records', async () => {
    expect(ids(await search(SEARCH_KEY, { query: '' }, 'templates_mildest'))).toEqual([
      'phishing',
      'weak-tls',
      'csrf',
      'xss',
      'default-password',
      'sqli',
    ])
    expect(ids(await search(SEARCH_KEY, { query: 'cross' }, 'templates_mildest'))).toEqual(['csrf', 'xss'])
    expect(ids(await search(SEARCH_KEY, { query: 'owasp' }, 'templates_oldest'))).toEqual(['xss', 'csrf', 'sqli'])

    await admin.saveObjects({
      indexName: INDEX,
      objects: [
        { ...TEMPLATES[0], objectID: 'access-control', title: 'Access Control Bypass', cvss: 1, updatedAt: 1_700_000_600 } as Template,
      ],
      waitForTasks: true,
    })
    expect(ids(await search(SEARCH_KEY, { query: '', hitsPerPage: 1 }, 'templates_mildest'))).toEqual(['access-control'])
    await admin.deleteObject({ indexName: INDEX, objectID: 'access-control' })
    await expect(admin.saveObject({ indexName: 'templates_oldest', body: { title: 'Nope' } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('replica'),
    })
  })

  it('ranks by numbers and booleans only: a string in a ranking orders nothing, as on Algolia', async () => {
    await admin.setSettings({ indexName: 'ranked', indexSettings: { customRanking: ['asc(label)', 'desc(rank)'] } })
    await admin.saveObjects({
      indexName: 'ranked',
      objects: [
        { objectID: 'b', label: 'b', rank: 1 },
        { objectID: 'a', label: 'a', rank: 2 },
        { objectID: 'c', label: 'c', rank: 3 },
        { objectID: 'numeric', label: 5, rank: 0 },
        { objectID: 'quoted', label: '32', rank: 4 },
      ],
      waitForTasks: true,
    })
    // the one number first; the strings, "32" too, tie as missing values and fall to the next criterion
    expect(ids(await search(ADMIN_KEY, { query: '' }, 'ranked'))).toEqual(['numeric', 'quoted', 'c', 'a', 'b'])
  })

  it('accepts the legacy params string, and credentials in the query string as browsers send them', async () => {
    const url = new URL(`${emulator.url}/1/indexes/*/queries`)
    url.searchParams.set('x-algolia-agent', 'Algolia for JavaScript (5.64.0); Browser')
    url.searchParams.set('x-algolia-api-key', SEARCH_KEY)
    url.searchParams.set('x-algolia-application-id', APP_ID)
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ requests: [{ indexName: INDEX, params: 'query=tls&hitsPerPage=1&facets=%5B%22service%22%5D' }] }),
    })
    expect(response.status).toBe(200)
    const { results } = (await response.json()) as { results: SearchResponse<Template>[] }
    expect(results[0]).toMatchObject({ nbHits: 1, hitsPerPage: 1, facets: { service: { network: 1 } }, query: 'tls' })
  })

  it('refuses keys in the query string from pages of other sites (a form or an image needs no preflight)', async () => {
    const url = new URL(`${emulator.url}/1/indexes/scratch-foreign/clear`)
    url.searchParams.set('x-algolia-api-key', ADMIN_KEY)
    url.searchParams.set('x-algolia-application-id', APP_ID)
    const post = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers } })
    expect((await post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await post({ 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await post({ origin: 'null' })).status).toBe(403)
    // Pages of this machine (the app) and tools without a browser still may.
    expect((await post({ origin: 'http://localhost:3000', 'sec-fetch-site': 'cross-site' })).status).toBe(200)
    expect((await post({})).status).toBe(200)
  })

  it('answers CORS preflights from pages on this machine only', async () => {
    const preflight = (origin: string) =>
      fetch(`${emulator.url}/1/indexes/*/queries`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-algolia-api-key, content-type',
        },
      })
    const local = await preflight('http://127.0.0.1:3000')
    expect(local.status).toBe(204)
    expect(local.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000')
    expect(local.headers.get('access-control-allow-headers')).toBe('x-algolia-api-key, content-type')
    expect(local.headers.get('access-control-allow-methods')).toContain('POST')
    const foreign = await preflight('https://evil.example')
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refuses requests whose Host names another domain (DNS rebinding)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const headers = {
        host: `rebound.example:${emulator.port}`,
        'x-algolia-application-id': APP_ID,
        'x-algolia-api-key': SEARCH_KEY,
      }
      const req = request(
        { host: '127.0.0.1', port: emulator.port, path: '/1/indexes/templates/query', method: 'POST', headers },
        (res) => {
          res.resume()
          resolve(res.statusCode)
        },
      )
      req.on('error', reject)
      req.end('{}')
    })
    expect(status).toBe(421)
  })

  it('keeps an idle client connection open for minutes, as Algolia does, not Node’s 5 s', async () => {
    // A pooled connection closed while idle loses the next request sent on it (see IDLE_CONNECTION_MS).
    const keepAlive = await new Promise<string>((resolve, reject) => {
      const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, connection: 'keep-alive' }
      const req = request(
        { host: '127.0.0.1', port: emulator.port, path: '/1/indexes/templates/query', method: 'POST', headers },
        (res) => {
          res.resume()
          resolve(String(res.headers['keep-alive']))
        },
      )
      req.on('error', reject)
      req.end('{}')
    })
    expect(keepAlive).toBe(`timeout=${IDLE_CONNECTION_MS / 1000}`)
    expect(IDLE_CONNECTION_MS).toBeGreaterThanOrEqual(5 * 60_000)
  })

  it('hides unretrievableAttributes from every key but the admin key', async () => {
    const viaSearchKey = await search(SEARCH_KEY, { query: 'sql' })
    expect(viaSearchKey.hits[0]).not.toHaveProperty('internalNotes')
    const viaAdmin = await search(ADMIN_KEY, { query: 'sql' })
    expect(viaAdmin.hits[0]).toHaveProperty('internalNotes')
  })
})

describe('search emulator: API keys', () => {
  const securedKey = (restrictions: Record<string, unknown>, parentApiKey = SEARCH_KEY) =>
    admin.generateSecuredApiKey({ parentApiKey, restrictions })
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600

  it('lets the search key search but not write, read settings or list indices', async () => {
    expect((await search(SEARCH_KEY, { query: 'tls' })).nbHits).toBe(1)
    const denied = { status: 403, message: 'Method not allowed with this API key' }
    await expect(searchOnly.saveObject({ indexName: INDEX, body: { title: 'Nope' } })).rejects.toMatchObject(denied)
    await expect(searchOnly.setSettings({ indexName: INDEX, indexSettings: { customRanking: [] } })).rejects.toMatchObject(denied)
    await expect(searchOnly.getSettings({ indexName: INDEX })).rejects.toMatchObject(denied)
    await expect(searchOnly.listIndices()).rejects.toMatchObject(denied)
  })

  it('refuses unknown keys and a wrong application ID', async () => {
    const invalid = { status: 403, message: 'Invalid Application-ID or API key' }
    await expect(search('not-a-key', { query: '' })).rejects.toMatchObject(invalid)
    await expect(client(ADMIN_KEY, 'OTHERAPP').search({ requests: [{ indexName: INDEX }] })).rejects.toMatchObject(invalid)
  })

  it('accepts a secured key signed with the search key, restricted to its indices', async () => {
    const key = securedKey({ restrictIndices: [INDEX, 'templates_*'], validUntil: inAnHour() })
    expect((await search(key, { query: 'tls' })).nbHits).toBe(1)
    expect((await search(key, { query: '' }, 'templates_oldest')).nbHits).toBe(6)
  })

  it('refuses a secured key with a wrong signature, or derived from another key', async () => {
    const invalid = { status: 403, message: 'Invalid Application-ID or API key' }
    await expect(search(securedKey({ validUntil: inAnHour() }, 'some-other-key'), { query: '' })).rejects.toMatchObject(invalid)
    await expect(search(securedKey({ validUntil: inAnHour() }, ADMIN_KEY), { query: '' })).rejects.toMatchObject(invalid)
    const genuine = Buffer.from(securedKey({ filters: 'companyId:acme' }), 'base64').toString('utf8')
    const widened = Buffer.from(genuine.replace('companyId%3Aacme', 'companyId%3Aglobex')).toString('base64')
    await expect(search(widened, { query: '' })).rejects.toMatchObject(invalid)
  })

  it('refuses an expired secured key as Algolia does (400, validUntil expired)', async () => {
    const expired = securedKey({ validUntil: Math.floor(Date.now() / 1000) - 60 })
    await expect(search(expired, { query: '' })).rejects.toMatchObject({
      status: 400,
      message: 'validUntil parameter expired (less than current date)',
    })
  })

  it('refuses a secured key on an index outside restrictIndices', async () => {
    const key = securedKey({ restrictIndices: ['findings'], validUntil: inAnHour() })
    await expect(search(key, { query: '' })).rejects.toMatchObject({
      status: 403,
      message: 'Index not allowed with this API key',
    })
  })

  it("ANDs the key's filters with the query's, and lets the key's other parameters win", async () => {
    const key = securedKey({ filters: 'companyId:acme', hitsPerPage: 2, validUntil: inAnHour() })
    const response = await search(key, { query: '', hitsPerPage: 20 })
    expect(response).toMatchObject({ nbHits: 3, hitsPerPage: 2 })
    expect(ids(response)).toEqual(['sqli', 'default-password'])
    expect((await search(key, { query: '', filters: 'companyId:globex' })).nbHits).toBe(0)
    expect((await search(key, { query: '', filters: 'NOT companyId:acme OR companyId:globex' })).nbHits).toBe(0)
    expect(ids(await search(key, { query: '', filters: 'service:network' }))).toEqual(['default-password'])
  })

  it('does not let a secured key write or read records by objectID', async () => {
    const key = securedKey({ filters: 'companyId:acme', validUntil: inAnHour() })
    const denied = { status: 403, message: 'Method not allowed with this API key' }
    await expect(client(key).getObject({ indexName: INDEX, objectID: 'csrf' })).rejects.toMatchObject(denied)
    await expect(client(key).saveObject({ indexName: INDEX, body: { title: 'Nope' } })).rejects.toMatchObject(denied)
  })
})

describe('search emulator: process', () => {
  it('throws a readable error when the port is taken', async () => {
    const taken = await occupyPort()
    const address = taken.address()
    const port = typeof address === 'object' && address ? address.port : 0
    try {
      const attempt = startSearchEmulator({ port, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY })
      await expect(attempt).rejects.toBeInstanceOf(SearchEmulatorListenError)
      await expect(startSearchEmulator({ port, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY })).rejects.toThrow(
        `Port ${port} is in use: stop what uses it or set SEARCH_PORT`,
      )
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })

  it('runs from main.ts with env settings and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', MAIN], {
      env: { ...process.env, SEARCH_PORT: '0', SEARCH_APP_ID: 'CLIAPP' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('App ID')) child.kill('SIGTERM')
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    clearTimeout(timer)
    expect(stdout).toMatch(/URL {5}http:\/\/127\.0\.0\.1:\d+\n {2}App ID {2}CLIAPP/)
    expect(code).toBe(0)
  })
})

describe('search emulator: what it keeps between writes', () => {
  it('answers after writes as an index built afresh from the same records does (orders and facet lists follow each write)', async () => {
    const settings = {
      searchableAttributes: ['title'],
      attributesForFaceting: ['status', 'severity', 'asset'],
      customRanking: ['desc(rank)'],
    }
    const record = (i: number) => ({
      objectID: `r${i}`,
      title: `finding ${i % 7}`,
      status: i % 3 === 0 ? 'fixed' : 'open',
      severity: ['low', 'high'][i % 2],
      asset: `host${i % 5}`,
      rank: i % 11,
    })
    const records = Array.from({ length: 60 }, (_, i) => record(i))
    const queries = [
      { facets: ['severity', 'asset'], facetFilters: [['status:open']], hitsPerPage: 60 },
      { facets: ['status'], facetFilters: [['severity:high'], ['asset:host2', 'asset:host9']], hitsPerPage: 60 },
      { query: 'finding', facetFilters: [['status:open']], hitsPerPage: 60 },
      // Counts alone: the facet lists are all there is to go by.
      { facets: ['asset', 'severity'], facetFilters: [['status:fixed']], hitsPerPage: 0 },
    ]
    const answers = async (indexName: string) =>
      Promise.all(
        queries.map(async (query) => {
          const answer = await search(ADMIN_KEY, query, indexName)
          // With text, ties in the ranking fall to the full-text score, which depends on the write history.
          return { ids: 'query' in query ? ids(answer).sort() : ids(answer), nbHits: answer.nbHits, facets: answer.facets }
        }),
      )
    await admin.setSettings({ indexName: 'kept', indexSettings: settings })
    await admin.saveObjects({ indexName: 'kept', objects: records, waitForTasks: true })
    await answers('kept')
    // Writes after the orders and facet lists exist: a status, a rank and a new asset change; one record goes, one comes.
    const changed = [
      { ...records[4]!, status: 'fixed', rank: 10 },
      { ...records[7]!, asset: 'host9', severity: 'high' },
      { ...records[12]!, status: 'open', rank: 0 },
      record(60),
    ]
    await admin.saveObjects({ indexName: 'kept', objects: changed, waitForTasks: true })
    await admin.partialUpdateObject({ indexName: 'kept', objectID: 'r20', attributesToUpdate: { rank: 99, status: 'open' } })
    await admin.deleteObject({ indexName: 'kept', objectID: 'r33' })
    const final = [
      ...records.filter((r) => r.objectID !== 'r33').map((r) => changed.find((c) => c.objectID === r.objectID) ?? r),
      record(60),
    ]
    final[final.findIndex((r) => r.objectID === 'r20')] = { ...records[20]!, rank: 99, status: 'open' }

    await admin.setSettings({ indexName: 'afresh', indexSettings: settings })
    await admin.saveObjects({ indexName: 'afresh', objects: final, waitForTasks: true })
    const kept = await answers('kept')
    expect(kept).toEqual(await answers('afresh'))
    expect(kept[0]!.ids[0]).toBe('r20')
    expect(kept[1]!.ids).toContain('r7')
    // A page of a filtered order is that part of the whole order, and the count is the whole one's.
    const third = await search(ADMIN_KEY, { facetFilters: [['status:open']], hitsPerPage: 7, page: 2 }, 'kept')
    expect(ids(third)).toEqual(kept[0]!.ids.slice(14, 21))
    expect(third.nbHits).toBe(kept[0]!.nbHits)
    expect(third.nbPages).toBe(Math.ceil((kept[0]!.nbHits ?? 0) / 7))

    // A large write (more than a hundred records) drops them instead, to be built again.
    const more = Array.from({ length: 150 }, (_, i) => record(100 + i))
    await admin.saveObjects({ indexName: 'kept', objects: more, waitForTasks: true })
    await admin.saveObjects({ indexName: 'afresh', objects: more, waitForTasks: true })
    expect(await answers('kept')).toEqual(await answers('afresh'))
  })
})

describe('search emulator: size', () => {
  it('indexes and queries 5,000 records fast enough for interactive use', async () => {
    const words = [
      'injection',
      'scripting',
      'forgery',
      'password',
      'certificate',
      'phishing',
      'traversal',
      'overflow',
      'exposure',
      'misconfiguration',
    ]
    const services = ['web', 'network', 'social', 'mobile', 'cloud']
    const records = Array.from({ length: 5000 }, (_, i) => ({
      objectID: `t${i}`,
      title: `${words[i % words.length]} finding ${i}`,
      description: `A ${words[(i * 7) % words.length]} issue in the ${services[i % services.length]} service, number ${i}.`,
      service: services[i % services.length],
      severity: ['low', 'medium', 'high', 'critical'][i % 4],
      tags: [words[i % words.length], words[(i + 3) % words.length]],
      updatedAt: 1_700_000_000 + i,
    }))
    await admin.setSettings({
      indexName: 'bulk',
      indexSettings: {
        searchableAttributes: ['title', 'description', 'tags'],
        attributesForFaceting: ['service', 'severity', 'tags'],
        customRanking: ['desc(updatedAt)'],
      },
    })
    const indexStarted = performance.now()
    await admin.saveObjects({ indexName: 'bulk', objects: records, waitForTasks: true })
    const first = await search(ADMIN_KEY, { query: 'inj', facets: ['*'] }, 'bulk')
    const indexMs = performance.now() - indexStarted

    const queries = ['inj', 'travrsal', 'password web', 'cert', 'overflow', 'misconfig cloud', 'phishing', 'expo']
    const queryStarted = performance.now()
    for (const query of queries) {
      await search(ADMIN_KEY, { query, facets: ['*'], filters: 'severity:high OR severity:critical', hitsPerPage: 20 }, 'bulk')
    }
    const perQueryMs = (performance.now() - queryStarted) / queries.length

    expect(first.nbHits).toBe(500 + 500) // injection in titles, and in the tags 3 words later
    console.log(
      `search emulator, 5,000 records: saveObjects + first query ${indexMs.toFixed(0)} ms; ` +
        `a query with facets and filters ${perQueryMs.toFixed(1)} ms on average over HTTP`,
    )
  })
})
