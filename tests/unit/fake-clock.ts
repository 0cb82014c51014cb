// Fake timers for component tests with Testing Library. After each event it waits a zero timeout
// for React's work and advances the fake clock only when it sees Jest's; under vitest's clock that
// timeout would never fire, so it is shown how to advance this one.
import userEvent from '@testing-library/user-event'
import { vi } from 'vitest'

const holder = globalThis as { jest?: { advanceTimersByTime(ms: number): void } }

/** Fakes the clock and returns a user whose typing and clicking move it along. */
export function fakeClockUser() {
  vi.useFakeTimers()
  holder.jest = { advanceTimersByTime: (ms) => vi.advanceTimersByTime(ms) }
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
}

export function realClock(): void {
  delete holder.jest
  vi.useRealTimers()
}
