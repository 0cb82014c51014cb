import { describe, expect, it } from 'vitest'
import {
  mayManageCompanies,
  mayManageDastKeysOf,
  mayManageServiceCatalogue,
  maySeeAuditEvent,
  maySeeCompanyAudit,
  type Access,
  type CompanyFlags,
  type Context,
  type UserType,
  canViewReport,
  canViewService,
  hasLevel,
  hasReportsOverride,
  isAdminType,
  managesService,
  mayRequestSearchCredentials,
  pageRules,
  seesAllCompanies,
  showsCompanyName,
} from './access.ts'
import { services } from './services.ts'
import { sitePages } from './site-map.ts'

// The expectations below are the product's access rules written out as data, apart from access.ts,
// so that a change to the module shows here as a failing case.

type Level = number | null | undefined
type Flag = keyof CompanyFlags
type Rights = Pick<Access, 'servicesEnabled' | 'servicesManaged'>

/** The product's five services. */
const serviceIds = ['projectmariana', 'password_cracking', 'dast', 'network', 'cloud'] as const
type ServiceName = (typeof serviceIds)[number]

/** The eight company feature flags (companies/{slug}). */
const flags = [
  'enableViewProjectMarianaResults',
  'enableViewProjectMarianaStats',
  'enableDast',
  'enableDastTriggering',
  'enableViewResultsNetwork',
  'enableViewCloudScanStats',
  'enableViewCloudScanResults',
  'enableViewResultsPasswordCracking',
] as const satisfies readonly Flag[]

/** Service visibility, company side: any one of these flags turns the service on. */
const serviceFlags: Record<ServiceName, readonly Flag[]> = {
  projectmariana: ['enableViewProjectMarianaResults', 'enableViewProjectMarianaStats'],
  dast: ['enableDast'],
  network: ['enableViewResultsNetwork'],
  cloud: ['enableViewCloudScanStats', 'enableViewCloudScanResults'],
  password_cracking: ['enableViewResultsPasswordCracking'],
}

const unknownServices = ['unknown', 'DAST', 'reports', 'password cracking']

const levels = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
const levelCases: ReadonlyArray<readonly [string, Level]> = [
  ...levels.map((level) => [`level ${level}`, level] as const),
  ['level missing', undefined],
  ['level null', null],
  ['level NaN', Number.NaN],
]
/** Level 1 and above only: for rights whose meaning below level 1 the rules leave open. */
const ranked = levelCases.filter(([, level]) => typeof level === 'number' && level >= 1)

const userTypes: readonly UserType[] = ['client', 'analyst']
const anyUserType: ReadonlyArray<UserType | undefined> = [...userTypes, undefined]
const typeLabel = (type: UserType | undefined) => type ?? 'no userType'

/** "At least N": present and >= N. */
const atLeast = (level: Level, n: number) => typeof level === 'number' && level >= n
/** "At least N" for a person of `type`: analyst levels (5 and above) belong to analysts only. */
const atLeastAs = (type: UserType | undefined, level: Level, n: number) => atLeast(level, n) && (n < 5 || type === 'analyst')
/** The reports override: analysts with level 7 or more. */
const override = (type: UserType | undefined, level: Level) => type === 'analyst' && atLeast(level, 7)

const person = (type: UserType | undefined, level: Level, rights: Rights = {}): Access => ({
  ...(type ? { userType: type } : {}),
  ...(level === undefined ? {} : { accessLevel: level }),
  ...rights,
})

const companyWith = (...on: readonly Flag[]): CompanyFlags => Object.fromEntries(flags.map((flag) => [flag, on.includes(flag)]))
const allOn = companyWith(...flags)
const allOff = companyWith()
const only = (service: ServiceName) => companyWith(...serviceFlags[service])
const allBut = (service: ServiceName) => companyWith(...flags.filter((flag) => !serviceFlags[service].includes(flag)))

/** Every right a person can hold, for every known and unknown service. */
const everyRight: Rights = {
  servicesEnabled: [...serviceIds, ...unknownServices],
  servicesManaged: [...serviceIds, ...unknownServices],
}

/** One outcome per level case, so a failure shows exactly which levels differ. */
const byLevel = (decide: (level: Level) => boolean, cases = levelCases): Record<string, boolean> =>
  Object.fromEntries(cases.map(([label, level]) => [label, decide(level)]))

function rule(path: string) {
  const found = pageRules[path]
  if (!found) throw new Error(`pageRules has no rule for ${path}`)
  return found
}
const allows = (path: string, context: Context, param?: string) => rule(path)(context, param)

describe('hasLevel: "at least N" means present and >= N, and an analyst from level 5 up', () => {
  it.each(levels)('at least %i: lower levels are denied, that level and higher are allowed', (n) => {
    for (const type of anyUserType) {
      expect(byLevel((level) => hasLevel(person(type, level), n))).toEqual(byLevel((level) => atLeastAs(type, level, n)))
    }
  })

  it('a client holds no analyst level: a level-9 client is a company admin at most', () => {
    for (const n of [5, 7, 9]) expect(hasLevel(person('client', 9), n)).toBe(false)
    expect(hasLevel(person('client', 9), 3)).toBe(true)
    expect(hasLevel(person(undefined, 9), 5)).toBe(false)
    expect(hasLevel(person('analyst', 9), 9)).toBe(true)
  })

  const absent: ReadonlyArray<readonly [string, Access | null | undefined]> = [
    ['no access at all (null)', null],
    ['no access at all (undefined)', undefined],
    ['an empty claims object', {}],
    ['a null level', { accessLevel: null }],
    ['a NaN level', { accessLevel: Number.NaN }],
    ['a level given as text', { accessLevel: '9' as unknown as number }],
  ]
  it.each(absent)('%s is not even level 0', (_label, access) => {
    for (const n of levels) expect(hasLevel(access, n)).toBe(false)
  })
})

describe('claims-only checks, for every user type and level', () => {
  const checks: ReadonlyArray<
    readonly [string, (access: Access | null | undefined) => boolean, (type: UserType | undefined, level: Level) => boolean]
  > = [
    ['isAdminType (analysts level 5 or higher)', isAdminType, (type, level) => atLeastAs(type, level, 5)],
    ['seesAllCompanies (analysts level 7+)', seesAllCompanies, (type, level) => type === 'analyst' && atLeast(level, 7)],
    ['hasReportsOverride (analysts level 7+)', hasReportsOverride, (type, level) => type === 'analyst' && atLeast(level, 7)],
    [
      'mayRequestSearchCredentials (analysts above level 5)',
      mayRequestSearchCredentials,
      (type, level) => type === 'analyst' && atLeast(level, 6),
    ],
    ['showsCompanyName (analyst userType)', showsCompanyName, (type) => type === 'analyst'],
  ]
  const cases = checks.flatMap(([name, check, expected]) =>
    anyUserType.map((type) => ({ name: `${name}: ${typeLabel(type)}`, check, expected, type })),
  )

  it.each(cases)('$name', ({ check, expected, type }) => {
    expect(byLevel((level) => check(person(type, level)))).toEqual(byLevel((level) => expected(type, level)))
  })

  it.each(checks)('%s is false without any access', (_name, check) => {
    expect(check(null)).toBe(false)
    expect(check(undefined)).toBe(false)
  })

  it('a level-9 client neither sees all companies nor has the reports override', () => {
    expect(seesAllCompanies(person('client', 9))).toBe(false)
    expect(hasReportsOverride(person('client', 9))).toBe(false)
  })

  it('a level-7 client may not request search credentials; a level-6 analyst may, a level-5 analyst not', () => {
    expect(mayRequestSearchCredentials(person('client', 7))).toBe(false)
    expect(mayRequestSearchCredentials(person('analyst', 6))).toBe(true)
    expect(mayRequestSearchCredentials(person('analyst', 5))).toBe(false)
  })
})

describe('managesService', () => {
  const cases: ReadonlyArray<readonly [string, Access | null | undefined, string, boolean]> = [
    ['the service is in servicesManaged', { servicesManaged: ['password_cracking'] }, 'password_cracking', true],
    ['another service is in servicesManaged', { servicesManaged: ['dast'] }, 'password_cracking', false],
    ['servicesManaged is empty', { servicesManaged: [] }, 'password_cracking', false],
    ['servicesManaged is absent', { accessLevel: 9, userType: 'analyst' }, 'password_cracking', false],
    ['the service is only in servicesEnabled', { servicesEnabled: ['password_cracking'] }, 'password_cracking', false],
    ['there is no access at all (null)', null, 'password_cracking', false],
    ['there is no access at all (undefined)', undefined, 'password_cracking', false],
    ['the name differs in spelling', { servicesManaged: ['password_cracking'] }, 'password-cracking', false],
  ]
  it.each(cases)('%s', (_label, access, service, expected) => {
    expect(managesService(access, service)).toBe(expected)
  })
})

describe('service visibility (canViewService)', () => {
  it("knows exactly the product's five services", () => {
    expect(services.map((s) => s.id).sort()).toEqual([...serviceIds].sort())
  })

  const singleFlag = serviceIds.flatMap((service) =>
    flags.map((flag) => ({ name: `${service} with only ${flag} on`, service, flag, expected: serviceFlags[service].includes(flag) })),
  )
  it.each(singleFlag)('$name: $expected', ({ service, flag, expected }) => {
    expect(canViewService(person('client', 2), companyWith(flag), service)).toBe(expected)
  })

  it.each(serviceIds)('%s: every combination of the eight flags', (service) => {
    for (let mask = 0; mask < 1 << flags.length; mask++) {
      const on = flags.filter((_flag, index) => mask & (1 << index))
      const expected = serviceFlags[service].some((flag) => on.includes(flag))
      expect(canViewService(person('client', 9), companyWith(...on), service), on.join(',') || 'no flags').toBe(expected)
    }
  })

  const userSide = serviceIds.flatMap((service) => {
    const other = serviceIds.find((s) => s !== service) ?? 'network'
    const rights: ReadonlyArray<readonly [string, Rights, boolean]> = [
      ['no service rights', {}, false],
      [`${service} in servicesEnabled`, { servicesEnabled: [service] }, true],
      [`only ${other} in servicesEnabled`, { servicesEnabled: [other] }, false],
      [`${service} only in servicesManaged`, { servicesManaged: [service] }, false],
    ]
    return userTypes.flatMap((type) =>
      rights.map(([label, right, listed]) => ({ name: `${service}, ${type}, ${label}`, service, type, right, listed })),
    )
  })

  it.each(userSide)('$name, company flag on: level 2+ or listed', ({ service, type, right, listed }) => {
    const observed = byLevel((level) => canViewService(person(type, level, right), only(service), service), listed ? ranked : levelCases)
    expect(observed).toEqual(byLevel((level) => atLeast(level, 2) || listed, listed ? ranked : levelCases))
  })

  it.each(userSide)('$name, company flag off: denied at every level (no override here)', ({ service, type, right }) => {
    expect(byLevel((level) => canViewService(person(type, level, right), allBut(service), service))).toEqual(byLevel(() => false))
  })

  const noCompany = serviceIds.flatMap((service) =>
    [null, undefined].map((company) => ({ name: `${service}, company ${company}`, service, company })),
  )
  it.each(noCompany)('$name: no company document means denied', ({ service, company }) => {
    expect(canViewService(person('analyst', 9, everyRight), company, service)).toBe(false)
    expect(canViewService(person('client', 9, everyRight), company, service, 'dast-triggering')).toBe(false)
  })

  it.each(unknownServices)('unknown service %j is denied', (service) => {
    expect(canViewService(person('analyst', 9, everyRight), allOn, service)).toBe(false)
    expect(canViewService(person('client', 1, everyRight), allOn, service)).toBe(false)
  })

  const triggering = [true, false].flatMap((dast) =>
    [true, false].flatMap((trigger) =>
      (
        [
          ['a client manager', person('client', 2), true],
          ['a viewer with dast in servicesEnabled', person('client', 1, { servicesEnabled: ['dast'] }), true],
          ['a viewer without dast', person('client', 1), false],
        ] as const
      ).map(([who, access, userSide]) => ({
        name: `enableDast ${dast}, enableDastTriggering ${trigger}, ${who}`,
        company: companyWith(...(dast ? (['enableDast'] as const) : []), ...(trigger ? (['enableDastTriggering'] as const) : [])),
        access,
        dast: dast && userSide,
        triggering: dast && trigger && userSide,
      })),
    ),
  )
  it.each(triggering)('$name: dast $dast, dast-triggering $triggering', ({ company, access, dast, triggering }) => {
    expect(canViewService(access, company, 'dast')).toBe(dast)
    expect(canViewService(access, company, 'dast', 'dast-triggering')).toBe(triggering)
  })
})

describe('Reports: level 1+ when the service is enabled for the company, or the analyst override', () => {
  /** Expected: level 1+, and the override or the service visible to this user. */
  const expected = (type: UserType | undefined, level: Level, serviceOn: boolean, listed: boolean) =>
    atLeast(level, 1) && (override(type, level) || (serviceOn && (atLeast(level, 2) || listed)))

  const cases = serviceIds.flatMap((service) =>
    anyUserType.flatMap((type) =>
      [true, false].flatMap((serviceOn) =>
        [true, false].map((listed) => ({
          name: `${service}: ${typeLabel(type)}, company flag ${serviceOn ? 'on' : 'off'}, ${listed ? 'in' : 'not in'} servicesEnabled`,
          service,
          type,
          serviceOn,
          listed,
        })),
      ),
    ),
  )
  it.each(cases)('$name', ({ service, type, serviceOn, listed }) => {
    const company = serviceOn ? only(service) : allBut(service)
    const rights: Rights = listed ? { servicesEnabled: [service] } : {}
    const want = byLevel((level) => expected(type, level, serviceOn, listed))
    expect(byLevel((level) => canViewReport(person(type, level, rights), company, service))).toEqual(want)
    expect(byLevel((level) => allows('/reports/$service', { access: person(type, level, rights), company }, service))).toEqual(want)
  })

  it.each(serviceIds)('%s: no company document denies every client', (service) => {
    for (const company of [null, undefined]) {
      const access = (level: Level) => person('client', level, { servicesEnabled: [service] })
      expect(byLevel((level) => canViewReport(access(level), company, service))).toEqual(byLevel(() => false))
      expect(byLevel((level) => allows('/reports/$service', { access: access(level), company }, service))).toEqual(byLevel(() => false))
    }
  })

  const unknown = [...unknownServices, ''].flatMap((service) =>
    userTypes.map((type) => ({ name: `${JSON.stringify(service)} (${type})`, service, type })),
  )
  it.each(unknown)('unknown service $name is denied, even with the override', ({ service, type }) => {
    const access = (level: Level) => person(type, level, everyRight)
    expect(byLevel((level) => canViewReport(access(level), allOn, service))).toEqual(byLevel(() => false))
    expect(byLevel((level) => allows('/reports/$service', { access: access(level), company: allOn }, service))).toEqual(
      byLevel(() => false),
    )
  })

  it('a report page without a service is denied', () => {
    expect(byLevel((level) => allows('/reports/$service', { access: person('analyst', level, everyRight), company: allOn }))).toEqual(
      byLevel(() => false),
    )
  })

  interface IndexCase {
    name: string
    company: CompanyFlags | null | undefined
    listed: readonly string[]
    type: UserType | undefined
    expected: (level: Level) => boolean
  }
  const index: IndexCase[] = [
    ...serviceIds.flatMap((service) => {
      const other = serviceIds.find((s) => s !== service) ?? 'network'
      const lists: ReadonlyArray<readonly string[]> = [[], [service], [other]]
      return lists.flatMap((listed) =>
        anyUserType.map((type) => ({
          name: `only ${service} on, servicesEnabled [${listed.join(',')}], ${typeLabel(type)}`,
          company: only(service),
          listed,
          type,
          expected: (level: Level) => atLeast(level, 1) && (override(type, level) || atLeast(level, 2) || listed.includes(service)),
        })),
      )
    }),
    ...anyUserType.map((type) => ({
      name: `no service on, every service in servicesEnabled, ${typeLabel(type)}`,
      company: allOff,
      listed: serviceIds,
      type,
      expected: (level: Level) => override(type, level),
    })),
    ...[null, undefined].map((company) => ({
      name: `company ${company}, every service in servicesEnabled, client`,
      company,
      listed: serviceIds,
      type: 'client' as const,
      expected: () => false,
    })),
  ]
  it.each(index)('/reports with $name', ({ company, listed, type, expected }) => {
    const observed = byLevel((level) => allows('/reports', { access: person(type, level, { servicesEnabled: listed }), company }))
    expect(observed).toEqual(byLevel(expected))
  })
})

describe('pages with a plain level requirement', () => {
  /** The minimum level of each page, row by row; /profile (settings) is open to every signed-in level. */
  const minimum: ReadonlyArray<readonly [string, number]> = [
    ['/templates', 7],
    ['/templates/finding', 7],
    ['/analyst', 5],
    ['/analyst/vault/link', 5],
    ['/analyst/vault/request', 5],
    ['/analyst/agents', 7],
    ['/analyst/locations', 7],
    ['/admin', 3],
    ['/admin/company/create-company', 7],
    ['/admin/company', 7],
    ['/admin/app/users', 9],
    ['/admin/app/services', 9],
    ['/admin/keys_email', 9],
    ['/admin/company/manage-users', 3],
    ['/profile', 1],
  ]
  const cases = minimum.flatMap(([path, min]) =>
    userTypes.flatMap((type) =>
      (
        [
          ['no service rights, every flag on', {}, allOn],
          ['every service right, no company document', everyRight, null],
        ] as const
      ).map(([label, rights, company]) => ({ name: `${path} needs level ${min}: ${type}, ${label}`, path, min, type, rights, company })),
    ),
  )
  it.each(cases)('$name', ({ path, min, type, rights, company }) => {
    expect(byLevel((level) => allows(path, { access: person(type, level, rights), company }))).toEqual(
      byLevel((level) => atLeastAs(type, level, min)),
    )
  })

  it.each(minimum)('%s is denied without any access', (path) => {
    expect(allows(path, { access: null, company: allOn })).toBe(false)
    expect(allows(path, { access: undefined, company: allOn })).toBe(false)
  })
})

describe('analyst service pages: level 7; password cracking also by the password_cracking service right', () => {
  const rightsCases: ReadonlyArray<readonly [string, Rights]> = [
    ['no service rights', {}],
    ['password_cracking in servicesManaged', { servicesManaged: ['password_cracking'] }],
    ['password_cracking only in servicesEnabled', { servicesEnabled: ['password_cracking'] }],
    ['every service in servicesManaged', { servicesManaged: [...serviceIds] }],
  ]
  const cases = serviceIds.flatMap((service) =>
    userTypes.flatMap((type) => rightsCases.map(([label, rights]) => ({ name: `${service}: ${type}, ${label}`, service, type, rights }))),
  )
  it.each(cases)('$name', ({ service, type, rights }) => {
    const right = service === 'password_cracking' && (rights.servicesManaged ?? []).includes('password_cracking')
    // The service right opens the page within the analyst section, which itself needs level 5.
    const expected = byLevel((level) => atLeastAs(type, level, 7) || (right && atLeastAs(type, level, 5)))
    expect(
      byLevel((level) => allows('/analyst/services/$service', { access: person(type, level, rights), company: allOn }, service)),
    ).toEqual(expected)
  })

  const unknown = [...unknownServices, undefined].flatMap((service) =>
    userTypes.map((type) => ({ name: `${service === undefined ? 'no service' : JSON.stringify(service)} (${type})`, service, type })),
  )
  it.each(unknown)('unknown service: $name is denied at every level', ({ service, type }) => {
    const observed = byLevel((level) =>
      allows('/analyst/services/$service', { access: person(type, level, everyRight), company: allOn }, service),
    )
    expect(observed).toEqual(byLevel(() => false))
  })
})

describe('DAST keys: level 3 plus the DAST triggering feature', () => {
  const companies: ReadonlyArray<readonly [string, CompanyFlags | null | undefined, boolean]> = [
    ['enableDast and enableDastTriggering', companyWith('enableDast', 'enableDastTriggering'), true],
    ['every flag', allOn, true],
    ['enableDast only', companyWith('enableDast'), false],
    ['enableDastTriggering only', companyWith('enableDastTriggering'), false],
    ['every flag but enableDastTriggering', companyWith(...flags.filter((f) => f !== 'enableDastTriggering')), false],
    ['no flags', allOff, false],
    ['no company document (null)', null, false],
    ['no company document (undefined)', undefined, false],
  ]
  const cases = companies.flatMap(([label, company, feature]) =>
    userTypes.flatMap((type) =>
      (
        [
          ['no service rights', {}],
          ['dast in servicesEnabled and servicesManaged', { servicesEnabled: ['dast'], servicesManaged: ['dast'] }],
        ] as const
      ).map(([rightsLabel, rights]) => ({ name: `company with ${label}: ${type}, ${rightsLabel}`, company, feature, type, rights })),
    ),
  )
  it.each(cases)('$name', ({ company, feature, type, rights }) => {
    const observed = byLevel((level) => allows('/admin/dast', { access: person(type, level, rights), company }))
    expect(observed).toEqual(byLevel((level) => feature && atLeast(level, 3)))
  })
})

describe('pageRules and the site map', () => {
  const ruleKey = (path: string) =>
    path === '/reports/$service/$findingId'
      ? path
      : path.startsWith('/reports/')
        ? '/reports/$service'
        : path.startsWith('/analyst/services/')
          ? '/analyst/services/$service'
          : path

  it('has exactly one rule per page that needs sign-in ($service pages share theirs)', () => {
    const needed = new Set(sitePages.filter((p) => p.signIn).map((p) => ruleKey(p.path)))
    expect(Object.keys(pageRules).sort()).toEqual([...needed].sort())
  })

  it.each(sitePages.filter((p) => p.signIn).map((p) => p.path))('%s has a rule', (path) => {
    expect(typeof pageRules[ruleKey(path)]).toBe('function')
  })

  it.each(sitePages.filter((p) => !p.signIn).map((p) => p.path))('%s needs no sign-in and has no rule', (path) => {
    expect(Object.hasOwn(pageRules, path)).toBe(false)
  })

  it('the site map has a report page and an analyst page for every service', () => {
    const paths = sitePages.map((p) => p.path)
    for (const service of services) {
      expect(paths).toContain(`/reports/${service.id}`)
      expect(paths).toContain(`/analyst/services/${service.analystSlug}`)
    }
  })
})

describe('administration of companies, services and DAST keys', () => {
  const client = (accessLevel: number) => ({ accessLevel, userType: 'client' as const })
  const analyst = (accessLevel: number) => ({ accessLevel, userType: 'analyst' as const })
  const triggering = { enableDast: true, enableDastTriggering: true }

  it('lets level 7 manage companies and level 9 the service catalogue', () => {
    expect([1, 2, 3, 5, 7, 9].map((level) => mayManageCompanies(analyst(level)))).toEqual([false, false, false, false, true, true])
    expect([1, 2, 3, 5, 7, 9].map((level) => mayManageServiceCatalogue(analyst(level)))).toEqual([false, false, false, false, false, true])
  })

  it('lets DAST keys be managed at level 3 by someone who selects a company with triggering on', () => {
    expect(mayManageDastKeysOf(client(3), triggering, true)).toBe(true)
    expect(mayManageDastKeysOf(client(3), triggering, false)).toBe(false)
    expect(mayManageDastKeysOf(client(3), { enableDast: true }, true)).toBe(false)
    expect(mayManageDastKeysOf(client(2), triggering, true)).toBe(false)
    expect(mayManageDastKeysOf(analyst(9), null, true)).toBe(false)
  })

  it("shows a company's audit trail to platform admins, senior analysts and the company's own admins", () => {
    expect(maySeeCompanyAudit(analyst(9), false)).toBe(true)
    expect(maySeeCompanyAudit(analyst(7), false)).toBe(true)
    expect(maySeeCompanyAudit(analyst(8), false)).toBe(true)
    expect(maySeeCompanyAudit(analyst(5), false)).toBe(false)
    expect(maySeeCompanyAudit(client(7), false)).toBe(false)
    expect(maySeeCompanyAudit(client(3), true)).toBe(true)
    expect(maySeeCompanyAudit(client(3), false)).toBe(false)
    expect(maySeeCompanyAudit(client(2), true)).toBe(false)
  })

  it('shows the fleet’s events to senior analysts and platform-wide events to platform admins only', () => {
    const fleet = { companyId: null, audience: 'analysts' } as const
    const platformWide = { companyId: null, audience: 'platform' } as const
    const ofAcme = { companyId: 'acme', audience: 'analysts' } as const
    expect(maySeeAuditEvent(analyst(7), fleet, [])).toBe(true)
    expect(maySeeAuditEvent(analyst(7), platformWide, [])).toBe(false)
    expect(maySeeAuditEvent(analyst(9), platformWide, [])).toBe(true)
    expect(maySeeAuditEvent(client(3), fleet, ['acme'])).toBe(false)
    expect(maySeeAuditEvent(client(3), ofAcme, ['acme'])).toBe(true)
    expect(maySeeAuditEvent(client(3), ofAcme, ['globex'])).toBe(false)
    expect(maySeeAuditEvent(analyst(7), ofAcme, [])).toBe(true)
  })
})
