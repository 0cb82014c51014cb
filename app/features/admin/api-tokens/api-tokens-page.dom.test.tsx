// @vitest-environment happy-dom
// The API tokens page: waiting for the list, then its empty state; a token made from the keyboard
// with the scopes ticked is asked for as the contract says and shown once; a refused form says why
// before anything is sent; an active token is revoked through its dialog.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiToken } from '#domain/api-tokens.ts'
import type { Company } from '#domain/companies.ts'
import type { Workspace } from '~/core/workspace'
import type { Watch } from '~/core/live-data'

const listener = vi.hoisted(() => ({ next: null as ((tokens: ApiToken[]) => void) | null }))
vi.mock('../org/org-live', () => ({
  watchApiTokens: (): Watch<ApiToken[]> => (next) => {
    listener.next = next
    return () => {}
  },
}))
const calls = vi.hoisted(() => [] as { name: string; data: unknown }[])
vi.mock('~/core/call', () => ({
  call: async (name: string, data: unknown) => {
    calls.push({ name, data })
    return name === 'createApiToken' ? { id: 'A'.repeat(16), token: 'bwk_api_secret-shown-once' } : { revoked: true }
  },
}))

const { ApiTokensPage } = await import('./api-tokens-page')

afterEach(() => {
  cleanup()
  listener.next = null
  calls.length = 0
})

const company = { slug: 'acme', companyName: 'Acme' } as Company
const workspace = { company } as Workspace
const NOW = Date.now()
const token = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: 'B'.repeat(16),
  company: 'acme',
  name: 'Jira sync',
  hint: `bwk_api_${'B'.repeat(16)}…wxyz`,
  scopes: ['findings:read'],
  expiresAt: NOW + 86_400_000,
  createdAt: NOW - 86_400_000,
  createdBy: 'admin@acme.example',
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: null,
  lastUsedIp: null,
  ...overrides,
})

describe('ApiTokensPage', () => {
  it('says it is loading the tokens, then that there are none', async () => {
    render(<ApiTokensPage workspace={workspace} />)
    expect(await screen.findByText(/the tokens/i)).toBeVisible()
    await vi.waitFor(() => expect(listener.next).not.toBeNull())
    await act(async () => listener.next!([]))
    expect(screen.getByText('No tokens yet.')).toBeVisible()
  })

  it('makes a token from the keyboard with the scopes ticked and shows it once', async () => {
    render(<ApiTokensPage workspace={workspace} />)
    const form = screen.getByRole('form', { name: 'New API token' })
    await userEvent.click(within(form).getByLabelText('Name'))
    await userEvent.keyboard('Jira sync')
    // Read findings is ticked to start with; Space ticks the DAST scope too.
    expect(within(form).getByRole('checkbox', { name: /Read findings and scans/ })).toBeChecked()
    within(form)
      .getByRole('checkbox', { name: /Trigger DAST scans/ })
      .focus()
    await userEvent.keyboard(' ')
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }))
    expect(calls).toEqual([
      {
        name: 'createApiToken',
        data: { company: 'acme', name: 'Jira sync', scopes: ['findings:read', 'dast:trigger'], expiresInDays: 90 },
      },
    ])
    const dialog = await screen.findByRole('dialog', { name: 'Copy your API token now' })
    expect(within(dialog).getByLabelText('API token')).toHaveValue('bwk_api_secret-shown-once')
    await userEvent.click(within(dialog).getByRole('button', { name: 'I have stored the token' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('refuses a token without a scope before asking the server', async () => {
    render(<ApiTokensPage workspace={workspace} />)
    const form = screen.getByRole('form', { name: 'New API token' })
    await userEvent.type(within(form).getByLabelText('Name'), 'Nothing')
    await userEvent.click(within(form).getByRole('checkbox', { name: /Read findings and scans/ }))
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }))
    expect(await within(form).findByText('Choose at least one thing the token may do.')).toBeVisible()
    expect(calls).toEqual([])
  })

  it('lists each token with its scopes and last use, and revokes an active one', async () => {
    render(<ApiTokensPage workspace={workspace} />)
    await vi.waitFor(() => expect(listener.next).not.toBeNull())
    await act(async () =>
      listener.next!([
        token(),
        token({ id: 'C'.repeat(16), name: 'Old', revokedAt: NOW - 1, lastUsedAt: NOW - 60_000, lastUsedIp: '203.0.113.7' }),
      ]),
    )
    const table = screen.getByRole('table', { name: 'API tokens' })
    const active = within(table).getByRole('row', { name: /Jira sync/ })
    expect(active).toHaveTextContent('findings:read')
    expect(active).toHaveTextContent('Never')
    const old = within(table).getByRole('row', { name: /Old/ })
    expect(old).toHaveTextContent('Revoked')
    expect(old).toHaveTextContent('203.0.113.7')
    expect(within(old).queryByRole('button', { name: /Revoke/ })).toBeNull()
    await userEvent.click(within(active).getByRole('button', { name: 'Revoke Jira sync' }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke token' }))
    expect(calls).toEqual([{ name: 'revokeApiToken', data: { id: 'B'.repeat(16) } }])
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
