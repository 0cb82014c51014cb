// Demo data for the local emulators, written through the Admin SDK. Idempotent: every run leaves
// the same users, claims and documents, whatever was changed in between.
//   npm run seed              seed (the emulators must be running)
//   npm run seed -- --if-empty   seed only when the emulators hold no data yet
//   SEED_FINDINGS=100000 npm run seed   also that many open findings in Acme's DAST (a large client)
import type { Auth, UpdateRequest } from 'firebase-admin/auth'
import { Timestamp, type Firestore, type WriteBatch } from 'firebase-admin/firestore'
import { COMPANIES_COLLECTION, companyPath } from '#domain/companies.ts'
import { AUDIT_EVENTS_COLLECTION, newAuditEventDocument } from '#domain/audit-events.ts'
import { emailKeyPath } from '#domain/email-keys.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { newUserAccessDocument, userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../firebase/admin.ts'
import { emulatorClientEnv, PROJECT_ID } from '../firebase/env.ts'
import { searchEmulatorConfigFromEnv, type SearchEmulatorConfig } from '../search/config.ts'
import {
  DEMO_ACCOUNTS,
  DEMO_COMPANIES,
  DEMO_EMAIL_KEYS,
  formatDemoAccounts,
  type DemoAccount,
  type DemoCompany,
  type DemoEmailKey,
} from './demo-accounts.ts'
import { seedAdminOrg } from './admin-org.ts'
import { seedReports, type ReportsSummary, type SeedReportsOptions } from './reports/seed-reports.ts'
import { scaleFindingsFromEnv } from './reports/scale-findings.ts'
import {
  DEMO_AUDIT_HISTORY,
  DEMO_DISABLED_PERSON,
  DEMO_KEY_HISTORY,
  DEMO_PEOPLE,
  demoKeyExtras,
  keyHistoryDocument,
  seedingDay,
} from './admin-demo.ts'
import { seedFleet } from './fleet.ts'
import { indexTemplateLibrary, seedTemplateLibrary, type LibrarySummary } from './template-library.ts'

async function withClients<T>(clients: AdminClients | undefined, run: (c: AdminClients) => Promise<T>): Promise<T> {
  if (clients) return run(clients)
  const own = connectToEmulators()
  try {
    return await run(own)
  } finally {
    await disconnect(own)
  }
}

// Whether a host:port accepts HTTP: checked first, because the Admin SDK retries an absent
// Firestore for minutes instead of failing.
async function reachable(hostPort: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${hostPort}/`, { signal: AbortSignal.timeout(2_000) })
    await response.body?.cancel()
    return true
  } catch {
    return false
  }
}

export async function assertEmulatorsReachable(): Promise<void> {
  const env = { ...emulatorClientEnv(), ...process.env }
  const search = searchEmulatorConfigFromEnv()
  const targets = [
    ['Auth', env.FIREBASE_AUTH_EMULATOR_HOST, 'npm run emulators'],
    ['Firestore', env.FIRESTORE_EMULATOR_HOST, 'npm run emulators'],
    ['Search', `${search.host}:${search.port}`, 'npm run search-emulator'],
  ] as const
  const down: string[] = []
  for (const [name, hostPort, start] of targets)
    if (!hostPort || !(await reachable(hostPort))) down.push(`${name} (${hostPort}; start it with: ${start})`)
  if (down.length > 0) throw new Error(`Emulators not reachable: ${down.join(', ')}`)
}

// True when neither Auth users nor companies exist: the dev launcher seeds only then.
export async function isEmulatorEmpty(clients?: AdminClients): Promise<boolean> {
  return withClients(clients, async ({ auth, db }) => {
    const users = await auth.listUsers(1)
    if (users.users.length > 0) return false
    const companies = await db.collection(COMPANIES_COLLECTION).limit(1).get()
    return companies.empty
  })
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}

async function upsertAuthUser(auth: Auth, account: DemoAccount): Promise<void> {
  // An account made by hand with a demo address under another uid would block the fixed uid.
  try {
    const holder = await auth.getUserByEmail(account.email)
    if (holder.uid !== account.uid) await auth.deleteUser(holder.uid)
  } catch (error) {
    if (errorCode(error) !== 'auth/user-not-found') throw error
  }
  const properties: UpdateRequest = {
    email: account.email,
    displayName: account.displayName,
    emailVerified: true,
    disabled: false,
    photoURL: null,
  }
  try {
    await auth.updateUser(account.uid, properties)
  } catch (error) {
    if (errorCode(error) !== 'auth/user-not-found') throw error
    await auth.createUser({
      uid: account.uid,
      email: account.email,
      displayName: account.displayName,
      emailVerified: true,
      disabled: false,
    })
  }
  // Replaces all custom claims, so stale ones from earlier experiments disappear.
  await auth.setCustomUserClaims(account.uid, { userType: account.userType, accessLevel: account.accessLevel })
}

export function companyDocument(company: DemoCompany): Record<string, unknown> {
  return { ...company }
}

export function usersAccessDocument(account: DemoAccount): Record<string, unknown> {
  return {
    ...newUserAccessDocument(account, account.companies, account.email),
    servicesEnabled: [...account.servicesEnabled],
    servicesManaged: [...account.servicesManaged],
  }
}

export function usersPreferencesDocument(account: DemoAccount): Record<string, unknown> {
  return { defaultCompany: account.defaultCompany }
}

// A fixed creation time, so reruns write identical documents.
const EMAIL_KEYS_CREATED_AT = Timestamp.fromDate(new Date('2025-10-01T12:00:00Z'))

export function emailKeyDocument(key: DemoEmailKey, day = seedingDay()): Record<string, unknown> {
  return timestamps({
    match: key.match,
    company: key.company,
    accessLevel: key.accessLevel,
    userType: key.userType,
    createdAt: EMAIL_KEYS_CREATED_AT,
    ...demoKeyExtras(key, day),
  })
}

const timestamps = (document: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(document).map(([k, v]) => [k, k.endsWith('At') && typeof v === 'number' ? Timestamp.fromMillis(v) : v]))

// The administration demo: more people, keys in every state and a history of audit events.
async function seedAdministration(auth: Auth, db: Firestore): Promise<void> {
  for (const person of DEMO_PEOPLE) await upsertAuthUser(auth, person)
  await auth.updateUser(DEMO_DISABLED_PERSON, { disabled: true })
  const batch = db.batch()
  for (const person of DEMO_PEOPLE) {
    batch.set(db.doc(userAccessPath(person.uid)), usersAccessDocument(person))
    batch.set(db.doc(userPreferencesPath(person.uid)), usersPreferencesDocument(person))
  }
  setDatedDocuments(db, batch, seedingDay())
  await batch.commit()
}

// The documents dated from the seeding day: the email keys (their expiry) and the audit history.
function setDatedDocuments(db: Firestore, batch: WriteBatch, day: number): void {
  for (const key of DEMO_EMAIL_KEYS) batch.set(db.doc(emailKeyPath(key.id)), emailKeyDocument(key, day))
  for (const key of DEMO_KEY_HISTORY) batch.set(db.doc(emailKeyPath(key.id)), timestamps(keyHistoryDocument(key, day)))
  for (const { id, daysAgo, ...event } of DEMO_AUDIT_HISTORY) {
    batch.set(
      db.collection(AUDIT_EVENTS_COLLECTION).doc(id),
      newAuditEventDocument(event, Timestamp.fromMillis(day - daysAgo * 24 * 3600_000)),
    )
  }
}

/** Writes the documents dated from the seeding day again, as of `day` (a snapshot seeded on an earlier day). */
export async function refreshDatedDemoData(db: Firestore, day = seedingDay()): Promise<void> {
  const batch = db.batch()
  setDatedDocuments(db, batch, day)
  await batch.commit()
}

// The address an email key lets in starts without an account each time, so its first sign-in
// (and the provisioning it triggers) can be shown again after a reseed.
async function resetKeyNewcomer(auth: Auth, db: Firestore, key: DemoEmailKey): Promise<void> {
  try {
    const user = await auth.getUserByEmail(key.example)
    await auth.deleteUser(user.uid)
    await db.doc(userAccessPath(user.uid)).delete()
    await db.doc(userPreferencesPath(user.uid)).delete()
  } catch (error) {
    if (errorCode(error) !== 'auth/user-not-found') throw error
  }
}

export interface SeedSummary extends LibrarySummary {
  companies: number
  accounts: number
  emailKeys: number
  /** The demo year of reports; null when left out. */
  reports: ReportsSummary | null
}

export interface SeedOptions extends Pick<SeedReportsOptions, 'scaleFindings' | 'progress'> {
  /** The demo reports (scans, findings ...): about a minute; tests of the rest leave them out. */
  reports?: boolean
  /** Where to index the demo findings for search (the dev stack). */
  search?: SearchEmulatorConfig
}

export async function seedDemoData(clients?: AdminClients, options: SeedOptions = {}): Promise<SeedSummary> {
  return withClients(clients, async ({ auth, db }) => {
    for (const account of DEMO_ACCOUNTS) await upsertAuthUser(auth, account)
    for (const key of DEMO_EMAIL_KEYS) await resetKeyNewcomer(auth, db, key)
    const batch = db.batch()
    // set() without merge: each document is replaced whole, so reruns give identical documents.
    for (const company of DEMO_COMPANIES) batch.set(db.doc(companyPath(company.slug)), companyDocument(company))
    for (const account of DEMO_ACCOUNTS) {
      batch.set(db.doc(userAccessPath(account.uid)), usersAccessDocument(account))
      batch.set(db.doc(userPreferencesPath(account.uid)), usersPreferencesDocument(account))
    }
    await batch.commit()
    await seedAdministration(auth, db)
    await seedAdminOrg(db)
    const library = await seedTemplateLibrary(db)
    await seedFleet(db)
    const { search, scaleFindings, progress } = options
    const reports =
      options.reports === false
        ? null
        : await seedReports(db, {
            ...(search ? { search } : {}),
            ...(scaleFindings ? { scaleFindings } : {}),
            ...(progress ? { progress } : {}),
          })
    return { companies: DEMO_COMPANIES.length, accounts: DEMO_ACCOUNTS.length, emailKeys: DEMO_EMAIL_KEYS.length, ...library, reports }
  })
}

/** The reports part of the printout: findings per company and how long writing them took. */
export function formatReportsSummary(reports: ReportsSummary): string {
  const perCompany = Object.entries(reports.findings)
    .filter(([, n]) => n > 0)
    .map(([slug, n]) => `${slug} ${n.toLocaleString('en-GB')}`)
    .join(', ')
  const removed = reports.removed > 0 ? `, ${reports.removed} stale removed` : ''
  const indexed = reports.indexed > 0 ? `, ${reports.indexed.toLocaleString('en-GB')} findings in search` : ''
  const scale = reports.scale
    ? `; Acme's DAST has ${reports.scale.open.toLocaleString('en-GB')} open and ${reports.scale.closed.toLocaleString('en-GB')} closed findings more (SEED_FINDINGS)`
    : ''
  return `Reports: ${reports.scans} scans and findings (${perCompany})${scale}; ${reports.documents.toLocaleString('en-GB')} documents in ${(reports.milliseconds / 1000).toFixed(1)} s${removed}${indexed}.`
}

async function main(): Promise<void> {
  const scaleFindings = scaleFindingsFromEnv()
  await assertEmulatorsReachable()
  const clients = connectToEmulators()
  try {
    if (process.argv.includes('--if-empty') && !(await isEmulatorEmpty(clients))) {
      console.log('Emulators already hold data: not seeding.')
      return
    }
    const summary = await seedDemoData(clients, {
      search: searchEmulatorConfigFromEnv(),
      scaleFindings,
      progress: (line) => console.log(line),
    })
    const indexed = await indexTemplateLibrary(clients.db, searchEmulatorConfigFromEnv())
    console.log(
      `Seeded ${summary.companies} companies, ${summary.accounts} accounts, ${summary.emailKeys} email keys and ` +
        `${summary.templates} finding templates (${summary.tags} tags, ${indexed} in search) into ${PROJECT_ID}.`,
    )
    if (summary.reports) console.log(formatReportsSummary(summary.reports))
    console.log('Sign in as:')
    console.log(formatDemoAccounts())
  } finally {
    await disconnect(clients)
  }
}

if (import.meta.main) {
  try {
    await main()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
