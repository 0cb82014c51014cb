import { describe, expect, it } from 'vitest'
import { createFirstPaintCache } from './first-paint-cache.server'
import { REVOCATION_TTL_MS } from './revocations.server'

function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: 0 }
  const cache = createFirstPaintCache({ ...options, now: () => clock.now })
  let reads = 0
  const read =
    (value = 'figures') =>
    async () => {
      reads += 1
      return `${value} ${reads}`
    }
  return { clock, cache, read, reads: () => reads }
}

const key = { uid: 'u1', issuedAt: 1_000, what: 'overview acme' }

describe('the first-paint cache', () => {
  it('serves one sign-in’s read again within the revocation window, and reads afresh after it', async () => {
    const { clock, cache, read, reads } = setup()
    expect(await cache.get(key, read())).toBe('figures 1')
    clock.now = REVOCATION_TTL_MS - 1
    expect(await cache.get(key, read())).toBe('figures 1')
    clock.now = REVOCATION_TTL_MS
    expect(await cache.get(key, read())).toBe('figures 2')
    expect(reads()).toBe(2)
  })

  it('never keeps anything longer than the revocation window, whatever it is asked', async () => {
    const { clock, cache, read } = setup({ ttlMs: 60 * REVOCATION_TTL_MS })
    await cache.get(key, read())
    clock.now = REVOCATION_TTL_MS
    expect(await cache.get(key, read())).toBe('figures 2')
  })

  it('another person, another token or another access and company read their own', async () => {
    const { cache, read, reads } = setup()
    await cache.get(key, read())
    expect(await cache.get({ ...key, uid: 'u2' }, read())).toBe('figures 2')
    expect(await cache.get({ ...key, issuedAt: 1_001 }, read())).toBe('figures 3')
    expect(await cache.get({ ...key, what: 'overview acme without network' }, read())).toBe('figures 4')
    expect(reads()).toBe(4)
  })

  it('shares one read between concurrent pages', async () => {
    const { cache, read, reads } = setup()
    const [a, b] = await Promise.all([cache.get(key, read()), cache.get(key, read())])
    expect([a, b]).toEqual(['figures 1', 'figures 1'])
    expect(reads()).toBe(1)
  })

  it('does not keep a failed read', async () => {
    const { cache, read } = setup()
    await expect(cache.get(key, () => Promise.reject(new Error('denied')))).rejects.toThrow('denied')
    expect(await cache.get(key, read())).toBe('figures 1')
  })

  it('keeps at most the configured number of reads, dropping the oldest', async () => {
    const { cache, read, reads } = setup({ maxEntries: 2 })
    await cache.get({ ...key, what: 'a' }, read())
    await cache.get({ ...key, what: 'b' }, read())
    await cache.get({ ...key, what: 'c' }, read())
    await cache.get({ ...key, what: 'c' }, read())
    await cache.get({ ...key, what: 'a' }, read())
    expect(reads()).toBe(4)
  })
})
