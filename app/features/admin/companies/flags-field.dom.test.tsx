// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { allCompanyFlags } from '#domain/access.ts'
import { fakeClockUser, realClock } from '../../../../tests/unit/fake-clock'
import { FlagsField, type FlagValues } from './flags-field'

afterEach(() => {
  cleanup()
  realClock()
})

/** The field over a stored company: a save stores what it sent, as the live document brings it back. */
function setup() {
  const saves: Partial<FlagValues>[] = []
  let setStored: (flags: FlagValues) => void = () => {}
  function Company() {
    const [stored, store] = useState<FlagValues>({ ...allCompanyFlags(false), enableDast: true })
    setStored = store
    return (
      <FlagsField
        saved={stored}
        save={async (changes) => {
          saves.push(changes)
          store((current) => ({ ...current, ...changes }))
        }}
      />
    )
  }
  const user = fakeClockUser()
  render(<Company />)
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
  return { user, saves, wait, elsewhere: (flags: FlagValues) => act(() => setStored(flags)) }
}

describe('the service switches of a company', () => {
  it('saves only the switches changed, after the pause, and shows them saved', async () => {
    const { user, saves, wait } = setup()
    await user.click(screen.getByRole('checkbox', { name: 'Network results' }))
    await user.click(screen.getByRole('checkbox', { name: 'DAST results' }))
    expect(saves).toEqual([])
    await wait(300)
    expect(saves).toEqual([{ enableViewResultsNetwork: true, enableDast: false }])
    await wait(400)
    expect(screen.getByRole('status')).toHaveTextContent('Saved')
    expect(screen.getByRole('checkbox', { name: 'Network results' })).toBeChecked()
  })

  it('asks before taking a change made elsewhere (the autosave refresh alert), and Accept takes it', async () => {
    const { user, elsewhere, wait, saves } = setup()
    elsewhere({ ...allCompanyFlags(false), enableDastTriggering: true })
    await wait(300)
    expect(screen.getByRole('alert')).toHaveTextContent('Changed elsewhere to “DAST triggering from pipelines”.')
    expect(screen.getByRole('checkbox', { name: 'DAST results' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Accept' }))
    expect(screen.getByRole('checkbox', { name: 'DAST triggering from pipelines' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'DAST results' })).not.toBeChecked()
    expect(saves).toEqual([])
  })
})
