import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FINDINGS_SEARCH_KEY_LIFETIME_SECONDS } from '#domain/findings-search.ts'
import { CallError } from '~/core/call'

// getSearchClient hands out numbered keys (or refuses); the search service answers per key.
const service = vi.hoisted(() => ({
  issued: 0,
  keyRequests: [] as unknown[],
  refuseKeys: false,
  searchedWith: [] as string[],
  expired: new Set<string>(),
}))

vi.mock('~/core/call', async (original) => ({
  ...(await original<typeof import('~/core/call')>()),
  call: async (_name: string, data: unknown) => {
    service.keyRequests.push(data)
    if (service.refuseKeys) throw new CallError('permission-denied', 'Your access does not allow this.')
    service.issued += 1
    return { success: true, appId: 'app', searchKey: `key-${service.issued}` }
  },
}))

vi.mock('algoliasearch/lite', () => ({
  liteClient: (_appId: string, key: string) => ({
    search: async () => {
      service.searchedWith.push(key)
      if (service.expired.has(key)) throw Object.assign(new Error('validUntil parameter expired (less than current date)'), { status: 400 })
      return { results: [{ hits: [{ objectID: 'acme/f1', title: 'Exposed admin panel' }], nbHits: 1 }] }
    },
  }),
}))

const { prepareFindingsSearch, searchFindings } = await import('./findings-search-client')

const start = Date.UTC(2026, 11, 1, 9)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(start)
  Object.assign(service, { issued: 0, keyRequests: [], refuseKeys: false, searchedWith: [], expired: new Set() })
})

afterEach(() => {
  vi.useRealTimers()
})

describe('searchFindings', () => {
  it('keeps a key while it is fresh and asks for the next a minute before it expires, without a search failing', async () => {
    await searchFindings('acme', 'admin')
    vi.setSystemTime(start + (FINDINGS_SEARCH_KEY_LIFETIME_SECONDS - 61) * 1000)
    await searchFindings('acme', 'admin')
    vi.setSystemTime(start + (FINDINGS_SEARCH_KEY_LIFETIME_SECONDS - 59) * 1000)
    expect(await searchFindings('acme', 'admin')).toEqual({ hits: [{ objectID: 'acme/f1', title: 'Exposed admin panel' }], total: 1 })
    expect(service.keyRequests).toEqual([
      { type: 'findings', company: 'acme' },
      { type: 'findings', company: 'acme' },
    ])
    expect(service.searchedWith).toEqual(['key-1', 'key-1', 'key-2'])
  })

  it('replaces a key the search service refuses, once, and the search goes through', async () => {
    service.expired.add('key-1')
    expect((await searchFindings('globex', 'admin')).total).toBe(1)
    expect(service.searchedWith).toEqual(['key-1', 'key-2'])
  })

  it('stops searching once getSearchClient refuses a new key, never falling back on the old one', async () => {
    await searchFindings('initech', 'admin')
    service.refuseKeys = true
    vi.setSystemTime(start + FINDINGS_SEARCH_KEY_LIFETIME_SECONDS * 1000)
    await expect(searchFindings('initech', 'admin')).rejects.toMatchObject({ code: 'permission-denied' })
    expect(service.searchedWith).toEqual(['key-1'])
  })

  it('asks for a key ahead of the first search, and the search uses it; a refused key is asked for again by the search', async () => {
    prepareFindingsSearch('umbrella')
    expect(service.keyRequests).toEqual([{ type: 'findings', company: 'umbrella' }])
    await searchFindings('umbrella', 'admin')
    expect(service.keyRequests).toHaveLength(1)
    expect(service.searchedWith).toEqual(['key-1'])

    service.refuseKeys = true
    prepareFindingsSearch('hooli')
    await vi.waitFor(() => expect(service.keyRequests).toHaveLength(2))
    service.refuseKeys = false
    await searchFindings('hooli', 'admin')
    expect(service.keyRequests).toHaveLength(3)
  })
})
