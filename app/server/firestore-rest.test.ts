import { afterEach, describe, expect, it, vi } from 'vitest'
import { readRequest } from './firestore-rest'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('readRequest', () => {
  it('asks again while the connections it meets had been closed before any answer, and takes an answer as final', async () => {
    const lost = new Error('Network connection lost.')
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(lost)
      .mockRejectedValueOnce(lost)
      .mockRejectedValueOnce(lost)
      .mockResolvedValueOnce(new Response('{}', { status: 503 }))
      .mockResolvedValue(new Response('{}', { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    const response = await readRequest('http://firestore.test/v1/x', { method: 'POST', body: '{}' })
    expect(response.status).toBe(503)
    expect(fetch).toHaveBeenCalledTimes(4)
  })

  it('gives up after four connections failed', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockRejectedValue(new Error('Network connection lost.'))
    vi.stubGlobal('fetch', fetch)
    await expect(readRequest('http://firestore.test/v1/x', { method: 'POST', body: '{}' })).rejects.toThrow('Network connection lost.')
    expect(fetch).toHaveBeenCalledTimes(4)
  })

  it('gives up at once when the read was cancelled or timed out', async () => {
    const controller = new AbortController()
    controller.abort()
    const fetch = vi.fn<typeof globalThis.fetch>().mockRejectedValue(new DOMException('The operation was aborted.', 'AbortError'))
    vi.stubGlobal('fetch', fetch)
    await expect(readRequest('http://firestore.test/v1/x', { signal: controller.signal })).rejects.toThrow('aborted')
    expect(fetch).toHaveBeenCalledTimes(1)
  })
})
