// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { retestFromDocument, type Retest } from '#domain/retests.ts'
import { CHECK_DELAYS_MS, writeCheckMessages } from '~/core/call-until-known'
import type { Watch } from '~/core/live-data'
import type { Capped } from '~/core/watch-query'
import { retestDocument } from '../../../../tests/builders.ts'

// The queue's listener, answered by the test as Firestore would.
const listener = vi.hoisted(() => ({ next: null as ((value: unknown) => void) | null }))
vi.mock('./analyst-live', () => ({
  RETESTS_LISTED: 50,
  watchRequestedRetests: (): Watch<Capped<Retest>> => (next) => {
    listener.next = next as (value: unknown) => void
    return () => {}
  },
}))

// The outcome callable, answered by the test: each try takes the next answer.
const calls = vi.hoisted(() => ({ made: [] as { name: string; data: unknown }[], answers: [] as (() => Promise<unknown>)[] }))
vi.mock('./analyst-calls', () => ({
  callAnalyst: (name: string, data: unknown) => {
    calls.made.push({ name, data })
    const answer = calls.answers.shift()
    return answer ? answer() : new Promise(() => {})
  },
  failureMessage: async (error: Error) => error.message,
}))

const { RetestQueue } = await import('./retest-queue')

afterEach(() => {
  cleanup()
  listener.next = null
  calls.made = []
  calls.answers = []
  vi.useRealTimers()
})

const DAY = 86_400_000
const retests = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    retestFromDocument(`r${i}`, retestDocument('network', [`f${i}`], {}, Date.UTC(2026, 0, 1) + i * DAY))!,
  )

describe('RetestQueue', () => {
  it('lists the soonest due and says when more wait beyond them', async () => {
    render(<RetestQueue company="acme" service="network" />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading the retest requests')
    await vi.waitFor(() => expect(listener.next).not.toBeNull())
    await act(async () => listener.next!({ items: retests(50), more: true }))
    const panel = screen.getByRole('region', { name: 'Retests waiting on us' })
    expect(within(panel).getAllByRole('group', { name: /^Outcome of / })).toHaveLength(50)
    expect(within(panel).getByRole('note')).toHaveTextContent(
      'The 50 soonest due retest requests are shown; there are more. The next ones appear as these are answered.',
    )
  })

  it('says nothing of a cap when every request is listed', async () => {
    render(<RetestQueue company="acme" service="network" />)
    await vi.waitFor(() => expect(listener.next).not.toBeNull())
    await act(async () => listener.next!({ items: retests(3), more: false }))
    expect(screen.getAllByRole('group', { name: /^Outcome of / })).toHaveLength(3)
    expect(screen.queryByRole('note')).toBeNull()
  })

  it('says an outcome whose answer did not come may have been saved, checks it under the same request, then shows what is true', async () => {
    vi.useFakeTimers()
    calls.answers.push(
      () => Promise.reject(Object.assign(new Error('The service did not answer in time: try again.'), { code: 'deadline-exceeded' })),
      async () => ({ completed: true, refused: [] }),
    )
    render(<RetestQueue company="acme" service="network" />)
    await act(async () => void (await vi.advanceTimersByTimeAsync(0)))
    await act(async () => listener.next!({ items: retests(1), more: false }))
    const outcome = screen.getByRole('group', { name: /^Outcome of / })
    fireEvent.click(within(outcome).getByRole('button', { name: 'Fixed' }))
    await act(async () => void (await vi.advanceTimersByTimeAsync(0)))
    expect(screen.getByRole('status')).toHaveTextContent(writeCheckMessages.checking)
    expect(within(outcome).getByRole('button', { name: 'Fixed' })).toBeDisabled()

    await act(async () => void (await vi.advanceTimersByTimeAsync(CHECK_DELAYS_MS[0]!)))
    expect(screen.queryByText(writeCheckMessages.checking)).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
    const [first, second] = calls.made.map((c) => c.data as { requestId: string })
    expect(calls.made.map((c) => c.name)).toEqual(['completeRetest', 'completeRetest'])
    expect(second!.requestId).toBe(first!.requestId)
  })

  it("sends the analyst's note of what was retested with the outcome", async () => {
    calls.answers.push(async () => ({ completed: true, refused: [] }))
    render(<RetestQueue company="acme" service="network" />)
    await vi.waitFor(() => expect(listener.next).not.toBeNull())
    await act(async () => listener.next!({ items: retests(1), more: false }))
    const note = screen.getByLabelText(/^Note for .* \(optional\)$/)
    fireEvent.change(note, { target: { value: '  Sent the exploit request again: 403, the patched version 2.4.58 answers.  ' } })
    fireEvent.click(within(screen.getByRole('group', { name: /^Outcome of / })).getByRole('button', { name: 'Fixed' }))
    await vi.waitFor(() => expect(calls.made).toHaveLength(1))
    expect(calls.made[0]!.data).toMatchObject({
      results: [{ findingId: 'f0', outcome: 'fixed', note: 'Sent the exploit request again: 403, the patched version 2.4.58 answers.' }],
    })
  })
})
