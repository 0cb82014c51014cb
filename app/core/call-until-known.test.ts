import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RequestIdSchema } from '#domain/call-receipts.ts'
import * as v from 'valibot'
import { callUntilKnown, newRequestId, outcomeUnknown, UncheckedWrite } from './call-until-known'

// A failed call as call() throws it: a CallError's code and words.
const failure = (code: string, message = 'The service did not answer in time: try again.') => Object.assign(new Error(message), { code })

/** An attempt that fails with each of `failures`, then answers `answer`. */
function attempts<T>(failures: Error[], answer: T) {
  const made = { count: 0 }
  const attempt = vi.fn(async () => {
    made.count++
    const next = failures.shift()
    if (next) throw next
    return answer
  })
  return { attempt, made }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('outcomeUnknown', () => {
  it.each(['deadline-exceeded', 'cancelled', 'unavailable', 'internal', 'unknown'])('is open after %s', (code) => {
    expect(outcomeUnknown(failure(code))).toBe(true)
  })

  it.each(['invalid-argument', 'failed-precondition', 'not-found', 'permission-denied', 'unauthenticated', 'invalid-response'])(
    'is known after the refusal %s',
    (code) => {
      expect(outcomeUnknown(failure(code))).toBe(false)
    },
  )

  it('is known for an error of the page itself', () => {
    expect(outcomeUnknown(new Error('Choose a company'))).toBe(false)
  })
})

describe('callUntilKnown', () => {
  it('answers at once when the first try answers, without checking', async () => {
    const onChecking = vi.fn()
    const { attempt } = attempts([], { id: 'x' })
    await expect(callUntilKnown(attempt, { onChecking })).resolves.toEqual({ id: 'x' })
    expect(attempt).toHaveBeenCalledTimes(1)
    expect(onChecking).not.toHaveBeenCalled()
  })

  it('says it is checking after a lost answer and asks again after each pause until it answers', async () => {
    const onChecking = vi.fn()
    const { attempt } = attempts([failure('deadline-exceeded'), failure('unavailable')], { id: 'x' })
    const known = callUntilKnown(attempt, { onChecking, delays: [1_000, 5_000] })
    await vi.advanceTimersByTimeAsync(0)
    expect(onChecking).toHaveBeenCalledTimes(1)
    expect(attempt).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(999)
    expect(attempt).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(attempt).toHaveBeenCalledTimes(2)
    expect(onChecking).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(5_000)
    await expect(known).resolves.toEqual({ id: 'x' })
    expect(attempt).toHaveBeenCalledTimes(3)
  })

  it('gives a refusal met on a check as the answer, without asking again', async () => {
    const refusal = failure('failed-precondition', 'This retest is no longer open.')
    const { attempt } = attempts([failure('internal'), refusal], null)
    const known = callUntilKnown(attempt, { delays: [1_000, 1_000] })
    const settled = expect(known).rejects.toBe(refusal)
    await vi.advanceTimersByTimeAsync(1_000)
    await settled
    expect(attempt).toHaveBeenCalledTimes(2)
  })

  it('says it could not check once every pause has passed without an answer', async () => {
    const { attempt } = attempts([failure('unavailable'), failure('unavailable'), failure('unavailable')], null)
    const known = callUntilKnown(attempt, { delays: [1_000, 2_000] })
    const settled = expect(known).rejects.toBeInstanceOf(UncheckedWrite)
    await vi.advanceTimersByTimeAsync(3_000)
    await settled
    expect(attempt).toHaveBeenCalledTimes(3)
  })

  it('stops checking when the page goes away', async () => {
    const stop = new AbortController()
    const { attempt } = attempts([failure('deadline-exceeded')], null)
    const known = callUntilKnown(attempt, { signal: stop.signal, delays: [10_000] })
    const settled = expect(known).rejects.toThrow('gone')
    await vi.advanceTimersByTimeAsync(0)
    stop.abort(new Error('gone'))
    await settled
    await vi.advanceTimersByTimeAsync(10_000)
    expect(attempt).toHaveBeenCalledTimes(1)
  })
})

describe('newRequestId', () => {
  it('makes ids the contract takes, a new one each time', () => {
    const id = newRequestId()
    expect(v.is(RequestIdSchema, id)).toBe(true)
    expect(newRequestId()).not.toBe(id)
  })
})
