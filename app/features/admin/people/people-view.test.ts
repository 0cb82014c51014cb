import { describe, expect, it } from 'vitest'
import { PEOPLE_PAGE, type ListUsersRequest, type PersonRow } from '#domain/admin-people-calls.ts'
import { isFiltered, levelChoices, NO_FILTER, peopleRequest, readPeople, showingLine, type PeoplePage } from './people-view.ts'

const row = (overrides: Partial<PersonRow>): PersonRow => ({
  uid: 'u',
  email: 'someone@acme.example',
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
  ...overrides,
})

describe('levelChoices', () => {
  it('offers platform admins every level of the type, others up to their own and never an analyst level', () => {
    expect(levelChoices({ accessLevel: 9, userType: 'analyst' }, 'analyst')).toEqual([5, 7, 9])
    expect(levelChoices({ accessLevel: 3, userType: 'client' }, 'client')).toEqual([1, 2, 3])
    expect(levelChoices({ accessLevel: 7, userType: 'analyst' }, 'client')).toEqual([1, 2, 3])
    expect(levelChoices({ accessLevel: 3, userType: 'client' }, 'analyst')).toEqual([])
  })
})

describe('peopleRequest', () => {
  it("asks for the page's company, or the one a platform admin picks, with the start of the address lower-cased", () => {
    expect(peopleRequest('acme', { ...NO_FILTER, text: '  Ada@ ' })).toEqual({
      company: 'acme',
      emailPrefix: 'ada@',
      accessLevel: null,
      userType: null,
      removed: false,
    })
    expect(peopleRequest(null, { ...NO_FILTER, company: 'globex', level: '3', type: 'analyst' })).toEqual({
      company: 'globex',
      emailPrefix: '',
      accessLevel: 3,
      userType: 'analyst',
      removed: false,
    })
    expect(peopleRequest(null, NO_FILTER)).toMatchObject({ company: null })
    expect(isFiltered(NO_FILTER)).toBe(false)
    expect(isFiltered({ ...NO_FILTER, text: ' ' })).toBe(false)
    expect(isFiltered({ ...NO_FILTER, level: '1' })).toBe(true)
  })

  it("asks for a company's removed people, and never for everyone's", () => {
    expect(peopleRequest('acme', { ...NO_FILTER, show: 'removed' })).toMatchObject({ company: 'acme', removed: true })
    expect(peopleRequest(null, { ...NO_FILTER, company: 'globex', show: 'removed' })).toMatchObject({ company: 'globex', removed: true })
    expect(peopleRequest(null, { ...NO_FILTER, show: 'removed' })).toMatchObject({ company: null, removed: false })
  })
})

describe('showingLine', () => {
  it('counts with separators, one person or many', () => {
    expect(showingLine(50, 1234)).toBe('Showing 50 of 1,234 people')
    expect(showingLine(1, 1)).toBe('Showing 1 of 1 person')
    expect(showingLine(0, 0)).toBe('Showing 0 of 0 people')
  })
})

describe('readPeople', () => {
  // listUsers over a list in order of address, as the server pages it.
  const everyone = Array.from({ length: 430 }, (_, i) =>
    row({ uid: `u${String(i).padStart(3, '0')}`, email: `p${String(i).padStart(3, '0')}@x.example` }),
  )
  const asked: ListUsersRequest[] = []
  const page = async (request: ListUsersRequest): Promise<PeoplePage> => {
    asked.push(request)
    const from = request.cursor ? everyone.findIndex((p) => p.uid === request.cursor?.uid) + 1 : 0
    const people = everyone.slice(from, from + (request.pageSize ?? 50))
    const last = people.at(-1)
    const next = from + people.length < everyone.length && last ? { email: last.email, uid: last.uid } : null
    return { people, next, total: everyone.length, unlisted: request.cursor ? null : 2, mayChange: true }
  }

  it('reads a first page of at least the usual size', async () => {
    asked.length = 0
    const answer = await readPeople(page, { company: 'acme' }, 0)
    expect(answer.people).toHaveLength(PEOPLE_PAGE.size)
    expect(answer.next).toEqual({ email: 'p049@x.example', uid: 'u049' })
    expect(asked).toHaveLength(1)
  })

  it('reads again as many people as were shown, in pages of at most the largest, each once and in order', async () => {
    asked.length = 0
    const answer = await readPeople(page, { company: 'acme' }, 420)
    expect(answer.people.map((p) => p.uid)).toEqual(everyone.slice(0, 420).map((p) => p.uid))
    expect(asked.map((r) => r.pageSize)).toEqual([200, 200, 20])
    expect(answer.next).toEqual({ email: 'p419@x.example', uid: 'u419' })
    // What the first page said of the people left out holds for the whole answer.
    expect(answer.unlisted).toBe(2)
  })

  it('stops at the last page', async () => {
    const answer = await readPeople(page, { company: 'acme' }, 1000)
    expect(answer.people).toHaveLength(430)
    expect(answer.next).toBeNull()
  })
})
