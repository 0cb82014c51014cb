// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { VaultRequestInfo } from '#domain/vault-requests.ts'
import { AnswerRequest } from './answer-request'

// The lookup the page makes (a callable), answered by the test: a server's answer or a failure.
const lookups = vi.hoisted(() => ({ answers: [] as (() => Promise<unknown>)[], asked: 0 }))
vi.mock('./answer-open', () => ({
  lookAtRequest: () => {
    lookups.asked++
    const answer = lookups.answers.shift()
    return answer ? answer() : new Promise(() => {})
  },
  answerRequest: () => new Promise(() => {}),
}))

const ID = 'R'.repeat(22)
const FRAGMENT = `${'p'.repeat(87)}.${'s'.repeat(43)}`
const open: VaultRequestInfo = {
  status: 'open',
  senderName: 'Avery Analyst',
  companyName: 'Acme Corporation',
  company: 'acme',
  label: 'The staging database password',
  expiresAt: Date.UTC(2026, 11, 9, 12),
}

beforeEach(() => {
  lookups.answers = []
  lookups.asked = 0
  window.history.replaceState(null, '', `/vault/r/${ID}#${FRAGMENT}`)
})
afterEach(cleanup)

describe('AnswerRequest', () => {
  it('says a request whose lookup failed could not be checked, never that it does not exist, and Retry asks again', async () => {
    lookups.answers.push(() => Promise.reject(new Error('Our database cannot be reached just now.')))
    lookups.answers.push(() => Promise.resolve(open))
    render(<AnswerRequest id={ID} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('The link could not be checked just now')
    expect(document.body).not.toHaveTextContent(/does not exist|deleted|not complete/)

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('heading', { name: 'Avery Analyst asks you for a secret' })).toBeInTheDocument()
    expect(lookups.asked).toBe(2)
  })

  it('says the request does not exist only when the server answered so', async () => {
    lookups.answers.push(() => Promise.resolve({ status: 'not-found' }))
    render(<AnswerRequest id={ID} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('This request does not exist or has been deleted.')
  })
})
