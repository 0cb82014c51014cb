// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { draftFindingDocument, type DraftFinding } from '#domain/scan-drafts.ts'
import { DraftCvss } from './draft-cvss'

afterEach(cleanup)

const finding = (id: string, extra: Partial<DraftFinding> = {}): DraftFinding => ({
  id,
  ...draftFindingDocument(
    { ruleId: 'r', title: `Finding ${id}`, severity: 'medium', target: { kind: 'host', host: '10.0.0.5' }, raw: {} },
    'a'.repeat(64),
    'import@sectest.example',
    Date.UTC(2026, 0, 1),
  ),
  ...extra,
})

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'

describe('DraftCvss', () => {
  it('says in words what is wrong with a vector as it is typed, and cannot set it', async () => {
    render(<DraftCvss chosen={[finding('a')]} busy={false} onSet={vi.fn()} />)
    const box = screen.getByLabelText('CVSS vector')
    await userEvent.type(box, 'CVSS:3.1/AV:N')
    expect(box).toHaveAttribute('aria-invalid', 'true')
    expect(box).toHaveAccessibleDescription(/^Missing base metrics: AC \(Attack Complexity\), PR \(Privileges Required\)/)
    expect(screen.getByRole('button', { name: 'Set CVSS' })).toBeDisabled()

    await userEvent.clear(box)
    await userEvent.type(box, 'CVSS:2.0/AV:N')
    expect(box).toHaveAccessibleDescription('CVSS 2.0 is not supported: use a CVSS 3.1 or 4.0 vector.')
  })

  it('gives the score and the severity the findings take, minding those chosen by hand, and sets it', async () => {
    const onSet = vi.fn(async () => ({ changed: 2 }))
    const { rerender } = render(<DraftCvss chosen={[finding('a'), finding('b')]} busy={false} onSet={onSet} />)
    const box = screen.getByLabelText('CVSS vector')
    await userEvent.type(box, CRITICAL)
    expect(box).toHaveAttribute('aria-invalid', 'false')
    expect(box).toHaveAccessibleDescription('Score 9.8. The severity becomes Critical.')

    rerender(<DraftCvss chosen={[finding('a'), finding('b', { severityByHand: true })]} busy={false} onSet={onSet} />)
    expect(box).toHaveAccessibleDescription('Score 9.8. The severity becomes Critical, except for the 1 chosen by hand.')
    rerender(<DraftCvss chosen={[finding('b', { severityByHand: true })]} busy={false} onSet={onSet} />)
    expect(box).toHaveAccessibleDescription(
      'Score 9.8. The severity chosen by hand stays; choose "Follow the CVSS score" to make it Critical.',
    )

    await userEvent.click(screen.getByRole('button', { name: 'Set CVSS' }))
    expect(onSet).toHaveBeenCalledWith(CRITICAL)
    await vi.waitFor(() => expect(box).toHaveValue(''))
  })
})
