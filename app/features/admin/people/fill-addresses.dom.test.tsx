// @vitest-environment happy-dom
// "Fill in missing addresses" follows fillMissingAddresses to the end, says how far it is and
// what it did, and after a failure goes on from the last stretch answered, not from the start.
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'

/** Three stretches of the collection; the second fails once when `failOnce` is set. */
const stretches: Record<string, { read: number; filled: number; withoutAccount: number; next: string | null }> = {
  start: { read: 200, filled: 150, withoutAccount: 1, next: 'u200' },
  u200: { read: 200, filled: 40, withoutAccount: 0, next: 'u400' },
  u400: { read: 12, filled: 2, withoutAccount: 2, next: null },
}
const asked: (string | null)[] = []
let failOnce = false

vi.mock('~/core/call', () => ({
  call: async (name: string, { cursor }: { cursor: string | null }) => {
    expect(name).toBe('fillMissingAddresses')
    asked.push(cursor)
    if (cursor === 'u200' && failOnce) {
      failOnce = false
      throw new Error('The service is not reachable.')
    }
    return stretches[cursor ?? 'start']
  },
}))

const { FillAddresses } = await import('./fill-addresses')

afterEach(() => {
  cleanup()
  asked.length = 0
})

describe('FillAddresses', () => {
  it('goes through every stretch and says what it filled and how many have no account', async () => {
    const onDone = vi.fn()
    render(<FillAddresses onDone={onDone} />)
    await userEvent.click(screen.getByRole('button', { name: 'Fill in missing addresses' }))
    expect(await screen.findByText('Addresses filled in: 192 filled, 3 without an account.')).toBeVisible()
    expect(asked).toEqual([null, 'u200', 'u400'])
    expect(onDone).toHaveBeenCalledOnce()
  })

  it('after a failure goes on from where the last answer stopped', async () => {
    failOnce = true
    const onDone = vi.fn()
    render(<FillAddresses onDone={onDone} />)
    await userEvent.click(screen.getByRole('button', { name: 'Fill in missing addresses' }))
    expect(await screen.findByText(/The service is not reachable\. \(150 filled, 1 without an account so far\)/)).toBeVisible()
    expect(onDone).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Go on' }))
    expect(await screen.findByText('Addresses filled in: 192 filled, 3 without an account.')).toBeVisible()
    expect(asked).toEqual([null, 'u200', 'u200', 'u400'])
  })
})
