// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeClockUser, realClock } from '../../../tests/unit/fake-clock'
import { AutosaveTextField } from './autosave-text-field'

afterEach(() => {
  cleanup()
  realClock()
})

interface PendingSave {
  value: string
  resolve(): void
  reject(error: unknown): void
}

/**
 * A field over a stored value: each save waits until the test settles it, and a saved value comes
 * back as the stored one, as the live document does. `setStored` is a change made elsewhere.
 */
function setup(options: { validate?: (value: string) => string | null; describeError?: (error: unknown) => string } = {}) {
  const saves: PendingSave[] = []
  let setStored: (value: string) => void = () => {}
  function Document() {
    const [stored, store] = useState('Avery')
    setStored = store
    return (
      <AutosaveTextField
        label="Display name"
        saved={stored}
        save={(value) =>
          new Promise<void>((resolve, reject) => {
            saves.push({ value, resolve: () => (store(value), resolve()), reject })
          })
        }
        {...options}
      />
    )
  }
  const user = fakeClockUser()
  render(<Document />)
  const input = screen.getByRole('textbox', { name: 'Display name' })
  const status = () => screen.getByRole('status')
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
  const settle = (run: () => void) => act(async () => run())
  return { user, input, status, saves, wait, settle, elsewhere: (value: string) => act(() => setStored(value)) }
}

describe('an autosaved field and its frame', () => {
  it('waits while typing, shows the save in flight, then saved', async () => {
    const { user, input, status, saves, wait, settle } = setup()
    expect(status()).toHaveTextContent('Saved')
    await user.clear(input)
    await user.type(input, 'Avery Admin')
    expect(status()).toHaveTextContent('Waiting to save')
    expect(saves).toEqual([])

    await wait(250)
    expect(status()).toHaveTextContent('Saving')
    expect(saves.map((save) => save.value)).toEqual(['Avery Admin'])

    await settle(() => saves[0]!.resolve())
    expect(status()).toHaveTextContent('Saved')
    expect(input).toHaveValue('Avery Admin')
    expect(input).not.toHaveAttribute('aria-invalid')
  })

  it('saves at once on Enter', async () => {
    const { user, input, status, saves } = setup()
    await user.type(input, '!{Enter}')
    expect(status()).toHaveTextContent('Saving')
    expect(saves.map((save) => save.value)).toEqual(['Avery!'])
  })

  it('a failed save keeps what was typed and names the reason under the field', async () => {
    const { user, input, status, saves, wait, settle } = setup({ describeError: () => 'You are offline: not saved.' })
    await user.type(input, ' B')
    await wait(250)
    await settle(() => saves[0]!.reject(new Error('unavailable')))
    expect(status()).toHaveTextContent('Not saved')
    expect(input).toHaveValue('Avery B')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent('You are offline: not saved.')
    expect(input).toHaveAccessibleDescription('You are offline: not saved.')

    // Typing again gives the reason up until the next save says otherwise.
    await user.type(input, 'o')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await wait(250)
    await settle(() => saves[1]!.resolve())
    expect(status()).toHaveTextContent('Saved')
  })

  it('a value the field refuses is not saved, and the reason is shown', async () => {
    const { user, input, status, saves, wait } = setup({ validate: (value) => (value.length > 8 ? 'Keep it to 8 characters.' : null) })
    await user.type(input, ' Admin')
    await wait(250)
    expect(saves).toEqual([])
    expect(status()).toHaveTextContent('Not saved')
    expect(screen.getByRole('alert')).toHaveTextContent('Keep it to 8 characters.')
    expect(input).toHaveValue('Avery Admin')
  })

  it('a value changed elsewhere asks, after the lock delay, whether to take it; Accept takes it', async () => {
    const { user, input, status, wait, elsewhere } = setup()
    await elsewhere('Avery from the laptop')
    expect(status()).toHaveTextContent('Waiting to save')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()

    await wait(300)
    expect(screen.getByRole('alert')).toHaveTextContent('Changed elsewhere to “Avery from the laptop”.')
    expect(input).toHaveValue('Avery')
    await user.click(screen.getByRole('button', { name: 'Accept' }))
    expect(input).toHaveValue('Avery from the laptop')
    expect(status()).toHaveTextContent('Saved')
  })

  it('Reject keeps the value here unsaved until Enter saves it over the other one', async () => {
    const { user, input, status, saves, wait, settle, elsewhere } = setup()
    await elsewhere('Someone else')
    await wait(300)
    await user.click(screen.getByRole('button', { name: 'Reject' }))
    expect(status()).toHaveTextContent('Your value is kept here but not saved')
    expect(input).toHaveValue('Avery')
    expect(saves).toEqual([])

    await user.type(input, '{Enter}')
    expect(saves.map((save) => save.value)).toEqual(['Avery'])
    await settle(() => saves[0]!.resolve())
    expect(status()).toHaveTextContent('Saved')
  })

  it('a value stored elsewhere while its own save is out does not ask', async () => {
    const { user, input, status, saves, wait, settle, elsewhere } = setup()
    await user.type(input, ' A')
    await wait(250)
    await elsewhere('Avery from the laptop')
    await wait(300)
    expect(status()).toHaveTextContent('Saving')
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument()
    await settle(() => saves[0]!.resolve())
    expect(status()).toHaveTextContent('Saved')
    expect(input).toHaveValue('Avery A')
  })
})
