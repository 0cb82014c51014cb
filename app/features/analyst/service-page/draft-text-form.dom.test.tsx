// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { draftFindingDocument, type DraftFinding } from '#domain/scan-drafts.ts'

// The review callable, answered by the test: each call takes the next answer (none: it waits).
const calls = vi.hoisted(() => ({ made: [] as { name: string; data: unknown }[], answers: [] as (() => Promise<unknown>)[] }))
vi.mock('./analyst-calls', () => ({
  callAnalyst: (name: string, data: unknown) => {
    calls.made.push({ name, data })
    const answer = calls.answers.shift()
    return answer ? answer() : new Promise(() => {})
  },
  failureMessage: async (error: Error) => error.message,
}))

const { DraftTextForm } = await import('./draft-text-form')

afterEach(() => {
  cleanup()
  calls.made.length = 0
  calls.answers.length = 0
})

const finding = (extra: Partial<DraftFinding> = {}): DraftFinding => ({
  id: 'f-ssh',
  ...draftFindingDocument(
    {
      ruleId: 'ssh-weak',
      title: 'Weak SSH ciphers',
      severity: 'medium',
      target: { kind: 'host', host: '10.0.0.5', port: 22 },
      description: 'The scanner’s description.',
      remediation: 'The scanner’s remediation.',
      raw: {},
    },
    'a'.repeat(64),
    'import@sectest.example',
    Date.UTC(2026, 0, 1),
  ),
  ...extra,
})

describe('DraftTextForm', () => {
  it('sends only the fields changed, says saving then saved, and follows the stored text', async () => {
    let answer: (value: unknown) => void = () => {}
    calls.answers.push(() => new Promise((resolve) => (answer = resolve)))
    const { rerender } = render(<DraftTextForm company="acme" scanId="imp-1" finding={finding()} />)
    const save = screen.getByRole('button', { name: 'Save text' })
    expect(save).toBeDisabled()

    await userEvent.clear(screen.getByLabelText('Title'))
    await userEvent.type(screen.getByLabelText('Title'), 'Weak SSH ciphers on the jump host')
    await userEvent.type(screen.getByLabelText('Description'), ' Seen from the internet.')
    await userEvent.click(save)

    expect(calls.made).toEqual([
      {
        name: 'reviewDraftFindings',
        data: {
          company: 'acme',
          scanId: 'imp-1',
          findingIds: ['f-ssh'],
          review: {
            kind: 'text',
            title: 'Weak SSH ciphers on the jump host',
            description: 'The scanner’s description. Seen from the internet.',
          },
        },
      },
    ])
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled()
    await act(async () => answer({ changed: 1 }))
    expect(screen.getByRole('status')).toHaveTextContent('Saved')

    // The listener brings the saved text: nothing is left to save, and the fields are marked as the analyst's.
    rerender(
      <DraftTextForm
        company="acme"
        scanId="imp-1"
        finding={finding({
          title: 'Weak SSH ciphers on the jump host',
          description: 'The scanner’s description. Seen from the internet.',
          edited: ['title', 'description'],
        })}
      />,
    )
    expect(screen.getByRole('button', { name: 'Save text' })).toBeDisabled()
    expect(screen.getByText('Title').closest('label')).toHaveTextContent('Title (yours)')
    expect(screen.getByLabelText('Remediation')).toHaveValue('The scanner’s remediation.')
  })

  it('keeps a title, says when the template’s text is published, and shows a refusal in words', async () => {
    calls.answers.push(() => Promise.reject(new Error('You may not review this service’s scans.')))
    render(
      <DraftTextForm company="acme" scanId="imp-1" finding={finding({ templateSlug: 'ssh-weak-ciphers', templateSource: 'mapping' })} />,
    )
    expect(screen.getByLabelText('Description')).toHaveAccessibleDescription(
      'Published from the template ssh-weak-ciphers unless you change it.',
    )

    await userEvent.clear(screen.getByLabelText('Title'))
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByText('A finding needs a title.')).toBeVisible()
    expect(screen.getByRole('button', { name: 'Save text' })).toBeDisabled()

    await userEvent.type(screen.getByLabelText('Title'), 'Weak SSH')
    await userEvent.type(screen.getByLabelText('Remediation'), '{Enter}Disable CBC.')
    await userEvent.click(screen.getByRole('button', { name: 'Save text' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You may not review this service’s scans.')
    // What was typed stays, to save again.
    expect(screen.getByLabelText('Remediation')).toHaveValue('The scanner’s remediation.\nDisable CBC.')
  })
})
