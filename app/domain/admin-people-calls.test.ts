import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { allCompanyFlags } from './access.ts'
import {
  accessChangeRefusal,
  accessWithin,
  companiesLosingAdmin,
  InviteUserRequestSchema,
  keepingHidden,
  peopleMessages,
  restoreRefusal,
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

  // The seed's shapes: Ada administers acme and umbrella; Mario is a manager of acme, globex and initech.
  describe('someone who also belongs to a company the admin does not administer', () => {
    const ada: Actor = { uid: 'ada', access: { accessLevel: 3, userType: 'client', servicesManaged: [] }, companies: ['acme', 'umbrella'] }
    const both = { acme: flags.acme, umbrella: flags.acme }
    const mario = client(2, ['acme', 'globex', 'initech'])

    it.each([
      ['raised to company admin (the review exploit)', mario, client(3, ['acme', 'globex', 'initech'])],
      ['lowered', mario, client(1, ['acme', 'globex', 'initech'])],
      ['demoted from company admin of the other company', client(3, ['acme', 'globex']), client(2, ['acme', 'globex'])],
      ['given a service', mario, client(2, ['acme', 'globex', 'initech'], { servicesEnabled: ['dast'] })],
      ['relieved of a service', client(2, ['acme', 'globex'], { servicesEnabled: ['dast'] }), client(2, ['acme', 'globex'])],
      ['given a service to manage', mario, client(2, ['acme', 'globex', 'initech'], { servicesManaged: ['dast'] })],
      ['raised while added to one of the admin’s companies', mario, client(3, ['acme', 'globex', 'initech', 'umbrella'])],
    ])('refuses a change of rights when %s', (_, before, after) => {
      expect(accessChangeRefusal(ada, 'mario', before, after, both)).toBe(peopleMessages.otherCompanies)
    })

    it('refuses a change of type as for anyone (analysts are the platform admins’)', () => {
      expect(accessChangeRefusal(ada, 'mario', mario, { ...mario, accessLevel: 5, userType: 'analyst' }, both)).toBe(
        peopleMessages.analysts,
      )
    })

    it('lets the admin add or take away only their own companies, the rights as they are', () => {
      expect(accessChangeRefusal(ada, 'mario', mario, client(2, ['acme', 'globex', 'initech', 'umbrella']), both)).toBeNull()
      expect(accessChangeRefusal(ada, 'mario', mario, client(2, ['globex', 'initech']), both)).toBeNull()
      expect(accessChangeRefusal(ada, 'mario', mario, client(2, ['acme', 'initech']), both)).toBe(peopleMessages.notYourCompany)
    })

    it('still lets the admin change the rights of someone whose companies are all theirs', () => {
      expect(accessChangeRefusal(ada, 'x', client(2, ['acme', 'umbrella']), client(3, ['acme', 'umbrella']), both)).toBeNull()
    })

    it('lets a platform admin change their rights', () => {
      expect(accessChangeRefusal(platform, 'mario', mario, client(3, ['acme', 'globex', 'initech']))).toBeNull()
    })
  })

  it('lets a platform admin do anything to others', () => {
    expect(accessChangeRefusal(platform, 'x', client(1, ['acme']), { ...client(9, []), userType: 'analyst' })).toBeNull()
  })
})

describe('accessWithin and keepingHidden', () => {
  const switches = {
    acme: { ...allCompanyFlags(false), enableDast: true },
    globex: { ...allCompanyFlags(false), enableViewResultsNetwork: true },
  }
  const person = client(2, ['acme', 'globex'], { servicesEnabled: ['dast', 'network', 'cloud'] })

  it("keeps what concerns the viewer's companies: theirs, and the services switched on there", () => {
    expect(accessWithin(person, ['acme', 'umbrella'], switches)).toEqual(client(2, ['acme'], { servicesEnabled: ['dast'] }))
    expect(accessWithin(person, ['globex'], switches)).toEqual(client(2, ['globex'], { servicesEnabled: ['network'] }))
    expect(accessWithin(person, ['initech'], switches)).toEqual(client(2, []))
  })

  it('reads a change of what the viewer sees as one that keeps everything else', () => {
    const seen = accessWithin(person, ['acme', 'umbrella'], switches)
    expect(keepingHidden(person, seen, ['acme', 'umbrella'], switches)).toEqual({
      ...person,
      companies: ['acme', 'globex'],
      servicesEnabled: ['dast', 'network', 'cloud'],
    })
    const moved = keepingHidden(person, { ...seen, companies: ['umbrella'], servicesEnabled: [] }, ['acme', 'umbrella'], switches)
    expect(moved).toEqual({ ...person, companies: ['umbrella', 'globex'], servicesEnabled: ['network', 'cloud'] })
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

describe('restoreRefusal', () => {
  it('lets a company admin give their company back to a client removed from it, with the access they hold', () => {
    expect(restoreRefusal(companyAdmin, 'x', client(2, [], { servicesEnabled: ['dast'] }), ['acme'], 'acme', flags)).toBeNull()
    expect(restoreRefusal(companyAdmin, 'x', client(1, ['globex']), ['acme'], 'acme', flags)).toBeNull()
    expect(restoreRefusal(platform, 'x', client(1, []), ['acme'], 'acme', flags)).toBeNull()
  })

  it.each([
    ['a company they were not removed from', client(1, []), [], 'acme', peopleMessages.notRemoved],
    ['a company they are in already', client(1, ['acme']), ['acme'], 'acme', peopleMessages.notRemoved],
    ["another company's", client(1, []), ['globex'], 'globex', peopleMessages.notYourCompany],
    ['an analyst', { ...client(5, []), userType: 'analyst' as const }, ['acme'], 'acme', peopleMessages.analysts],
    [
      'a service managed that the admin does not manage',
      client(1, [], { servicesManaged: ['dast'] }),
      ['acme'],
      'acme',
      peopleMessages.moreThanYouHold,
    ],
  ])('refuses %s', (_, person, removedFrom, company, refusal) => {
    expect(restoreRefusal(companyAdmin, 'x', person, removedFrom, company, flags)).toBe(refusal)
  })

  it('refuses the admin themself', () => {
    expect(
      restoreRefusal({ ...companyAdmin, companies: ['acme', 'umbrella'] }, 'admin', client(3, ['umbrella']), ['acme'], 'acme', flags),
    ).toBe(peopleMessages.yourself)
  })
})
