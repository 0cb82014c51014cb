// The demo companies and accounts of the local stack: one source for the seed, the dev launcher's
// printout, the README and the e2e tests. Addresses use the reserved .example domain.

import { allCompanyFlags, type CompanyFlags as DomainCompanyFlags, type UserType } from '#domain/access.ts'
import { services, type ServiceId } from '#domain/services.ts'

export const SERVICE_NAMES: readonly ServiceId[] = services.map((s) => s.id)
export type ServiceName = ServiceId

// 1 client viewer, 2 client manager, 3 company admin, 5 analyst, 7 senior analyst, 9 platform admin.
export type AccessLevel = 1 | 2 | 3 | 5 | 7 | 9

export type CompanyFlags = Required<DomainCompanyFlags>

export interface DemoCompany extends CompanyFlags {
  slug: string
  companyName: string
}

export interface DemoAccount {
  uid: string
  email: string
  displayName: string
  // What the account is there to show, for the printout.
  role: string
  userType: UserType
  accessLevel: AccessLevel
  companies: string[]
  servicesEnabled: ServiceName[]
  servicesManaged: ServiceName[]
  defaultCompany: string | null
}

const NONE: CompanyFlags = allCompanyFlags(false)

const ALL: CompanyFlags = allCompanyFlags(true)

export const DEMO_COMPANIES: readonly DemoCompany[] = [
  // Every service, DAST triggering included.
  { slug: 'acme', companyName: 'Acme Corporation', ...ALL },
  // Some services: Project Mariana results only, network, cloud stats only.
  {
    slug: 'globex',
    companyName: 'Globex Industries',
    ...NONE,
    enableViewProjectMarianaResults: true,
    enableViewResultsNetwork: true,
    enableViewCloudScanStats: true,
  },
  // DAST reports but no DAST triggering (so no DAST keys page), plus password cracking.
  {
    slug: 'initech',
    companyName: 'Initech',
    ...NONE,
    enableDast: true,
    enableViewResultsPasswordCracking: true,
  },
  // No service enabled at all.
  { slug: 'umbrella', companyName: 'Umbrella Holdings', ...NONE },
  // Being set up: a scan scope, no service switched on yet.
  { slug: 'wayne', companyName: 'Wayne Enterprises', ...NONE },
]

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    uid: 'demo-client-viewer',
    email: 'viewer@acme.example',
    displayName: 'Vera Viewer',
    role: 'client viewer (level 1) with DAST and network enabled',
    userType: 'client',
    accessLevel: 1,
    companies: ['acme'],
    servicesEnabled: ['dast', 'network'],
    servicesManaged: [],
    defaultCompany: 'acme',
  },
  {
    uid: 'demo-client-manager',
    email: 'manager@acme.example',
    displayName: 'Mario Manager',
    role: 'client manager (level 2) in three companies',
    userType: 'client',
    accessLevel: 2,
    companies: ['acme', 'globex', 'initech'],
    servicesEnabled: [],
    servicesManaged: [],
    defaultCompany: 'globex',
  },
  {
    uid: 'demo-company-admin',
    email: 'admin@acme.example',
    displayName: 'Ada Admin',
    role: 'company admin (level 3) in two companies',
    userType: 'client',
    accessLevel: 3,
    companies: ['acme', 'umbrella'],
    servicesEnabled: [],
    servicesManaged: [],
    defaultCompany: 'acme',
  },
  {
    uid: 'demo-analyst',
    email: 'analyst@sectest.example',
    displayName: 'Ana Analyst',
    role: 'analyst (level 5), manages password cracking',
    userType: 'analyst',
    accessLevel: 5,
    companies: ['acme', 'globex'],
    servicesEnabled: [],
    servicesManaged: ['password_cracking'],
    defaultCompany: 'acme',
  },
  {
    uid: 'demo-senior-analyst',
    email: 'senior@sectest.example',
    displayName: 'Sam Senior',
    role: 'senior analyst (level 7), sees every company',
    userType: 'analyst',
    accessLevel: 7,
    companies: [],
    servicesEnabled: [],
    servicesManaged: ['dast', 'network', 'cloud'],
    defaultCompany: 'acme',
  },
  {
    uid: 'demo-platform-admin',
    email: 'platform@sectest.example',
    displayName: 'Pat Platform',
    role: 'platform admin (level 9)',
    userType: 'analyst',
    accessLevel: 9,
    companies: [],
    servicesEnabled: [],
    servicesManaged: [...SERVICE_NAMES],
    defaultCompany: 'acme',
  },
]

export interface DemoEmailKey {
  // Document id in email_keys.
  id: string
  // An address, or '@' and a domain; lowercase.
  match: string
  company: string
  accessLevel: AccessLevel
  userType: UserType
  createdBy: string
  // For the printout: an address without an account that the key lets in.
  example: string
  role: string
}

export const DEMO_EMAIL_KEYS: readonly DemoEmailKey[] = [
  {
    id: 'initech-domain',
    match: '@initech.example',
    company: 'initech',
    accessLevel: 1,
    userType: 'client',
    createdBy: 'platform@sectest.example',
    example: 'newcomer@initech.example',
    role: 'first sign-in provisions a level-1 client of Initech',
  },
]

export function demoAccount(email: string): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.email === email)
  if (!account) throw new Error(`No demo account ${email}`)
  return account
}

// A plain-text table of the accounts, then the addresses email keys let in, for terminals and
// the README.
export function formatDemoAccounts(): string {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length), ...DEMO_EMAIL_KEYS.map((k) => k.example.length))
  const accounts = DEMO_ACCOUNTS.map((a) => {
    const companies = a.companies.length > 0 ? a.companies.join(', ') : 'all companies'
    return `  ${a.email.padEnd(width)}  ${a.role} [${companies}]`
  })
  const keys = DEMO_EMAIL_KEYS.map((k) => `  ${k.example.padEnd(width)}  ${k.role} (email key ${k.match})`)
  return [...accounts, ...keys].join('\n')
}
