import { describe, expect, it, vi } from 'vitest'

// A fake of the SDK's query building: each constraint is a plain record, each listener is kept
// so the test can answer it with the documents Firestore would send.
type Constraint = { kind: string; value?: unknown }
interface Listener {
  constraints: Constraint[]
  options: object
  next: (snapshot: unknown) => void
  stopped: boolean
}
const listeners: Listener[] = []

vi.mock('firebase/firestore', () => ({
  collection: (_db: unknown, path: string) => ({ path }),
  query: (base: { path: string; constraints?: Constraint[] }, ...constraints: Constraint[]) => ({
    path: base.path,
    constraints: [...(base.constraints ?? []), ...constraints],
  }),
  where: (field: string, op: string, value: unknown) => ({ kind: 'where', value: [field, op, value] }),
  orderBy: (field: string, direction = 'asc') => ({ kind: 'orderBy', value: [field, direction] }),
  limit: (n: number) => ({ kind: 'limit', value: n }),
  startAfter: (doc: { id: string }) => ({ kind: 'startAfter', value: doc.id }),
  endAt: (doc: { id: string }) => ({ kind: 'endAt', value: doc.id }),
  doc: (_db: unknown, path: string) => ({ path, constraints: [] }),
  onSnapshot: (q: { constraints: Constraint[] }, ...args: unknown[]) => {
    // (query, next, fail) or (query, options, next, fail), as the SDK takes them.
    const [options, next] = (typeof args[0] === 'function' ? [{}, args[0]] : args) as [object, (snapshot: unknown) => void]
    const listener: Listener = { constraints: q.constraints, options, next, stopped: false }
    listeners.push(listener)
    return () => {
      listener.stopped = true
    }
  },
  getCountFromServer: async () => ({ data: () => ({ count: 0 }) }),
}))
vi.mock('./firebase', () => ({ firestore: () => ({}) }))

const { capped, counted, watchDocument, watchPages, watchQuery } = await import('./watch-query')

/** A query's snapshot; `fromCache` when the SDK answers from its cache alone (the database out of reach). */
const docs = (ids: string[], fromCache = false) => {
  const list = ids.map((id) => ({ id, data: () => ({ id }) }))
  return { docs: list, size: list.length, empty: list.length === 0, metadata: { fromCache } }
}
/** A document's snapshot; data undefined when it does not exist. */
const one = (id: string, data: unknown, fromCache = false) => ({
  id,
  exists: () => data !== undefined,
  data: () => data,
  metadata: { fromCache },
})
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `e${String(from + i).padStart(3, '0')}`)
const read = (id: string) => id
const range = (l: Listener) => l.constraints.filter((c) => ['limit', 'startAfter', 'endAt'].includes(c.kind))

describe('watchQuery', () => {
  it('takes an empty list served from the cache alone as unknown, and the server’s empty answer as empty', () => {
    listeners.length = 0
    const next = vi.fn()
    watchQuery('scans', read)(next, vi.fn())
    listeners[0]!.next(docs([], true))
    expect(next).not.toHaveBeenCalled()
    // The server's empty answer then changes only the snapshot's metadata: the listener asks for those.
    expect(listeners[0]!.options).toEqual({ includeMetadataChanges: true })
    listeners[0]!.next(docs([]))
    expect(next).toHaveBeenLastCalledWith([])
  })

  it('shows what the cache holds, and keeps following the server', () => {
    listeners.length = 0
    const next = vi.fn()
    watchQuery('scans', read)(next, vi.fn())
    listeners[0]!.next(docs(['a'], true))
    expect(next).toHaveBeenLastCalledWith(['a'])
    listeners[0]!.next(docs(['a', 'b']))
    expect(next).toHaveBeenLastCalledWith(['a', 'b'])
  })
})

describe('watchDocument', () => {
  it('takes a document missing from the cache alone as unknown; only the server says it does not exist', () => {
    listeners.length = 0
    const next = vi.fn()
    watchDocument('companies/new-co', (id, data) => (data ? { id, data } : null))(next, vi.fn())
    listeners[0]!.next(one('new-co', undefined, true))
    expect(next).not.toHaveBeenCalled()
    expect(listeners[0]!.options).toEqual({ includeMetadataChanges: true })
    listeners[0]!.next(one('new-co', { name: 'New Co' }))
    expect(next).toHaveBeenLastCalledWith({ id: 'new-co', data: { name: 'New Co' } })
    listeners[0]!.next(one('new-co', undefined))
    expect(next).toHaveBeenLastCalledWith(null)
  })
})

describe('capped', () => {
  it('asks for one more than it shows and says whether the query held more', () => {
    listeners.length = 0
    const next = vi.fn()
    capped(3, (cap) => watchQuery('events', read, cap))(next, vi.fn())
    expect(range(listeners[0]!)).toEqual([{ kind: 'limit', value: 4 }])
    listeners[0]!.next(docs(ids(0, 4)))
    expect(next).toHaveBeenLastCalledWith({ items: ids(0, 3), more: true })
    listeners[0]!.next(docs(ids(0, 3)))
    expect(next).toHaveBeenLastCalledWith({ items: ids(0, 3), more: false })
  })
})

describe('counted', () => {
  it('counts on the server only when the list holds more than it shows', async () => {
    const count = vi.fn(async () => 1234)
    let send: (value: { items: string[]; more: boolean }) => void = () => {}
    const next = vi.fn()
    counted((n) => ((send = n), () => {}), count)(next, vi.fn())
    send({ items: ['a', 'b'], more: false })
    expect(next).toHaveBeenLastCalledWith({ items: ['a', 'b'], more: false, total: 2 })
    expect(count).not.toHaveBeenCalled()
    send({ items: ['a', 'b'], more: true })
    await vi.waitFor(() => expect(next).toHaveBeenLastCalledWith({ items: ['a', 'b'], more: true, total: 1234 }))
  })
})

describe('watchPages', () => {
  it('shows a page, then pins it between cursors and follows the next one after it', () => {
    listeners.length = 0
    const next = vi.fn()
    const stop = watchPages('events', read, 3, { kind: 'orderBy', value: ['createdAt', 'desc'] } as never)(next, vi.fn())
    expect(range(listeners[0]!)).toEqual([{ kind: 'limit', value: 4 }])
    listeners[0]!.next(docs(ids(0, 4)))
    const first = next.mock.lastCall![0]
    expect(first.items).toEqual(ids(0, 3))
    expect(first.loading).toBe(false)
    expect(first.more).toBeTypeOf('function')

    first.more()
    // The first page is now everything up to its last document; the second starts after it.
    expect(listeners[0]!.stopped).toBe(true)
    expect(range(listeners[1]!)).toEqual([{ kind: 'endAt', value: 'e002' }])
    expect(range(listeners[2]!)).toEqual([
      { kind: 'startAfter', value: 'e002' },
      { kind: 'limit', value: 4 },
    ])
    // While the pages start, what was shown stays.
    expect(next.mock.lastCall![0]).toMatchObject({ items: ids(0, 3), loading: true })

    listeners[1]!.next(docs(ids(0, 3)))
    listeners[2]!.next(docs(ids(3, 5)))
    expect(next.mock.lastCall![0]).toEqual({ items: ids(0, 5), more: null, loading: false })

    // A new event at the top grows the first page: nothing slips out of sight between them.
    listeners[1]!.next(docs(['new', ...ids(0, 3)]))
    expect(next.mock.lastCall![0].items).toEqual(['new', ...ids(0, 5)])

    stop()
    expect(listeners.slice(1).every((l) => l.stopped)).toBe(true)
  })

  it('waits for the server when the cache alone holds no page', () => {
    listeners.length = 0
    const next = vi.fn()
    watchPages('events', read, 3)(next, vi.fn())
    listeners[0]!.next(docs([], true))
    expect(next).not.toHaveBeenCalled()
    expect(listeners[0]!.options).toEqual({ includeMetadataChanges: true })
    listeners[0]!.next(docs([]))
    expect(next).toHaveBeenLastCalledWith({ items: [], more: null, loading: false })
  })
})
