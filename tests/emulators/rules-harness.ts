// Shared by the rules-*.test.ts files: the principals who ask, the documents they ask about, and a
// table-driven runner whose expected outcomes come from app/domain/access.ts.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing'
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app'
import {
  connectFirestoreEmulator,
  doc,
  getFirestore,
  serverTimestamp,
  setLogLevel,
  Timestamp,
  writeBatch,
  type DocumentData,
  type EmulatorMockTokenOptions,
  type Firestore,
} from 'firebase/firestore/lite'
import { afterAll, beforeAll, it } from 'vitest'
import { seesAllCompanies, type Access, type CompanyFlags } from '#domain/access.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { PROJECT_ID, ROOT } from '../../emulators/firebase/env.ts'
import { DEMO_ACCOUNTS, DEMO_COMPANIES, type DemoAccount } from '../../emulators/seed/demo-accounts.ts'
import { tokenClaims, usersAccessOf } from '../builders.ts'

// Cases talk to the emulator through the lite SDK: one request per read or write, no listen
// stream whose reconnects would make timings (and timeouts) depend on the load.
export type Db = Firestore

// The sign-in time of every token; `revoked` claims are set relative to it.
const AUTH_TIME = Math.floor(Date.now() / 1000) - 600

export interface Principal {
  name: string
  /** Null: signed out. */
  uid: string | null
  email: string | null
  /** Custom claims of the ID token. */
  claims: Record<string, unknown>
  /** Their users_access document, or none. */
  accessDoc: Record<string, unknown> | null
  /** What access.ts is asked with: null when the request carries no usable sign-in. */
  access: Access | null
  companies: readonly string[]
}

/** Signed in with a token that is not revoked. */
export const usable = (p: Principal) => p.access !== null

/** May select the company: a member, or an analyst who sees every company. */
export const selects = (p: Principal, slug: string) => usable(p) && (p.companies.includes(slug) || seesAllCompanies(p.access))

interface Change {
  /** The `revoked` claim of the token (seconds). */
  revoked?: number
  /** users_access.claims.revoked (seconds): the token was minted before it and does not say so. */
  revokedInAccess?: number
  /** What users_access grants now, when it differs from what the token says (a demotion). */
  now?: DemoAccount
  /** users_access was deleted after the token was minted. */
  removed?: boolean
}

function fromAccount(account: DemoAccount, name: string, uid = account.uid, change: Change = {}): Principal {
  const { revoked, revokedInAccess, now = account, removed = false } = change
  const claims = tokenClaims(account.accessLevel, { userType: account.userType, ...(revoked === undefined ? {} : { revoked }) })
  const active = (revoked === undefined || revoked < AUTH_TIME) && (revokedInAccess === undefined || revokedInAccess < AUTH_TIME)
  const accessDoc = usersAccessOf(now)
  if (revokedInAccess !== undefined) Object.assign(accessDoc.claims, { revoked: Timestamp.fromMillis(revokedInAccess * 1000) })
  return {
    name,
    uid,
    email: account.email,
    claims,
    accessDoc: removed ? null : { ...accessDoc },
    // Without users_access the token's level counts for nothing: signed in, no access.
    access: !active
      ? null
      : removed
        ? {}
        : {
            accessLevel: account.accessLevel,
            userType: account.userType,
            servicesEnabled: now.servicesEnabled,
            servicesManaged: now.servicesManaged,
          },
    companies: removed ? [] : now.companies,
  }
}

const account = (email: string) => {
  const found = DEMO_ACCOUNTS.find((a) => a.email === email)
  if (!found) throw new Error(`no demo account ${email}`)
  return found
}

const demoNames: Record<string, string> = {
  'viewer@acme.example': 'client viewer (1, acme)',
  'manager@acme.example': 'client manager (2, acme globex initech)',
  'admin@acme.example': 'company admin (3, acme umbrella)',
  'analyst@sectest.example': 'analyst (5, acme globex)',
  'senior@sectest.example': 'senior analyst (7, all)',
  'platform@sectest.example': 'platform admin (9, all)',
}

export const signedOut: Principal = { name: 'signed out', uid: null, email: null, claims: {}, accessDoc: null, access: null, companies: [] }

const demoPrincipals = DEMO_ACCOUNTS.map((a) => fromAccount(a, demoNames[a.email] ?? a.email))

/** The demo accounts by access level. */
export const demo = Object.fromEntries(demoPrincipals.map((p) => [p.access?.accessLevel, p])) as Record<1 | 2 | 3 | 5 | 7 | 9, Principal>

// Not a demo account: a client holding a senior level. access.ts gives analyst levels (5 and up)
// to analysts only, so this is a client of acme at most, and so must the rules have it.
const seniorClient: DemoAccount = {
  ...account('viewer@acme.example'),
  uid: 'rules-senior-client',
  email: 'chief@acme.example',
  accessLevel: 7,
  servicesEnabled: [],
}

const senior = account('senior@sectest.example')
// A senior analyst demoted to analyst of acme: what users_access says after syncUserClaims ran.
const demotedSenior: DemoAccount = { ...senior, accessLevel: 5, companies: ['acme'] }

/** Every principal of the matrices. */
export const principals: readonly Principal[] = [
  signedOut,
  ...demoPrincipals,
  fromAccount(seniorClient, 'client with level 7 (acme)'),
  // Revoked at the sign-in second: the strongest account gets nothing.
  fromAccount(account('platform@sectest.example'), 'platform admin, revoked', 'rules-revoked', { revoked: AUTH_TIME }),
  // Revoked after signing in: a member gets nothing from its companies either.
  fromAccount(account('viewer@acme.example'), 'client viewer, revoked', 'rules-revoked-viewer', { revoked: AUTH_TIME + 60 }),
  // A sign-in after the revocation counts again.
  fromAccount(account('platform@sectest.example'), 'platform admin, signed in after a revocation', 'rules-resigned', {
    revoked: AUTH_TIME - 60,
  }),
  // Revoked in users_access after the token was minted: the token does not say so, the document does.
  fromAccount(senior, 'senior analyst, revoked in users_access', 'rules-revoked-access', { revokedInAccess: AUTH_TIME + 60 }),
  // Demoted after the token was minted (it still says 7): syncUserClaims revoked the sign-in.
  fromAccount(senior, 'senior analyst, demoted', 'rules-demoted', { now: demotedSenior, revokedInAccess: AUTH_TIME + 60 }),
  // Signed in again after the demotion: the new token carries the new level.
  fromAccount(demotedSenior, 'senior analyst, demoted and signed in again', 'rules-demoted-again', { revokedInAccess: AUTH_TIME - 60 }),
  // users_access deleted after the token was minted (it still says 7): no access at all.
  fromAccount(senior, 'senior analyst, users_access removed', 'rules-removed', { removed: true }),
  // Signed in, but no claims and no users_access document.
  { name: 'no access', uid: 'rules-no-access', email: 'nobody@elsewhere.example', claims: {}, accessDoc: null, access: {}, companies: [] },
]

/** A principal of its own (own uid, same claims and access): for writes to per-user documents. */
export function twin(p: Principal, suffix: string): Principal {
  return p.uid === null ? p : { ...p, uid: `${p.uid}~${suffix}` }
}

export const companies = DEMO_COMPANIES.map((c) => c.slug)

export function flagsOf(slug: string): CompanyFlags | null {
  return DEMO_COMPANIES.find((c) => c.slug === slug) ?? null
}

export const at = (iso: string) => Timestamp.fromDate(new Date(iso))

/** The stamp every client save carries. */
export const stamp = (p: Principal) => ({ updatedAt: serverTimestamp(), updatedBy: p.email ?? 'nobody@elsewhere.example' })

export interface RuleCase {
  name: string
  principal: Principal
  allowed: boolean
  run: (db: Db) => Promise<unknown>
}

const outcome = (allowed: boolean) => (allowed ? 'allowed' : 'denied')

/** One case: "<who> <does what>: allowed|denied". */
export function ruleCase(principal: Principal, action: string, allowed: boolean, run: (db: Db) => Promise<unknown>): RuleCase {
  return { name: `${principal.name} ${action}: ${outcome(allowed)}`, principal, allowed, run }
}

let sequence = 0
/** A document id no other case uses. */
export const fresh = (prefix: string) => `${prefix}-${(sequence += 1)}`

/**
 * One rules test file: a test environment with firestore.rules loaded, the documents its cases
 * need (written with rules disabled before any case runs) and the count of cases run.
 */
export function rulesSuite(title: string) {
  let env: RulesTestEnvironment
  const seeds = new Map<string, DocumentData>()
  const clients = new Map<string, Db>()
  const apps: FirebaseApp[] = []
  let count = 0
  let started = 0

  const seed = (path: string, data: DocumentData) => {
    seeds.set(path, data)
  }

  // Every principal's own users_access document, as functions would have written it (none when removed).
  const seedPrincipals = (list: readonly Principal[]) => {
    for (const p of list) if (p.uid && p.accessDoc) seed(userAccessPath(p.uid), p.accessDoc)
  }

  // A client of the emulator: 'owner' bypasses the rules (as withSecurityRulesDisabled does).
  const client = (key: string, token: EmulatorMockTokenOptions | 'owner' | null): Db => {
    const app = initializeApp({ projectId: PROJECT_ID }, `rules-${title}-${key}`)
    apps.push(app)
    const db = getFirestore(app)
    const { host, port } = env.emulators.firestore ?? { host: '127.0.0.1', port: 8080 }
    connectFirestoreEmulator(db, host, port, token === null ? {} : { mockUserToken: token })
    return db
  }

  beforeAll(async () => {
    // Denials are the point: keep the SDK from logging each one.
    setLogLevel('silent')
    started = performance.now()
    env = await initializeTestEnvironment({
      projectId: PROJECT_ID,
      firestore: { rules: readFileSync(path.join(ROOT, 'firestore.rules'), 'utf8') },
    })
    await env.clearFirestore()
    const owner = client('owner', 'owner')
    const entries = [...seeds.entries()]
    for (let i = 0; i < entries.length; i += 400) {
      const batch = writeBatch(owner)
      for (const [path, data] of entries.slice(i, i + 400)) batch.set(doc(owner, path), data)
      await batch.commit()
    }
  })

  afterAll(async () => {
    await Promise.all(apps.map((app) => deleteApp(app)))
    await env?.cleanup()
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`rules (${title}): ${count} cases in ${seconds} s`)
  })

  const db = (p: Principal): Db => {
    const key = p.uid ?? 'signed-out'
    let found = clients.get(key)
    if (!found) {
      const token = p.uid === null ? null : { sub: p.uid, auth_time: AUTH_TIME, ...p.claims, ...(p.email ? { email: p.email } : {}) }
      found = client(key, token)
      clients.set(key, found)
    }
    return found
  }

  /** Registers the cases as tests, run a few at a time; each is independent of the others. */
  const run = (cases: readonly RuleCase[]) => {
    const names = new Set<string>()
    for (const c of cases) {
      if (names.has(c.name)) throw new Error(`two cases named ${c.name}`)
      names.add(c.name)
      it.concurrent(c.name, async () => {
        count += 1
        const attempt = c.run(db(c.principal))
        await (c.allowed ? assertSucceeds(attempt) : assertFails(attempt))
      })
    }
  }

  return { seed, seedPrincipals, run, db }
}
