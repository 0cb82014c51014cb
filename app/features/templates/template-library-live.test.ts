import { describe, expect, it, vi } from 'vitest'

// The template listener's snapshots, delivered by the test as Firestore would send them.
const listener = vi.hoisted(() => ({ deliver: (_: unknown) => {}, options: {} as object }))
vi.mock('firebase/firestore', () => ({
  doc: (_db: unknown, path: string) => path,
  onSnapshot: (_ref: unknown, ...args: unknown[]) => {
    listener.options = typeof args[0] === 'function' ? {} : (args[0] as object)
    listener.deliver = args.find((arg) => typeof arg === 'function') as (snapshot: unknown) => void
    return () => {}
  },
}))
vi.mock('~/core/firebase', () => ({ firestore: () => ({}) }))

const { watchTemplate } = await import('./template-library-live')

const missing = (fromCache: boolean) => ({ exists: () => false, data: () => undefined, metadata: { fromCache } })

describe('watchTemplate', () => {
  it('takes a template missing from the cache alone as unknown; only the server says there is none', () => {
    const next = vi.fn()
    watchTemplate('sql-injection')(next, vi.fn())
    listener.deliver(missing(true))
    expect(next).not.toHaveBeenCalled()
    // The server's answer then changes only the snapshot's metadata: the listener asks for those.
    expect(listener.options).toEqual({ includeMetadataChanges: true })
    listener.deliver(missing(false))
    expect(next).toHaveBeenLastCalledWith(null)
  })
})
