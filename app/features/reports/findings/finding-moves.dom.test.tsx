// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { Access } from '#domain/access.ts'
import type { Finding, FindingStatus } from '#domain/findings.ts'
import { findingDocument } from '../../../../tests/builders.ts'
import { FindingView } from './finding-page'
import { formatTime } from '~/ui/local-time'

afterEach(cleanup)

const people: Record<string, Access> = {
  viewer: { accessLevel: 1, userType: 'client' },
  manager: { accessLevel: 2, userType: 'client' },
  'company admin': { accessLevel: 3, userType: 'client' },
  analyst: { accessLevel: 5, userType: 'analyst' },
}

const finding = (status: FindingStatus, overrides: Partial<Finding> = {}): Finding => ({
  id: 'f1',
  ...findingDocument('dast', { status, title: 'SQL injection', ...overrides }),
})

function renderAs(who: keyof typeof people, subject: Finding) {
  render(
    <FindingView
      company="acme"
      finding={subject}
      workspace={{ access: people[who]! }}
      history={[]}
      comments={[]}
      occurrences={[]}
      retests={[]}
    />,
  )
}

/** The labels of the workflow buttons shown, or none. */
const moves = () => {
  const group = screen.queryByRole('group', { name: 'Workflow' })
  return group
    ? within(group)
        .getAllByRole('button')
        .map((b) => b.textContent)
    : []
}

describe('the moves a finding page offers', () => {
  it.each([
    ['viewer', 'open', []],
    ['manager', 'open', ['Start remediation', 'Request retest', 'Ask to accept the risk', 'Dispute']],
    ['manager', 'acceptance_requested', []],
    ['company admin', 'acceptance_requested', ['Approve risk acceptance', 'Refuse risk acceptance']],
    ['manager', 'retest_requested', []],
    ['analyst', 'open', ['Mark false positive', 'Mark duplicate', 'Mark out of scope']],
    ['analyst', 'fixed', ['Reopen']],
    ['viewer', 'retest_requested', []],
  ] as const)('%s, finding %s: %j', (who, status, expected) => {
    renderAs(who, finding(status))
    expect(moves()).toEqual(expected)
  })

  it('gives an analyst the outcomes of a requested retest', () => {
    renderAs('analyst', finding('retest_requested', { retestId: 'r1' }))
    expect(moves()).toEqual(['Retest: fixed', 'Retest: partly fixed', 'Retest: not fixed'])
  })

  it('asks for a note and an expiry where the move needs them', async () => {
    const user = userEvent.setup()
    renderAs('manager', finding('open'))
    await user.click(screen.getByRole('button', { name: 'Ask to accept the risk' }))
    const dialog = await screen.findByRole('dialog', { name: 'Ask to accept the risk' })
    expect(within(dialog).getByLabelText('Reason')).toBeRequired()
    expect(within(dialog).getByLabelText('Acceptance ends on')).toHaveAttribute('type', 'date')
    await user.click(within(dialog).getByRole('button', { name: 'Ask to accept the risk' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Write a note: this step needs one.')
  })

  it('shows the accepted risk with its expiry', () => {
    const at = Date.UTC(2026, 0, 10)
    renderAs(
      'viewer',
      finding('risk_accepted', {
        riskAcceptance: {
          requestedByUid: 'm',
          requestedByName: 'Mario Manager',
          requestedAt: at,
          reason: 'Compensating control',
          expiresAt: Date.UTC(2026, 5, 30),
          decidedByUid: 'a',
          decidedByName: 'Ada Admin',
          decidedAt: at,
        },
      }),
    )
    const card = screen.getByRole('region', { name: 'Risk acceptance' })
    expect(card).toHaveTextContent(`Accepted until${formatTime(Date.UTC(2026, 5, 30), 'date')}`)
    expect(card).toHaveTextContent('Approved byAda Admin')
  })
})
