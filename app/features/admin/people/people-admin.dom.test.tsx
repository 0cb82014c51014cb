// @vitest-environment happy-dom
// The people table a page at a time: the count, "Show more", the search that asks the server, and
// a change that shows in the rows loaded. listUsers is answered from a list in order of address.
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ListUsersRequest, PersonRow } from '#domain/admin-people-calls.ts'
import type { PeoplePage } from './people-view'

const person = (i: number): PersonRow => ({
  uid: `u${String(i).padStart(3, '0')}`,
  email: `${i < 10 ? 'ada' : 'bob'}-${String(i).padStart(3, '0')}@acme.example`,
  displayName: null,
  disabled: false,
  createdAt: null,
  lastSignInAt: null,
  userType: 'client',
  accessLevel: 1,
  companies: ['acme'],
  servicesEnabled: [],
  servicesManaged: [],
  inOtherCompanies: false,
  removed: false,
})

let everyone: PersonRow[] = []
const asked: ListUsersRequest[] = []
let answerLater: Promise<void> | null = null

vi.mock('./people-client', () => ({
  listPeople: async (request: ListUsersRequest): Promise<PeoplePage> => {
    asked.push(request)
    await answerLater
    const matching = everyone.filter((p) => p.email?.startsWith(request.emailPrefix ?? ''))
    const from = request.cursor ? matching.findIndex((p) => p.uid === request.cursor?.uid) + 1 : 0
    const people = matching.slice(from, from + (request.pageSize ?? 50))
    const last = people.at(-1)
    const next = from + people.length < matching.length && last ? { email: last.email, uid: last.uid } : null
    return { people, next, total: matching.length, unlisted: request.cursor || request.emailPrefix ? null : 0, mayChange: true }
  },
  deletePerson: async (uid: string) => {
    everyone = everyone.filter((p) => p.uid !== uid)
    return { changed: true }
  },
}))

const { PeopleAdmin } = await import('./people-admin')

afterEach(() => {
  cleanup()
  asked.length = 0
  answerLater = null
})

const open = () => render(<PeopleAdmin actor={{ accessLevel: 9, userType: 'analyst' }} uid="me" companies={[]} company={null} />)
const table = () => screen.getByRole('table', { name: 'People' })
const rows = () => within(table()).getAllByRole('row').slice(1)

describe('the people table', () => {
  it('says it is loading, never that there is nobody, until the answer comes', async () => {
    everyone = Array.from({ length: 3 }, (_, i) => person(i))
    let answer = () => {}
    answerLater = new Promise((resolve) => (answer = resolve))
    open()
    expect(screen.getByRole('status')).toHaveTextContent('Loading the people…')
    expect(screen.queryByText(/Nobody/)).toBeNull()
    answer()
    expect(await screen.findByText('Showing 3 of 3 people.')).toBeVisible()
  })

  it('shows the first page with the count of everyone, and loads more from the server with the keyboard', async () => {
    everyone = Array.from({ length: 120 }, (_, i) => person(i))
    open()
    expect(await screen.findByText(/Showing 50 of 120 people\./)).toBeVisible()
    expect(rows()).toHaveLength(50)
    const more = screen.getByRole('button', { name: 'Show 50 more' })
    more.focus()
    await userEvent.keyboard('{Enter}')
    expect(await screen.findByText(/Showing 100 of 120 people\./)).toBeVisible()
    expect(asked.at(-1)).toMatchObject({ cursor: { uid: 'u049' } })
    await userEvent.click(screen.getByRole('button', { name: 'Show 20 more' }))
    expect(await screen.findByText('Showing 120 of 120 people.')).toBeVisible()
    expect(rows().map((row) => row.textContent)).toEqual(everyone.map((p) => expect.stringContaining(p.email!)))
    expect(screen.queryByRole('button', { name: /^Show \d+ more$/ })).toBeNull()
  })

  it('searches by the start of the address on the server, and says when nobody matches', async () => {
    everyone = Array.from({ length: 120 }, (_, i) => person(i))
    open()
    await screen.findByText(/Showing 50 of 120 people\./)
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search people' }), 'ADA')
    expect(await screen.findByText('Showing 10 of 10 people matching these filters.')).toBeVisible()
    expect(asked.at(-1)).toMatchObject({ emailPrefix: 'ada', cursor: null })
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search people' }), 'x')
    expect(await screen.findByText('Nobody matches these filters.')).toBeVisible()
  })

  it('reads the rows loaded again after a change, so the list shows it', async () => {
    everyone = Array.from({ length: 120 }, (_, i) => person(i))
    open()
    await screen.findByText(/Showing 50 of 120 people\./)
    await userEvent.click(screen.getByRole('button', { name: 'Show 50 more' }))
    await screen.findByText(/Showing 100 of 120 people\./)
    await userEvent.click(screen.getByRole('button', { name: 'Delete bob-070@acme.example' }))
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete account' })).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText(/Showing 100 of 119 people\./)).toBeVisible()
    await waitFor(() => expect(screen.queryByText('bob-070@acme.example')).toBeNull())
    expect(within(table()).getByText('bob-100@acme.example')).toBeVisible()
  })
})
