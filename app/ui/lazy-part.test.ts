// @vitest-environment happy-dom
// (A browser: loading waits for the browser to come back online.)
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadWhenOnline } from './lazy-part'
import { setBrowserOnline } from '../../tests/unit/browser-online'

afterEach(() => vi.restoreAllMocks())

describe('loadWhenOnline', () => {
  it('loads once when the load succeeds', async () => {
    const load = vi.fn(() => Promise.resolve('menu'))
    await expect(loadWhenOnline(load)).resolves.toBe('menu')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('fails as the load fails while the browser is online', async () => {
    const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')))
    await expect(loadWhenOnline(load)).rejects.toThrow('Failed to fetch dynamically imported module')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('loads again once the browser is back online when the load failed offline', async () => {
    setBrowserOnline(false)
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('menu')
    const loaded = loadWhenOnline(load)
    let settled = false
    void loaded.finally(() => (settled = true))
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1))
    await Promise.resolve()
    expect(settled).toBe(false)
    setBrowserOnline(true)
    await expect(loaded).resolves.toBe('menu')
    expect(load).toHaveBeenCalledTimes(2)
  })
})
