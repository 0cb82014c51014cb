// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { VaultLinkInfo } from '#domain/vault.ts'
import { RevealShare } from './reveal-share'

// The lookup the page makes (a callable), answered by the test: a server's answer or a failure.
const lookups = vi.hoisted(() => ({ answers: [] as (() => Promise<unknown>)[], asked: 0 }))
vi.mock('./share-open', () => ({
  lookAtLink: () => {
    lookups.asked++
    const answer = lookups.answers.shift()
    return answer ? answer() : new Promise(() => {})
  },
  revealLink: () => new Promise(() => {}),
}))

const ID = 'A'.repeat(22)
const KEY = 'k'.repeat(43)
const ready: VaultLinkInfo = {
  status: 'ready',
  senderName: 'Avery Analyst',
  companyName: 'Acme Corporation',
  label: 'VPN password',
  expiresAt: Date.UTC(2026, 11, 9, 12),
  viewsLeft: 1,
  kdf: null,
  recipient: null,
  files: 0,
}

beforeEach(() => {
  lookups.answers = []
  lookups.asked = 0
  window.history.replaceState(null, '', `/vault/s/${ID}#${KEY}`)
})
afterEach(cleanup)

describe('RevealShare', () => {
  it('says it is checking the link until the server answers', async () => {
    render(<RevealShare id={ID} />)
    expect(await screen.findByRole('status')).toHaveTextContent('Checking the link…')
    expect(document.body).not.toHaveTextContent(/does not exist|deleted/)
  })

  it('says a link whose lookup failed could not be checked, never that it does not exist, and Retry asks again', async () => {
    lookups.answers.push(() => Promise.reject(new Error('The service did not answer in time: try again.')))
    lookups.answers.push(() => Promise.resolve(ready))
    render(<RevealShare id={ID} />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('The link could not be checked just now')
    expect(document.body).not.toHaveTextContent(/does not exist|deleted|not complete/)

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('button', { name: 'Reveal' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'VPN password' })).toBeInTheDocument()
    expect(lookups.asked).toBe(2)
  })

  it('says the link does not exist only when the server answered so', async () => {
    lookups.answers.push(() => Promise.resolve({ status: 'not-found' }))
    render(<RevealShare id={ID} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('This link does not exist or has been deleted.')
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })
})
