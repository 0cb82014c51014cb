// @vitest-environment happy-dom
// The enrolment token is shown once: it and the commands that use it each have a copy button.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { TokenShown } from './agents-panel'

afterEach(cleanup)

describe('an enrolment token shown once', () => {
  it('copies the token, or the commands to run with it, and says it did', async () => {
    const user = userEvent.setup()
    render(<TokenShown token="bwk_enrol_abc123" expiresAt={Date.UTC(2026, 10, 21)} />)
    await user.click(screen.getByRole('button', { name: 'Copy token' }))
    expect(await navigator.clipboard.readText()).toBe('bwk_enrol_abc123')
    expect(screen.getByRole('button', { name: 'Copied' })).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Copy the commands' }))
    await act(async () => {})
    expect(await navigator.clipboard.readText()).toBe(screen.getByTestId('enrol-command').textContent)
    expect(await navigator.clipboard.readText()).toMatch(/^npm run agent -- enrol bwk_enrol_abc123 --server /)
  })
})
