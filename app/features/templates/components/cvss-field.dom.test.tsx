// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TemplateCvss } from '#domain/finding-template.ts'
import { fakeClockUser, realClock } from '../../../../tests/unit/fake-clock'
import { CvssField } from './cvss-field'

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'

afterEach(() => {
  cleanup()
  realClock()
})

function setup(saved: TemplateCvss | null) {
  const saves: (TemplateCvss | null)[] = []
  const user = fakeClockUser()
  render(
    <CvssField
      saved={saved}
      save={async (value) => {
        saves.push(value)
      }}
    />,
  )
  const vector = screen.getByRole('textbox', { name: 'CVSS vector' })
  const builder = screen.getByRole('group', { name: 'CVSS vector builder' })
  const metric = (name: string) => within(builder).getByRole('radiogroup', { name: new RegExp(`^${name}`) })
  return { user, vector, builder, metric, saves }
}

describe('CvssField in the browser', () => {
  it('choosing a metric in the builder changes the vector and the score, and saves after the pause', async () => {
    const { user, vector, builder, metric, saves } = setup({ version: '3.1', vector: CRITICAL, score: 9.8 })
    expect(builder).toHaveTextContent('Score 9.8')

    await user.click(within(metric('Availability')).getByRole('radio', { name: 'None' }))
    expect(vector).toHaveValue('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N')
    expect(builder).toHaveTextContent('Score 9.1')
    expect(within(metric('Availability')).getByRole('radio', { name: 'None' })).toBeChecked()
    // The builder's pause lets a person click through several metrics first.
    expect(saves).toEqual([])

    await act(() => vi.advanceTimersByTimeAsync(2_000))
    expect(saves).toEqual([{ version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N', score: 9.1 }])
  })

  it('building from nothing has no score until every base metric is chosen', async () => {
    const { user, builder, vector, metric } = setup(null)
    expect(builder).toHaveTextContent('No vector')
    await user.click(within(metric('Attack Vector')).getByRole('radio', { name: 'Network' }))
    expect(vector).toHaveValue('CVSS:3.1/AV:N')
    expect(builder).toHaveTextContent('No score yet')
  })

  it('takes a pasted vector on Enter: the builder and the score follow and it is saved at once', async () => {
    const { user, vector, metric, builder, saves } = setup(null)
    await user.click(vector)
    await user.paste('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N')
    await user.keyboard('{Enter}')
    expect(builder).toHaveTextContent('Score 5.3')
    expect(within(metric('Confidentiality')).getByRole('radio', { name: 'Low' })).toBeChecked()
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(saves).toEqual([{ version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 5.3 }])
  })

  it('refuses a pasted vector it cannot read: it stays in the field with the reason and is not saved', async () => {
    const { user, vector, saves } = setup({ version: '3.1', vector: CRITICAL, score: 9.8 })
    await user.clear(vector)
    await user.paste('CVSS:3.1/AV:N/AC:Q')
    await user.keyboard('{Enter}')
    expect(vector).toHaveValue('CVSS:3.1/AV:N/AC:Q')
    expect(vector).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent(/AC/)
    expect(vector).toHaveAccessibleDescription(expect.stringMatching(/AC/))
    await act(() => vi.advanceTimersByTimeAsync(5_000))
    expect(saves).toEqual([])
  })
})
