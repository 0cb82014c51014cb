// Searching finding templates: getSearchClient called the way the browser calls it, the key it
// returns used against the search emulator, and syncTemplateSearch keeping the index equal to
// finding_templates through creates, updates, deletes and repeated events.
import { algoliasearch } from 'algoliasearch'
import { signOut } from 'firebase/auth'
import { httpsCallable } from 'firebase/functions'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LEVEL, mayRequestSearchCredentials, type UserType } from '#domain/access.ts'
import { templatePath } from '#domain/template-library.ts'
import {
  SEARCH_KEY_LIFETIME_SECONDS,
  TEMPLATE_INDEX_NAMES,
  TEMPLATE_SORTS,
  TEMPLATES_INDEX,
  algoliaHosts,
} from '#domain/template-search.ts'
import type { SearchClientResponse } from '#domain/template-library-calls.ts'
import { SEARCH_EMULATOR_DEFAULTS } from '../../emulators/search/config.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'
import {
  eventually,
  expectedRecord,
  functionsSettings,
  INDEX_TIMEOUT_MS,
  indexedRecords,
  runId,
  SEARCH_HOSTS,
  searchAdmin,
  templateInput,
  writeTemplate,
} from './template-fixtures.ts'
import { tokenClaims } from '../builders.ts'

let admin: AdminClients
let client: CallableClient

const getSearchClient = async (data: unknown) =>
  (await httpsCallable<unknown, SearchClientResponse>(client.functions, 'getSearchClient')(data)).data

const searchAs = (key: string, accept: 'read' | 'readWrite' = 'read') =>
  algoliasearch(SEARCH_EMULATOR_DEFAULTS.appId, key, { hosts: algoliaHosts(SEARCH_HOSTS, accept) })

/**
 * Waits until the index holds, for each slug, what Firestore holds. The trigger runs in the
 * background, after whatever earlier files left queued (a first seed is some 350 runs).
 */
async function expectIndexToFollow(slugs: readonly string[]): Promise<void> {
  await eventually(async () => {
    const expected = await Promise.all(slugs.map((slug) => expectedRecord(admin.db, slug)))
    expect(await indexedRecords(slugs)).toEqual(expected)
  })
}

const run = runId()

beforeAll(async () => {
  admin = connectToEmulators()
  client = connectCallableClient('template-search')
  // One template, indexed by the trigger, so the templates indexes exist before keys are tried.
  await writeTemplate(admin.db, templateInput(`${run}-indexed`))
  await expectIndexToFollow([`${run}-indexed`])
}, INDEX_TIMEOUT_MS + 10_000)

beforeEach(async () => {
  await signOut(client.auth)
})

afterAll(async () => {
  await client.close()
  await disconnect(admin)
})

describe('getSearchClient', () => {
  const callers: [UserType, number][] = (['client', 'analyst'] as const).flatMap((userType) =>
    Object.values(LEVEL).map((accessLevel): [UserType, number] => [userType, accessLevel]),
  )

  it.each(callers)('answers a %s of level %i as access.ts says', async (userType, accessLevel) => {
    await signInWithClaims(client, admin.auth, { userType, accessLevel })
    if (!mayRequestSearchCredentials({ userType, accessLevel })) {
      await expectCallableError(getSearchClient({ type: 'search' }), 'permission-denied')
      return
    }
    const before = Math.floor(Date.now() / 1000)
    const response = await getSearchClient({ type: 'search' })
    expect(response).toEqual({
      success: true,
      appId: SEARCH_EMULATOR_DEFAULTS.appId,
      searchKey: expect.any(String),
      searchHosts: SEARCH_HOSTS,
    })
    // A secured key: a signature, then the restrictions it signs.
    const restrictions = new URLSearchParams(Buffer.from(response.searchKey, 'base64').toString('utf8').slice(64))
    expect(restrictions.get('restrictIndices')?.split(',')).toEqual([...TEMPLATE_INDEX_NAMES])
    const validUntil = Number(restrictions.get('validUntil'))
    expect(validUntil).toBeGreaterThanOrEqual(before + SEARCH_KEY_LIFETIME_SECONDS)
    expect(validUntil).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + SEARCH_KEY_LIFETIME_SECONDS)
  })

  it('refuses callers who are not signed in', async () => {
    await expectCallableError(getSearchClient({ type: 'search' }), 'unauthenticated')
  })

  it('refuses a sign-in that was revoked', async () => {
    await signInWithClaims(client, admin.auth, tokenClaims(LEVEL.platformAdmin, { revoked: Math.floor(Date.now() / 1000) + 3600 }))
    await expectCallableError(getSearchClient({ type: 'search' }), 'unauthenticated')
  })

  it.each([
    ['no payload', null],
    ['no type', {}],
    ['another type', { type: 'admin' }],
    ['the type alone', 'search'],
    ['an extra field', { type: 'search', indices: ['*'] }],
  ])('refuses %s', async (_what, payload) => {
    await signInWithClaims(client, admin.auth, tokenClaims(LEVEL.seniorAnalyst))
    await expectCallableError(getSearchClient(payload), 'invalid-argument')
  })

  it('gives a key that searches the templates indexes only, and only searches', async () => {
    await signInWithClaims(client, admin.auth, tokenClaims(LEVEL.seniorAnalyst))
    const { searchKey } = await getSearchClient({ type: 'search' })
    const search = searchAs(searchKey)

    for (const sort of TEMPLATE_SORTS) {
      const { hits } = await search.searchSingleIndex({ indexName: sort.indexName, searchParams: { query: `weak tls ${run}` } })
      expect(
        hits.map((hit) => hit.objectID),
        sort.indexName,
      ).toEqual([`${run}-indexed`])
    }
    // Another index, even one named like the templates': refused.
    const otherIndex = `${TEMPLATES_INDEX}_archive`
    await searchAdmin().saveObject({ indexName: otherIndex, body: { objectID: 'old', title: 'Weak TLS configuration' } })
    await expect(search.searchSingleIndex({ indexName: otherIndex, searchParams: { query: '' } })).rejects.toMatchObject({
      status: 403,
      message: 'Index not allowed with this API key',
    })
    await expect(
      searchAs(searchKey, 'readWrite').saveObject({ indexName: TEMPLATES_INDEX, body: { objectID: 'forged', title: 'Forged' } }),
    ).rejects.toMatchObject({
      status: 403,
      message: 'Method not allowed with this API key',
    })
    await expect(searchAs(`${searchKey.slice(0, -4)}AAAA`).searchSingleIndex({ indexName: TEMPLATES_INDEX })).rejects.toMatchObject({
      status: 403,
    })
  })
})

describe('syncTemplateSearch', () => {
  it('indexes created templates, follows updates and drops deleted ones', async () => {
    const slugs = [`${run}-sqli`, `${run}-xss`, `${run}-ssrf`]
    await Promise.all(
      slugs.map((slug, index) => writeTemplate(admin.db, templateInput(slug, { severity: (['high', 'low', 'info'] as const)[index] }))),
    )
    await expectIndexToFollow(slugs)

    await admin.db.doc(templatePath(slugs[0] ?? '')).update({ title: 'Blind SQL injection', status: 'ready', cvss: null })
    await admin.db.doc(templatePath(slugs[1] ?? '')).delete()
    await expectIndexToFollow(slugs)
    const [updated, deleted] = await indexedRecords(slugs.slice(0, 2))
    expect(updated).toMatchObject({ title: 'Blind SQL injection', status: 'ready' })
    expect(deleted).toBeNull()
  })

  it('keeps the last of many quick edits', async () => {
    const slug = `${run}-edited`
    await writeTemplate(admin.db, templateInput(slug))
    for (const status of ['ready', 'deprecated', 'draft', 'ready'] as const) await admin.db.doc(templatePath(slug)).update({ status })
    await expectIndexToFollow([slug])
    expect((await indexedRecords([slug]))[0]).toMatchObject({ status: 'ready' })
  })

  it('leaves out a template it cannot read, and takes it back once fixed', async () => {
    const slug = `${run}-broken`
    await writeTemplate(admin.db, templateInput(slug))
    await expectIndexToFollow([slug])
    await admin.db.doc(templatePath(slug)).update({ severity: 'severe' })
    await eventually(async () => expect(await indexedRecords([slug])).toEqual([null]))
    await admin.db.doc(templatePath(slug)).update({ severity: 'low' })
    await expectIndexToFollow([slug])
  })
})

describe('syncTemplateRecord, as a repeated or late event runs it', () => {
  // The trigger's own module, run here with the search settings the functions emulator reads.
  beforeAll(() => {
    for (const [name, value] of Object.entries(functionsSettings())) if (name.startsWith('SEARCH_')) vi.stubEnv(name, value)
  })
  afterAll(() => {
    vi.unstubAllEnvs()
  })

  it('does not bring back a deleted template, nor an older version', async () => {
    const { syncTemplateRecord } = await import('../../functions/src/template-index.ts')
    const slug = `${run}-replayed`
    await writeTemplate(admin.db, templateInput(slug))
    await expectIndexToFollow([slug])

    // Every event of this template delivered again: the record already matches.
    expect(await syncTemplateRecord(admin.db, slug)).toBe('unchanged')

    await admin.db.doc(templatePath(slug)).delete()
    await expectIndexToFollow([slug])
    // The create event delivered once more after the delete.
    expect(await syncTemplateRecord(admin.db, slug)).toBe('unchanged')
    expect(await indexedRecords([slug])).toEqual([null])

    // A record older than the document (an event of an earlier version landed last) is replaced.
    await writeTemplate(admin.db, templateInput(slug, { title: 'Current title' }))
    await expectIndexToFollow([slug])
    await searchAdmin().saveObject({
      indexName: TEMPLATES_INDEX,
      body: { ...(await expectedRecord(admin.db, slug)), title: 'Stale title' },
    })
    expect(await syncTemplateRecord(admin.db, slug)).toBe('saved')
    expect((await indexedRecords([slug]))[0]).toMatchObject({ title: 'Current title' })
  })
})
