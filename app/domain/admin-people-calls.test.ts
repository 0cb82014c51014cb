import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { allCompanyFlags } from './access.ts'
import {
  accessChangeRefusal,
  companiesLosingAdmin,
  InviteUserRequestSchema,
  peopleMessages,
  type Actor,
  type PersonAccess,
} from './admin-people-calls.ts'

const client = (accessLevel: number, companies: string[], more: Partial<PersonAccess> = {}): PersonAccess => ({
  userType: 'client',
  accessLevel,
  companies,
  servicesEnabled: [],
  servicesManaged: [],
  ...more,
})

const companyAdmin: Actor = { uid: 'admin', access: { accessLevel: 3, userType: 'client', servicesManaged: [] }, companies: ['acme'] }
const platform: Actor = { uid: 'platform', access: { accessLevel: 9, userType: 'analyst' }, companies: [] }
const flags = { acme: { ...allCompanyFlags(false), enableDast: true } }

describe('accessChangeRefusal', () => {
  it('lets a company admin raise a colleague up to their own level and give a service their company has on', () => {
    expect(
      accessChangeRefusal(companyAdmin, 'x', client(1, ['acme']), client(3, ['acme'], { servicesEnabled: ['dast'] }), flags),
    ).toBeNull()
  })

  it.each([
    ['an analyst', client(1, ['acme']), { ...client(5, ['acme']), userType: 'analyst' as const }, peopleMessages.analysts],
    ['a company of someone else', client(1, ['acme']), client(1, ['acme', 'globex']), peopleMessages.notYourCompany],
    [
      'a service the company has off',
      client(1, ['acme']),
      client(1, ['acme'], { servicesEnabled: ['cloud'] }),
      peopleMessages.moreThanYouHold,
    ],
    ['a managed service', client(1, ['acme']), client(1, ['acme'], { servicesManaged: ['dast'] }), peopleMessages.moreThanYouHold],
    ['a person of another company', client(1, ['globex']), client(2, ['globex']), peopleMessages.notYourCompany],
  ])('refuses a company admin %s', (_, before, after, message) => {
    expect(accessChangeRefusal(companyAdmin, 'x', before, after, flags)).toBe(message)
  })

  it('refuses anyone their own level or type, and their own deletion', () => {
    expect(accessChangeRefusal(platform, 'platform', client(9, []), client(7, []))).toBe(peopleMessages.yourself)
    expect(accessChangeRefusal(companyAdmin, 'admin', client(3, ['acme']), null)).toBe(peopleMessages.yourself)
    expect(
      accessChangeRefusal(companyAdmin, 'admin', client(3, ['acme']), client(3, ['acme'], { servicesEnabled: ['dast'] }), flags),
    ).toBeNull()
  })

  it('lets a platform admin do anything to others', () => {
    expect(accessChangeRefusal(platform, 'x', client(1, ['acme']), { ...client(9, []), userType: 'analyst' })).toBeNull()
  })
})

describe('companiesLosingAdmin', () => {
  it('names the companies where a client admin stops being one: removed, demoted or deleted', () => {
    expect(companiesLosingAdmin(client(3, ['acme', 'globex']), client(3, ['acme']))).toEqual(['globex'])
    expect(companiesLosingAdmin(client(3, ['acme']), client(2, ['acme']))).toEqual(['acme'])
    expect(companiesLosingAdmin(client(3, ['acme']), null)).toEqual(['acme'])
    expect(companiesLosingAdmin(client(2, ['acme']), null)).toEqual([])
  })
})

describe('InviteUserRequestSchema', () => {
  const request = { email: 'A@Acme.example', ...client(1, ['acme']), url: 'http://127.0.0.1:3000', timeZone: 'UTC' }

  it('lowercases the address and refuses a level that does not fit the type, or a client without a company', () => {
    expect(v.parse(InviteUserRequestSchema, request).email).toBe('a@acme.example')
    expect(v.safeParse(InviteUserRequestSchema, { ...request, accessLevel: 5 }).issues?.[0]?.message).toBe(peopleMessages.typeLevel)
    expect(v.safeParse(InviteUserRequestSchema, { ...request, companies: [] }).issues?.[0]?.message).toBe(peopleMessages.clientCompany)
  })
})
