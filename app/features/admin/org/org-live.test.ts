import { describe, expect, it, vi } from 'vitest'
import { scanScopeFromDocument } from '#domain/scan-scope.ts'

// The scope listener's snapshots, delivered by the test.
let deliver: (snapshot: unknown) => void = () => {}

vi.mock('firebase/firestore', () => ({
  doc: (_db: unknown, path: string) => path,
  // (ref, next, fail) or (ref, options, next, fail), as the SDK takes them.
  onSnapshot: (_path: string, ...args: unknown[]) => {
    deliver = args.find((arg) => typeof arg === 'function') as (snapshot: unknown) => void
    return () => {}
  },
}))
vi.mock('~/core/firebase', () => ({ firestore: () => ({}) }))

const { watchScanScope } = await import('./org-live')

const scopeDoc = { entries: [{ kind: 'domain', value: 'acme.example' }] }
const snapshot = (data: unknown, fromCache: boolean) => ({ exists: () => data !== undefined, data: () => data, metadata: { fromCache } })

describe('watchScanScope', () => {
  it('takes a scope missing from the cache as unknown, and one missing from the database as empty', () => {
    const next = vi.fn()
    watchScanScope('acme')(next, vi.fn())
    // Out of reach, nothing cached: the form must not judge targets against an empty scope.
    deliver(snapshot(undefined, true))
    expect(next).not.toHaveBeenCalled()
    deliver(snapshot(undefined, false))
    expect(next).toHaveBeenLastCalledWith([])
  })

  it('gives the cached scope while the database is out of reach, and the database’s once it answers', () => {
    const next = vi.fn()
    watchScanScope('acme')(next, vi.fn())
    deliver(snapshot(scopeDoc, true))
    expect(next).toHaveBeenLastCalledWith(scanScopeFromDocument(scopeDoc))
    expect(scanScopeFromDocument(scopeDoc)).toHaveLength(1)
    deliver(snapshot({ entries: [] }, false))
    expect(next).toHaveBeenLastCalledWith([])
  })
})
