import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { hostAnswers, watchHostReach } from './host-probe'

const servers: { close: () => void }[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** An HTTP server on loopback that answers unless told to go silent (as a stopped process does). */
async function host(): Promise<{ origin: string; silent: { now: boolean } }> {
  const silent = { now: false }
  const server: Server = createServer((_, response) => {
    if (!silent.now) response.end('Ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push({
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  })
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, silent }
}

describe('the database host probe', () => {
  it('counts any answer as reached', async () => {
    expect(await hostAnswers((await host()).origin, 1_000)).toBe(true)
  })

  it('counts a socket that accepts and says nothing, or a closed port, as out of reach', async () => {
    const mute = createTcpServer(() => undefined)
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve))
    const port = (mute.address() as AddressInfo).port
    servers.push({ close: () => mute.close() })
    expect(await hostAnswers(`http://127.0.0.1:${port}`, 200)).toBe(false)

    const closed = createTcpServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    expect(await hostAnswers(`http://127.0.0.1:${closedPort}`, 1_000)).toBe(false)
  })

  it('tells of each change, and only of changes', async () => {
    const { origin, silent } = await host()
    const changes: boolean[] = []
    const stop = watchHostReach({ origin, onChange: (reached) => changes.push(reached), intervalMs: 10, timeoutMs: 200 })
    try {
      silent.now = true
      await vi.waitFor(() => expect(changes).toEqual([false]), { timeout: 5_000 })
      silent.now = false
      await vi.waitFor(() => expect(changes).toEqual([false, true]), { timeout: 5_000 })
    } finally {
      stop()
    }
  })

  it('does not ask while it should not probe', async () => {
    const { origin, silent } = await host()
    silent.now = true
    const changes: boolean[] = []
    let asked = 0
    const stop = watchHostReach({
      origin,
      onChange: (reached) => changes.push(reached),
      intervalMs: 10,
      timeoutMs: 100,
      shouldProbe: () => (asked++, false),
    })
    await vi.waitFor(() => expect(asked).toBeGreaterThan(5))
    stop()
    expect(changes).toEqual([])
  })
})
