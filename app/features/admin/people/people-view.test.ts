import { describe, expect, it } from 'vitest'
import type { PersonRow } from '#domain/admin-people-calls.ts'
import { filterPeople, levelChoices, NO_FILTER } from './people-view.ts'

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

describe('filterPeople', () => {
  const rows = [
    row({ uid: 'a', email: 'ada@acme.example', displayName: 'Ada Admin', accessLevel: 3 }),
    row({ uid: 'b', email: 'bob@globex.example', companies: ['globex'] }),
    row({ uid: 'c', email: 'cy@sectest.example', userType: 'analyst', accessLevel: 5, companies: ['acme', 'globex'] }),
  ]
  const uids = (filter: Partial<typeof NO_FILTER>) => filterPeople(rows, { ...NO_FILTER, ...filter }).map((r) => r.uid)

  it('finds text in the address or the name, whatever the case', () => {
    expect(uids({ text: 'ADA' })).toEqual(['a'])
    expect(uids({ text: 'globex' })).toEqual(['b'])
  })

  it('filters by company, level and type together', () => {
    expect(uids({ company: 'globex' })).toEqual(['b', 'c'])
    expect(uids({ company: 'acme', level: '3' })).toEqual(['a'])
    expect(uids({ type: 'analyst' })).toEqual(['c'])
    expect(uids({})).toEqual(['a', 'b', 'c'])
  })

  it('filters by last sign-in: within 30 days, longer ago, never', () => {
    const now = Date.UTC(2026, 10, 20)
    const day = 24 * 3600_000
    const signedIn = [row({ uid: 'r', lastSignInAt: now - day }), row({ uid: 's', lastSignInAt: now - 40 * day }), row({ uid: 'n' })]
    const by = (signIn: string) => filterPeople(signedIn, { ...NO_FILTER, signIn }, now).map((r) => r.uid)
    expect(by('recent')).toEqual(['r'])
    expect(by('stale')).toEqual(['s'])
    expect(by('never')).toEqual(['n'])
  })
})
