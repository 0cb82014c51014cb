// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHECK_DELAYS_MS, writeCheckMessages } from '~/core/call-until-known'
import type { Workspace } from '~/core/workspace'
import type { SealedLink } from './share-link-seal'

// The browser's sealing and the callable, answered by the test: the sealed link is the test's, and
// each try of storing it takes the next answer (a lost one is the SDK's timeout).
const seal = vi.hoisted(() => ({
  sealed: [] as unknown[],
  stored: [] as unknown[],
  answers: [] as (() => Promise<void>)[],
}))
vi.mock('./share-link-seal', () => ({
  sealSecret: async (): Promise<SealedLink> => {
    const link = {
      request: { requestId: `request-${seal.sealed.length + 1}-0000000000` } as SealedLink['request'],
      id: 'A'.repeat(22),
      url: `http://127.0.0.1/vault/s/${'A'.repeat(22)}#${'k'.repeat(43)}`,
    }
    seal.sealed.push(link)
    return link
  },
  storeLink: (link: SealedLink) => {
    seal.stored.push(link)
    const answer = seal.answers.shift()
    return answer ? answer() : Promise.resolve()
  },
}))

const { ShareLinkForm } = await import('./share-link-form')

const lost = () => Promise.reject(Object.assign(new Error('The service did not answer in time: try again.'), { code: 'deadline-exceeded' }))
const unreachable = () =>
  Promise.reject(Object.assign(new Error('Our database cannot be reached just now, so nothing was changed.'), { code: 'unavailable' }))

const workspace = {
  company: { slug: 'acme', companyName: 'Acme Corporation' },
  companies: [{ slug: 'acme', companyName: 'Acme Corporation' }],
} as unknown as Workspace

/** Lets the form's awaits and the checks' pauses run, `ms` of fake time. */
const pass = (ms = 0) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)))

async function createLink() {
  render(<ShareLinkForm workspace={workspace} />)
  fireEvent.change(screen.getByLabelText('Secret'), { target: { value: 'vpn-password' } })
  fireEvent.click(screen.getByRole('button', { name: 'Create link' }))
  await pass()
}

beforeEach(() => {
  vi.useFakeTimers()
  seal.sealed = []
  seal.stored = []
  seal.answers = []
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('ShareLinkForm when the answer does not come', () => {
  it('says the link may have been saved and checks, then shows the link the first try stored', async () => {
    seal.answers.push(lost)
    await createLink()
    expect(screen.getByRole('status')).toHaveTextContent(writeCheckMessages.checking)
    expect(screen.getByRole('button', { name: 'Checking…' })).toBeDisabled()
    expect(document.body).not.toHaveTextContent('try again')

    await pass(CHECK_DELAYS_MS[0])
    expect(screen.getByRole('heading', { name: 'Your link is ready' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Share link' })).toHaveValue((seal.sealed[0] as SealedLink).url)
    // One link sealed, sent twice as the same request: its key is the one shown.
    expect(seal.sealed).toHaveLength(1)
    expect(seal.stored).toEqual([seal.sealed[0], seal.sealed[0]])
  })

  it('says it could not check once the checks meet no answer, and checks again with the same link', async () => {
    for (let n = 0; n <= CHECK_DELAYS_MS.length; n++) seal.answers.push(unreachable)
    await createLink()
    for (const delay of CHECK_DELAYS_MS) {
      expect(screen.getByRole('status')).toHaveTextContent(writeCheckMessages.checking)
      await pass(delay)
    }
    expect(screen.getByRole('status')).toHaveTextContent(writeCheckMessages.unchecked)
    expect(screen.queryByText(writeCheckMessages.checking)).toBeNull()
    expect(screen.getByLabelText('Secret')).toHaveValue('vpn-password')

    fireEvent.click(screen.getByRole('button', { name: 'Check again' }))
    await pass()
    expect(screen.getByRole('heading', { name: 'Your link is ready' })).toBeInTheDocument()
    expect(seal.sealed).toHaveLength(1)
    expect(new Set(seal.stored)).toEqual(new Set([seal.sealed[0]]))
    expect(seal.stored).toHaveLength(CHECK_DELAYS_MS.length + 2)
  })

  it('shows a refusal met while checking as it is', async () => {
    seal.answers.push(lost, () =>
      Promise.reject(Object.assign(new Error('Choose an expiry between 1 hour and 30 days from now.'), { code: 'invalid-argument' })),
    )
    await createLink()
    await pass(CHECK_DELAYS_MS[0])
    expect(screen.getByText('Choose an expiry between 1 hour and 30 days from now.')).toBeInTheDocument()
    expect(screen.queryByText(writeCheckMessages.checking)).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Your link is ready' })).toBeNull()
  })
})
