// An export of the current view holds the findings the view shows: the table's text search asked
// of the search emulator (in this process, with the findings index's settings) and the export
// plan's keep rule over the same findings give the same findings for every query.
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Finding } from '#domain/findings.ts'
import {
  FINDINGS_INDEX,
  FINDINGS_INDEX_SETTINGS_LIST,
  findingSearchRecord,
  findingsPageRequest,
  type FindingRowHit,
} from '#domain/findings-search.ts'
import { algoliaHosts, applyIndexSettings } from '#domain/template-search.ts'
import { startSearchEmulator, type SearchEmulator } from '../../../../emulators/search/search-emulator.ts'
import { findingDocument } from '../../../../tests/builders.ts'
import { exportPlan } from './export-plan'

const finding = (id: string, overrides: Partial<Finding>): Finding => ({ id, ...findingDocument('dast', overrides), ...overrides })

const findings: Finding[] = [
  finding('a', { title: 'Reflected cross-site scripting', asset: 'https://acme.example/login', cwe: ['CWE-79'], tags: ['xss'] }),
  finding('b', { title: 'Stored cross-site scripting', asset: 'https://acme.example/profile', cwe: ['CWE-79'], tags: ['xss'] }),
  finding('c', {
    title: 'SQL injection in the login form',
    asset: 'https://shop.acme.example/account',
    cwe: ['CWE-89'],
    templateSlug: 'sql-injection',
  }),
  finding('d', { title: 'Hard-coded credentials', asset: 'https://acme.example/static/app.js', cwe: ['CWE-798'], tags: ['secrets'] }),
  finding('e', { title: 'Missing HSTS header', asset: 'https://website.example/', tags: ['tls'] }),
  finding('f', { title: 'Sécurité des cookies', asset: 'https://acme.example/', cwe: ['CWE-614'], tags: ['cookies'] }),
]

const credentials = { appId: 'EXPORTTEST', adminApiKey: 'admin-key', searchApiKey: 'search-key' }
let emulator: SearchEmulator
let client: Algoliasearch

beforeAll(async () => {
  emulator = await startSearchEmulator({ port: 0, ...credentials })
  client = algoliasearch(credentials.appId, credentials.adminApiKey, {
    hosts: algoliaHosts({ hosts: [emulator.host], protocol: 'http' }, 'readWrite'),
  })
  await applyIndexSettings(client, FINDINGS_INDEX_SETTINGS_LIST)
  await client.saveObjects({
    indexName: FINDINGS_INDEX,
    objects: findings.map((f) => ({ ...findingSearchRecord('acme', f) })),
    waitForTasks: true,
  })
})
afterAll(async () => {
  await emulator.close()
})

/** The findings the table shows for the text search: the first page of its own request. */
async function shown(q: string): Promise<string[]> {
  const { results } = await client.search<FindingRowHit>({ requests: [findingsPageRequest({ service: 'dast', q }, 0)] })
  const [result] = results
  if (!result || !('hits' in result)) throw new Error('no hits')
  const hits: FindingRowHit[] = result.hits
  return hits.map((hit) => hit.findingId).sort()
}

/** The findings an export of the same view holds. */
const exported = (q: string): string[] =>
  findings
    .filter(exportPlan({ q }).keep)
    .map((f) => f.id)
    .sort()

describe('an export of the current view', () => {
  it.each([
    ['acme.example/login', ['a', 'c']],
    ['CWE-79', ['a', 'b', 'd']],
    ['scrip', ['a', 'b']],
    ['site', ['a', 'b']],
    ['login', ['a', 'c']],
    ['inj sql', ['c']],
    ['securite', ['f']],
    ['scriptng', []],
    ['xss cookies', []],
  ])('holds the findings the table shows for %j', async (q, expected) => {
    expect(await shown(q)).toEqual(expected)
    expect(exported(q)).toEqual(expected)
  })
})
