// @vitest-environment happy-dom
// (A browser: the read ends when the browser goes offline.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { READ_DEADLINE_MS, readMessages, ReadUnansweredError, withinDeadline } from './read-deadline'
import { setBrowserOnline } from '../../tests/unit/browser-online'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Whether `promise` has settled by now. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  promise.then(
    () => (done = true),
    () => (done = true),
  )
  await vi.advanceTimersByTimeAsync(0)
  return done
}

describe('withinDeadline', () => {
  it('answers what the read answers, and leaves no timer behind', async () => {
    await expect(withinDeadline(Promise.resolve(['a', 'b']))).resolves.toEqual(['a', 'b'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('fails as the read fails', async () => {
    await expect(withinDeadline(Promise.reject(new Error('permission-denied')))).rejects.toThrow('permission-denied')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('waits for a slow read within its deadline', async () => {
    const read = withinDeadline(new Promise<number>((resolve) => setTimeout(() => resolve(7), 5_000)), 10_000)
    await vi.advanceTimersByTimeAsync(5_000)
    await expect(read).resolves.toBe(7)
  })

  it('fails with a message to act on once the deadline passed without an answer', async () => {
    const read = withinDeadline(new Promise<string>(() => {}))
    const outcome = read.catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(READ_DEADLINE_MS - 1)
    expect(await settled(read)).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const error = await outcome
    expect(error).toBeInstanceOf(ReadUnansweredError)
    expect((error as Error).message).toBe(readMessages.noAnswer)
  })

  it('fails as soon as the browser goes offline, and at once when it already is', async () => {
    const read = withinDeadline(new Promise<string>(() => {}))
    const outcome = read.catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(await settled(read)).toBe(false)
    setBrowserOnline(false)
    expect(((await outcome) as Error).message).toBe(readMessages.offline)
    expect(vi.getTimerCount()).toBe(0)

    await expect(withinDeadline(new Promise<string>(() => {}))).rejects.toThrow(readMessages.offline)
    // Back online, reads answer again.
    setBrowserOnline(true)
    await expect(withinDeadline(Promise.resolve(1))).resolves.toBe(1)
  })
})
