import { describe, expect, it, vi } from 'vitest'
import type { Watch } from './live-data'
import { sharedWatch } from './shared-watch'

/** A listener the test drives: how often it was started and stopped, and its callbacks. */
function source<T>() {
  const runs: { next: (value: T) => void; fail: (error: Error) => void; stopped: boolean }[] = []
  const watch: Watch<T> = (next, fail) => {
    const run = { next, fail, stopped: false }
    runs.push(run)
    return () => {
      run.stopped = true
    }
  }
  return { watch, runs }
}

describe('sharedWatch', () => {
  it('starts one listener for every subscriber of a key and hands each the values', () => {
    const { watch, runs } = source<number>()
    const a = vi.fn()
    const b = vi.fn()
    const stopA = sharedWatch('findings/acme/dast', watch)(a, vi.fn())
    runs[0]!.next(1)
    const stopB = sharedWatch('findings/acme/dast', watch)(b, vi.fn())
    expect(runs).toHaveLength(1)
    // The later subscriber gets the latest value at once, then what follows.
    expect(b).toHaveBeenCalledWith(1)
    runs[0]!.next(2)
    expect(a.mock.calls).toEqual([[1], [2]])
    expect(b.mock.calls).toEqual([[1], [2]])

    stopA()
    expect(runs[0]!.stopped).toBe(false)
    stopB()
    expect(runs[0]!.stopped).toBe(true)
  })

  it('keeps other keys apart', () => {
    const { watch, runs } = source<number>()
    sharedWatch('findings/acme/dast', watch)(vi.fn(), vi.fn())
    sharedWatch('findings/acme/network', watch)(vi.fn(), vi.fn())
    expect(runs).toHaveLength(2)
  })

  it('starts afresh after the last subscriber left', () => {
    const { watch, runs } = source<number>()
    const stop = sharedWatch('report/acme', watch)(vi.fn(), vi.fn())
    runs[0]!.next(1)
    stop()
    const again = vi.fn()
    sharedWatch('report/acme', watch)(again, vi.fn())
    expect(runs).toHaveLength(2)
    expect(again).not.toHaveBeenCalled()
  })

  it('tells every subscriber of a failure, and a retry starts a new listener', () => {
    const { watch, runs } = source<number>()
    const failA = vi.fn()
    const failB = vi.fn()
    sharedWatch('report/globex', watch)(vi.fn(), failA)
    sharedWatch('report/globex', watch)(vi.fn(), failB)
    const refused = new Error('Missing or insufficient permissions.')
    runs[0]!.fail(refused)
    expect(failA).toHaveBeenCalledWith(refused)
    expect(failB).toHaveBeenCalledWith(refused)

    sharedWatch('report/globex', watch)(vi.fn(), vi.fn())
    expect(runs).toHaveLength(2)
  })
})
