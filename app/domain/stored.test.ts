import { describe, expect, it } from 'vitest'
import { storedTimes } from './stored.ts'

describe('storedTimes', () => {
  const toTimestamp = (millis: number) => ({ millis })

  it('turns the times of a record, nested ones and those in lists, into the SDK timestamps, and leaves other numbers', () => {
    const record = {
      publishedAt: 1,
      seenCount: 2,
      sla: { startedAt: 3, dueAt: null, pausedAt: 4 },
      results: [{ at: 5, note: 'x' }],
      notAfter: 6,
      remediationDays: [7, 8],
    }
    expect(storedTimes(record, toTimestamp)).toEqual({
      publishedAt: { millis: 1 },
      seenCount: 2,
      sla: { startedAt: { millis: 3 }, dueAt: null, pausedAt: { millis: 4 } },
      results: [{ at: { millis: 5 }, note: 'x' }],
      notAfter: { millis: 6 },
      remediationDays: [7, 8],
    })
  })

  it('leaves out undefined values and keeps class instances (server time stamps) as they are', () => {
    class Sentinel {}
    const sentinel = new Sentinel()
    expect(storedTimes({ a: undefined, updatedAt: sentinel }, toTimestamp)).toEqual({ updatedAt: sentinel })
    expect((storedTimes({ updatedAt: sentinel }, toTimestamp) as { updatedAt: unknown }).updatedAt).toBe(sentinel)
  })
})
