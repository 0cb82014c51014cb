// What the administration pages show on a fresh stack: more people than the demo accounts (who
// never need to sign in), email keys in every state and a history of audit events. Key expiries
// are counted from the seeding day, so "expiring soon" and "expired" stay true whenever it runs.
import type { AuditEventInput } from '#domain/audit-events.ts'
import type { DemoAccount, DemoEmailKey } from './demo-accounts.ts'

const DAY = 24 * 3600_000

const person = (
  uid: string,
  email: string,
  displayName: string,
  accessLevel: 1 | 2 | 3,
  companies: string[],
  defaultCompany = companies[0] ?? null,
): DemoAccount => ({
  uid,
  email,
  displayName,
  role: 'administration demo',
  userType: 'client',
  accessLevel,
  companies,
  servicesEnabled: accessLevel === 1 ? ['network'] : [],
  servicesManaged: [],
  defaultCompany,
})

/** People the admin pages list: colleagues at Acme, Globex and Initech, one of them disabled. */
export const DEMO_PEOPLE: readonly DemoAccount[] = [
  person('demo-people-acme-1', 'olivia.reed@acme.example', 'Olivia Reed', 2, ['acme']),
  person('demo-people-acme-2', 'liam.ortiz@acme.example', 'Liam Ortiz', 1, ['acme']),
  person('demo-people-acme-3', 'noah.kim@acme.example', 'Noah Kim', 1, ['acme', 'umbrella']),
  person('demo-people-globex-1', 'emma.stone@globex.example', 'Emma Stone', 3, ['globex']),
  person('demo-people-globex-2', 'lucas.brandt@globex.example', 'Lucas Brandt', 1, ['globex']),
  person('demo-people-initech-1', 'mia.chen@initech.example', 'Mia Chen', 3, ['initech']),
  person('demo-people-initech-2', 'ethan.park@initech.example', 'Ethan Park', 2, ['initech']),
]

/** The one of DEMO_PEOPLE whose account is disabled. */
export const DEMO_DISABLED_PERSON = 'demo-people-acme-2'

export interface DemoKeyState {
  id: string
  match: string
  company: string
  accessLevel: 1 | 2 | 3
  /** Days from the seeding day; negative: already expired. */
  expiresInDays: number
  uses: number
  revoked: boolean
}

/** Keys besides DEMO_EMAIL_KEYS, one per state: expiring soon, expired, revoked, and one used several times. */
export const DEMO_KEY_HISTORY: readonly DemoKeyState[] = [
  { id: 'globex-domain', match: '@globex.example', company: 'globex', accessLevel: 1, expiresInDays: 9, uses: 4, revoked: false },
  { id: 'umbrella-domain', match: '@umbrella.example', company: 'umbrella', accessLevel: 1, expiresInDays: -20, uses: 0, revoked: false },
  {
    id: 'acme-contractor',
    match: 'contractor@partner.example',
    company: 'acme',
    accessLevel: 2,
    expiresInDays: 120,
    uses: 0,
    revoked: true,
  },
  {
    id: 'acme-security-lead',
    match: 'security.lead@acme.example',
    company: 'acme',
    accessLevel: 3,
    expiresInDays: 200,
    uses: 1,
    revoked: false,
  },
]

/** The seeding day at midnight UTC: reruns on one day write identical keys. */
export const seedingDay = (now = Date.now()) => Math.floor(now / DAY) * DAY

/** The DEMO_EMAIL_KEYS' own expiry: well ahead, so the newcomer key stays in use. */
export const DEMO_EMAIL_KEY_LIFETIME_DAYS = 300

export const keyHistoryDocument = (key: DemoKeyState, day: number) => ({
  match: key.match,
  company: key.company,
  userType: 'client',
  accessLevel: key.accessLevel,
  expiresAt: day + key.expiresInDays * DAY,
  uses: key.uses,
  lastUsedAt: key.uses > 0 ? day - 3 * DAY : null,
  revokedAt: key.revoked ? day - 5 * DAY : null,
  revokedBy: key.revoked ? 'platform@sectest.example' : null,
  createdAt: day - 60 * DAY,
  createdBy: 'platform@sectest.example',
})

export const demoKeyExtras = (key: DemoEmailKey, day: number) => ({
  expiresAt: day + DEMO_EMAIL_KEY_LIFETIME_DAYS * DAY,
  uses: 0,
  lastUsedAt: null,
  revokedAt: null,
  revokedBy: null,
  createdBy: key.createdBy,
})

const platform = { uid: 'demo-platform-admin', email: 'platform@sectest.example' }
const companyAdmin = { uid: 'demo-company-admin', email: 'admin@acme.example' }
const senior = { uid: 'demo-senior-analyst', email: 'senior@sectest.example' }

/** A history of administrative changes, oldest first, with fixed ids and times (days before the seeding day). */
export const DEMO_AUDIT_HISTORY: readonly (AuditEventInput & { id: string; daysAgo: number })[] = [
  ...DEMO_KEY_HISTORY.map((key, i) => ({
    id: `demo-audit-key-${key.id}`,
    daysAgo: 60 - i,
    actor: platform,
    action: 'email_key.created' as const,
    target: { kind: 'email_key' as const, id: key.id, label: key.match },
    companyId: key.company,
    before: null,
    after: { match: key.match, company: key.company, accessLevel: key.accessLevel },
  })),
  ...DEMO_PEOPLE.map((p, i) => ({
    id: `demo-audit-invite-${p.uid}`,
    daysAgo: 40 - i,
    actor: p.companies.includes('acme') ? companyAdmin : platform,
    action: 'user.invited' as const,
    target: { kind: 'user' as const, id: p.uid, label: p.email },
    companyId: p.companies[0] ?? null,
    before: null,
    after: { email: p.email, userType: p.userType, accessLevel: p.accessLevel, companies: p.companies },
  })),
  {
    id: 'demo-audit-level-olivia',
    daysAgo: 12,
    actor: companyAdmin,
    action: 'user.updated',
    target: { kind: 'user', id: 'demo-people-acme-1', label: 'olivia.reed@acme.example' },
    companyId: 'acme',
    before: { accessLevel: 1 },
    after: { accessLevel: 2 },
  },
  {
    id: 'demo-audit-disabled-liam',
    daysAgo: 8,
    actor: platform,
    action: 'user.disabled',
    target: { kind: 'user', id: DEMO_DISABLED_PERSON, label: 'liam.ortiz@acme.example' },
    companyId: 'acme',
    before: { disabled: false },
    after: { disabled: true },
  },
  {
    id: 'demo-audit-revoked-contractor',
    daysAgo: 5,
    actor: platform,
    action: 'email_key.revoked',
    target: { kind: 'email_key', id: 'acme-contractor', label: 'contractor@partner.example' },
    companyId: 'acme',
    before: { revoked: false },
    after: { revoked: true },
  },
  {
    id: 'demo-audit-used-security-lead',
    daysAgo: 3,
    actor: { uid: 'demo-people-acme-lead', email: 'security.lead@acme.example' },
    action: 'email_key.used',
    target: { kind: 'email_key', id: 'acme-security-lead', label: 'security.lead@acme.example' },
    companyId: 'acme',
    before: null,
    after: { company: 'acme', accessLevel: 3 },
  },
  // The fleet's: no company, read by senior analysts and platform admins.
  {
    id: 'demo-audit-location-local',
    daysAgo: 30,
    actor: senior,
    action: 'location.created',
    target: { kind: 'location', id: 'local', label: 'Local' },
    companyId: null,
    before: null,
    after: { name: 'Local', country: 'GB' },
  },
  {
    id: 'demo-audit-enrolment-local',
    daysAgo: 30,
    actor: senior,
    action: 'agent.enrolment_issued',
    target: { kind: 'agent', id: 'Local demo agent', label: 'Local demo agent' },
    companyId: null,
    before: null,
    after: { locationId: 'local' },
  },
]
