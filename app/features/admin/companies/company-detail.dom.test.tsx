// @vitest-environment happy-dom
// A company's page opened before the workspace's list holds it (just created, say): it reads the
// company itself and says "No such company" only when the server says so.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { companyFromDocument, type Company } from '#domain/companies.ts'
import { readPreferences } from '#domain/users-preferences.ts'
import type { Watch } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'

// The company listener, driven by the test: what Firestore would send, or its refusal.
const company = vi.hoisted(() => ({
  next: (_: unknown) => {},
  fail: (_: Error) => {},
  asked: [] as string[],
}))
vi.mock('../org/org-live', () => ({
  watchCompany:
    (slug: string): Watch<unknown> =>
    (next, fail) => {
      company.asked.push(slug)
      company.next = next
      company.fail = fail
      return () => {}
    },
  // The page's other parts wait: they are not what this file is about.
  watchScanScope: (): Watch<unknown> => () => () => {},
  watchCompanyAudit: (): Watch<unknown> => () => () => {},
}))
vi.mock('../people/people-client', () => ({ listPeople: () => new Promise(() => {}) }))
// The company's KEV deadline as its document holds it.
const kevDays = vi.hoisted(() => ({ days: null as number | null }))
vi.mock('./kev-sla-live', () => ({ watchKevSlaDays: (): Watch<unknown> => (next) => (next(kevDays.days), () => {}) }))

const { CompanyDetail } = await import('./company-detail')

const newCo = companyFromDocument('new-co', { companyName: 'New Co', projectmariana: true })!
const workspace = (companies: Company[]): Workspace => ({
  access: { userType: 'analyst', accessLevel: LEVEL.seniorAnalyst },
  preferences: readPreferences(undefined),
  companies,
  company: companies[0] ?? null,
})

function renderDetail(ws: Workspace) {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <CompanyDetail slug="new-co" workspace={ws} /> }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return render(<RouterProvider router={router} />)
}

afterEach(() => {
  cleanup()
  company.asked.length = 0
})

describe('a company not (yet) in the workspace', () => {
  it('says it is loading until the server answers, then shows the company', async () => {
    renderDetail(workspace([]))
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the company…')
    expect(screen.queryByText('No such company')).toBeNull()
    await vi.waitFor(() => expect(company.asked).toEqual(['new-co']))
    act(() => company.next(newCo))
    expect(await screen.findByRole('heading', { name: 'New Co' })).toBeInTheDocument()
    expect(screen.queryByText('No such company')).toBeNull()
  })

  it('says there is no such company once the server says so, or refuses it', async () => {
    renderDetail(workspace([]))
    await vi.waitFor(() => expect(company.asked).toEqual(['new-co']))
    act(() => company.next(null))
    expect(await screen.findByRole('heading', { name: 'No such company' })).toBeInTheDocument()

    cleanup()
    renderDetail(workspace([]))
    await vi.waitFor(() => expect(company.asked).toHaveLength(2))
    act(() => company.fail(Object.assign(new Error('Missing or insufficient permissions.'), { code: 'permission-denied' })))
    expect(await screen.findByRole('heading', { name: 'No such company' })).toBeInTheDocument()
  })

  it('says the company could not be loaded when the read failed otherwise, with a retry', async () => {
    renderDetail(workspace([]))
    await vi.waitFor(() => expect(company.asked).toEqual(['new-co']))
    act(() => company.fail(Object.assign(new Error('Failed to get document because the client is offline.'), { code: 'unavailable' })))
    expect(await screen.findByRole('alert')).toHaveTextContent('The company could not be loaded.')
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument()
    expect(screen.queryByText('No such company')).toBeNull()
  })

  it('reads nothing for a company the workspace lists', async () => {
    renderDetail(workspace([newCo]))
    expect(await screen.findByRole('heading', { name: 'New Co' })).toBeInTheDocument()
    expect(company.asked).toEqual([])
  })
})

describe("a company's deadline for known exploited findings", () => {
  it('shows the days its SLA policy gives them, and refuses days out of range before saving', async () => {
    kevDays.days = 7
    renderDetail(workspace([newCo]))
    const field = await screen.findByRole('textbox', { name: 'Deadline for known exploited findings (days)' })
    expect(field).toHaveValue('7')
    const user = userEvent.setup()
    await user.clear(field)
    await user.type(field, '0')
    expect(await screen.findByText('Between 1 and 365 days.')).toBeInTheDocument()
    kevDays.days = null
  })
})
