// The company, service catalogue and DAST key callables, called the way the browser calls them:
// who may do what (each level and type, member of the company or not, revoked), one audit event
// for each change that happened and none for a refusal, and DAST keys verified as the DAST API
// will verify them.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allCompanyFlags,
  LEVEL,
  mayManageApiTokensOf,
  mayManageCompanies,
  mayManageDastKeysOf,
  mayManageServiceCatalogue,
  seesAllCompanies,
  type Access,
  type CompanyFlags,
} from '#domain/access.ts'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument } from '#domain/audit-events.ts'
import type { CallableName, CallableRequest } from '#domain/callables.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import { API_TOKEN_PREFIX, apiTokenFromDocument, apiTokenHashPath, apiTokenPath } from '#domain/api-tokens.ts'
import { DAST_KEY_PREFIX, dastKeyChecksum, dastKeyFromDocument, dastKeyHashPath, dastKeyPath } from '#domain/dast-keys.ts'
import { scanScopeFromDocument, scanScopePath } from '#domain/scan-scope.ts'
import { catalogueEntryFromDocument, servicePath } from '#domain/service-catalogue.ts'
import { storedEmail, userAccessPath } from '#domain/users-access.ts'
import { ROOT } from '../../emulators/firebase/env.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { verifyDastKey } from '../../functions/src/admin/dast-keys.ts'
import { verifyApiToken } from '../../functions/src/api/api-tokens.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import {
  callByName,
  connectCallableClient,
  expectCallableError,
  revokeSignIn,
  signInWithClaims,
  type CallableClient,
} from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const TRIGGERING = `org-${unique()}`
const NO_TRIGGERING = `orgn-${unique()}`
const TRIGGERING_FLAGS: CompanyFlags = { enableDast: true, enableDastTriggering: true }
const SCOPE = [
  { kind: 'domain', value: 'org-test.example' },
  { kind: 'cidr', value: '192.0.2.0/24' },
] as const

// The functions emulator reads the same file.
const DAST_SECRET = /^DAST_KEY_SECRET=(.+)$/m.exec(readFileSync(`${ROOT}/functions/.env.demo-sectest`, 'utf8'))![1]!

let admin: AdminClients
const clients: CallableClient[] = []

interface Person {
  name: string
  uid: string
  email: string
  client: CallableClient
  access: Access
  companies: string[]
}

async function person(name: string, level: number, userType: 'client' | 'analyst', companies: string[]): Promise<Person> {
  const client = connectCallableClient(`admin-org-${name}`)
  clients.push(client)
  const claims = tokenClaims(level, { userType })
  const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled: [], servicesManaged: [], email: storedEmail(email) })
  return { name, uid, email, client, access: { accessLevel: level, userType }, companies }
}

const call = <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) => callByName(who.client, name, data)

async function auditCount(uid: string): Promise<number> {
  return (await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('actorUid', '==', uid).count().get()).data().count
}

async function events(uid: string) {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('actorUid', '==', uid).get()
  return snapshot.docs.map((d) => auditEventFromDocument(d.id, d.data())!)
}

/** Runs the call; it succeeds with one audit event when `allowed`, else it is refused and nothing is recorded. */
async function expectOutcome(who: Person, allowed: boolean, run: () => Promise<unknown>, audited = true): Promise<unknown> {
  const before = await auditCount(who.uid)
  if (!allowed) {
    await expectCallableError(run(), 'permission-denied', 'Your access does not allow this.')
    expect(await auditCount(who.uid), `${who.name}: no audit event for a refusal`).toBe(before)
    return null
  }
  const answer = await run()
  expect(await auditCount(who.uid), `${who.name}: one audit event for the change`).toBe(before + (audited ? 1 : 0))
  return answer
}

/** A token of either kind written as its create callable would leave it, for the revoke matrices. */
async function storedToken(path: (id: string) => string, prefix: string, company: string, own: Record<string, unknown>): Promise<string> {
  const id = randomUUID().replace(/-/g, '').slice(0, 16)
  await admin.db.doc(path(id)).set({
    company,
    name: 'Seeded',
    prefix: `${prefix}${id}`,
    last4: 'abcd',
    ...own,
    expiresAt: Timestamp.fromMillis(Date.now() + 86_400_000),
    createdAt: Timestamp.now(),
    createdBy: 'seed',
    revokedAt: null,
    revokedBy: null,
    lastUsedAt: null,
    lastUsedIp: null,
  })
  return id
}
const storedKey = (company: string) => storedToken(dastKeyPath, DAST_KEY_PREFIX, company, { allowedTargets: ['org-test.example'] })
const storedApiToken = (company: string) => storedToken(apiTokenPath, API_TOKEN_PREFIX, company, { scopes: ['findings:read'] })

let people: Person[]
let companyAdmin: Person
let platform: Person

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(TRIGGERING)).set(companyDocument(TRIGGERING, TRIGGERING_FLAGS))
  await admin.db.doc(scanScopePath(TRIGGERING)).set({ entries: SCOPE })
  await admin.db.doc(companyPath(NO_TRIGGERING)).set(companyDocument(NO_TRIGGERING, { enableDast: true }))
  await admin.db.doc(scanScopePath(NO_TRIGGERING)).set({ entries: SCOPE })
  people = await Promise.all([
    person('viewer', LEVEL.clientViewer, 'client', [TRIGGERING]),
    person('manager', LEVEL.clientManager, 'client', [TRIGGERING, NO_TRIGGERING]),
    person('company admin', LEVEL.companyAdmin, 'client', [TRIGGERING, NO_TRIGGERING]),
    person('admin of another company', LEVEL.companyAdmin, 'client', [`elsewhere-${unique()}`]),
    person('analyst member', LEVEL.analyst, 'analyst', [TRIGGERING]),
    person('analyst outsider', LEVEL.analyst, 'analyst', []),
    person('senior analyst', LEVEL.seniorAnalyst, 'analyst', []),
    person('platform admin', LEVEL.platformAdmin, 'analyst', []),
  ])
  companyAdmin = people[2]!
  platform = people[7]!
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

const selects = (p: Person, slug: string) => p.companies.includes(slug) || seesAllCompanies(p.access)
const flagsOf = async (slug: string) => companyFromDocument(slug, (await admin.db.doc(companyPath(slug)).get()).data())

describe('who may call, by level, type and membership', () => {
  it('creates companies: level 7 and above only', async () => {
    for (const p of people) {
      const name = `Org ${p.name} ${unique()}`
      const answer = (await expectOutcome(p, mayManageCompanies(p.access), () =>
        call(p, 'createCompany', { companyName: name, flags: allCompanyFlags(false), scanScope: [...SCOPE] }),
      )) as { slug: string } | null
      if (answer) expect((await flagsOf(answer.slug))?.companyName).toBe(name)
    }
  })

  it('switches flags and changes the scope: level 7 and above only, member or not', async () => {
    for (const p of people) {
      const allowed = mayManageCompanies(p.access)
      const flip = !(await flagsOf(TRIGGERING))!.enableViewResultsNetwork
      await expectOutcome(p, allowed, () => call(p, 'updateCompany', { company: TRIGGERING, flags: { enableViewResultsNetwork: flip } }))
      expect((await flagsOf(TRIGGERING))!.enableViewResultsNetwork).toBe(allowed ? flip : !flip)
      const entry = { kind: 'host' as const, value: `h-${unique()}.org-test.example` }
      await expectOutcome(p, allowed, () => call(p, 'updateScanScope', { company: TRIGGERING, add: [entry] }))
      const scope = scanScopeFromDocument((await admin.db.doc(scanScopePath(TRIGGERING)).get()).data())
      expect(scope.some((e) => e.value === entry.value)).toBe(allowed)
      // Whoever opens the company's page reads its people (who else may is the people callables' test).
      if (allowed) await call(p, 'listUsers', { company: TRIGGERING })
    }
  })

  it('keeps the service catalogue: level 9 only', async () => {
    for (const p of people) {
      const description = `Catalogue ${unique()}`
      await expectOutcome(p, mayManageServiceCatalogue(p.access), () => call(p, 'saveService', { service: 'cloud', description }))
      await expectOutcome(p, mayManageServiceCatalogue(p.access), () => call(p, 'listUsers', { company: null, manages: 'cloud' }), false)
    }
  })

  it('issues and revokes DAST keys: level 3 who may select the company, and only where triggering is on', async () => {
    const companies = { [TRIGGERING]: await flagsOf(TRIGGERING), [NO_TRIGGERING]: await flagsOf(NO_TRIGGERING) }
    for (const p of people) {
      for (const slug of [TRIGGERING, NO_TRIGGERING]) {
        const allowed = mayManageDastKeysOf(p.access, companies[slug], selects(p, slug))
        await expectOutcome(p, allowed, () =>
          call(p, 'createDastKey', { company: slug, name: `CI ${p.name}`, expiresInDays: 30, allowedTargets: ['app.org-test.example'] }),
        )
        const id = await storedKey(slug)
        await expectOutcome(p, allowed, () => call(p, 'revokeDastKey', { id }))
        expect(dastKeyFromDocument(id, (await admin.db.doc(dastKeyPath(id)).get()).data())!.revokedAt !== null).toBe(allowed)
      }
    }
  })

  it('issues and revokes API tokens: level 3 who may select the company, whatever its switches', async () => {
    const companies = { [TRIGGERING]: await flagsOf(TRIGGERING), [NO_TRIGGERING]: await flagsOf(NO_TRIGGERING) }
    for (const p of people) {
      for (const slug of [TRIGGERING, NO_TRIGGERING]) {
        const allowed = mayManageApiTokensOf(p.access, companies[slug], selects(p, slug))
        await expectOutcome(p, allowed, () =>
          call(p, 'createApiToken', { company: slug, name: `Tracker ${p.name}`, scopes: ['findings:read'], expiresInDays: 30 }),
        )
        const id = await storedApiToken(slug)
        await expectOutcome(p, allowed, () => call(p, 'revokeApiToken', { id }))
        expect(apiTokenFromDocument(id, (await admin.db.doc(apiTokenPath(id)).get()).data())!.revokedAt !== null).toBe(allowed)
      }
    }
  })

  it('refuses a revoked sign-in whatever its level, and records nothing', async () => {
    const revoked = await person('revoked platform admin', LEVEL.platformAdmin, 'analyst', [TRIGGERING])
    await revokeSignIn(revoked.client, admin.auth)
    const runs = [
      () => call(revoked, 'createCompany', { companyName: `Revoked ${unique()}`, flags: allCompanyFlags(false), scanScope: [] }),
      () => call(revoked, 'updateCompany', { company: TRIGGERING, flags: { enableDast: false } }),
      () => call(revoked, 'saveService', { service: 'cloud', description: 'Revoked' }),
      () => call(revoked, 'createDastKey', { company: TRIGGERING, name: 'CI', expiresInDays: 1, allowedTargets: ['org-test.example'] }),
    ]
    for (const run of runs) await expectCallableError(run(), 'unauthenticated', 'Your sign-in was revoked: sign in again.')
    expect(await auditCount(revoked.uid)).toBe(0)
    expect((await flagsOf(TRIGGERING))!.enableDast).toBe(true)
  })

  it('goes by users_access, not a stale token: a level lowered a moment ago no longer creates companies', async () => {
    const demoted = await person('demoted senior', LEVEL.seniorAnalyst, 'analyst', [])
    await admin.db.doc(userAccessPath(demoted.uid)).update({ 'claims.accessLevel': LEVEL.analyst })
    // Refused by the document's level while the token still says senior, or, once the claims sync
    // has revoked the sign-in (it revokes on demotion), as revoked: never allowed, never recorded.
    const refusal = await call(demoted, 'createCompany', {
      companyName: `Demoted ${unique()}`,
      flags: allCompanyFlags(false),
      scanScope: [],
    }).then(
      () => null,
      (error: { code?: string }) => error.code,
    )
    expect(['functions/permission-denied', 'functions/unauthenticated']).toContain(refusal)
    expect(await auditCount(demoted.uid)).toBe(0)
  })
})

describe('companies', () => {
  it('derives a unique slug, records the event with before and after, and keeps unchanged switches out of the trail', async () => {
    const name = `Slug Test ${unique()}`
    const first = (await call(platform, 'createCompany', { companyName: name, flags: allCompanyFlags(false), scanScope: [] })) as {
      slug: string
    }
    const second = (await call(platform, 'createCompany', { companyName: name, flags: allCompanyFlags(false), scanScope: [] })) as {
      slug: string
    }
    expect(second.slug).toBe(`${first.slug}-2`)

    expect(
      await call(platform, 'updateCompany', { company: first.slug, flags: { enableDast: true, enableViewResultsNetwork: false } }),
    ).toEqual({ changed: true })
    const before = await auditCount(platform.uid)
    expect(await call(platform, 'updateCompany', { company: first.slug, flags: { enableDast: true } })).toEqual({ changed: false })
    expect(await auditCount(platform.uid)).toBe(before)

    const trail = (await events(platform.uid)).filter((e) => e.target.id === first.slug)
    expect(trail.map((e) => e.action).sort()).toEqual(['company.created', 'company.updated'])
    expect(trail.find((e) => e.action === 'company.updated')).toMatchObject({
      companyId: first.slug,
      before: { enableDast: false },
      after: { enableDast: true },
    })
  })

  it('refuses an invalid scope entry with its message and a missing company as not found, recording nothing', async () => {
    const before = await auditCount(platform.uid)
    await expectCallableError(
      call(platform, 'updateScanScope', { company: TRIGGERING, add: [{ kind: 'cidr', value: '192.0.2.1/24' }] }),
      'invalid-argument',
      '192.0.2.1/24 has host bits set: did you mean 192.0.2.0/24?',
    )
    await expectCallableError(call(platform, 'updateCompany', { company: `missing-${unique()}`, flags: { enableDast: true } }), 'not-found')
    expect(await auditCount(platform.uid)).toBe(before)
  })

  it("lists a company's people with their addresses, its analysts too, for whoever opens its page", async () => {
    const members = people.filter((p) => p.companies.includes(TRIGGERING))
    expect(members.some((p) => p.access.userType === 'analyst')).toBe(true)
    for (const reader of [platform, people[6]!]) {
      const { people: listed } = (await call(reader, 'listUsers', { company: TRIGGERING, pageSize: 200 })) as {
        people: { uid: string; email: string | null }[]
      }
      for (const member of members) expect(listed).toContainEqual(expect.objectContaining({ uid: member.uid, email: member.email }))
      expect(listed.some((row) => row.uid === platform.uid)).toBe(false)
    }
  })
})

describe('the service catalogue', () => {
  it('saves what is named and audits it as a platform-wide change', async () => {
    await call(platform, 'saveService', { service: 'network', sla: { critical: 5 }, defaultEnabled: true })
    const entry = catalogueEntryFromDocument('network', (await admin.db.doc(servicePath('network')).get()).data())
    expect(entry.sla.critical).toBe(5)
    expect(entry.defaultEnabled).toBe(true)
    const saved = (await events(platform.uid)).filter((e) => e.action === 'service.updated' && e.target.id === 'network').at(-1)
    expect(saved?.companyId).toBeNull()
    await expectCallableError(
      call(platform, 'saveService', { service: 'network', sla: { high: 0 } }),
      'invalid-argument',
      'A remediation target is a whole number of days from 1 to 730, or none.',
    )
  })
})

describe('DAST keys', () => {
  const issue = async (targets = ['app.org-test.example', '192.0.2.0/28']) =>
    (await call(companyAdmin, 'createDastKey', { company: TRIGGERING, name: 'Nightly', expiresInDays: 90, allowedTargets: targets })) as {
      id: string
      token: string
    }

  it('stores only a keyed hash and shows the key once', async () => {
    const { id, token } = await issue()
    const stored = (await admin.db.doc(dastKeyPath(id)).get()).data()!
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(stored).toMatchObject({ company: TRIGGERING, name: 'Nightly', last4: token.slice(-4), revokedAt: null })
    const hash = (await admin.db.doc(dastKeyHashPath(id)).get()).get('hash') as string
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(token).not.toContain(hash)
  })

  it('refuses targets outside the scope and expiries past 365 days, recording nothing', async () => {
    const before = await auditCount(companyAdmin.uid)
    await expectCallableError(issue(['elsewhere.example']), 'invalid-argument', "elsewhere.example is outside the company's scan scope.")
    await expectCallableError(
      call(companyAdmin, 'createDastKey', { company: TRIGGERING, name: 'Long', expiresInDays: 366, allowedTargets: ['org-test.example'] }),
      'invalid-argument',
      'A key expires after 1 to 365 days.',
    )
    expect(await auditCount(companyAdmin.uid)).toBe(before)
  })

  it('verifies an issued key, its targets and its last use; refuses altered, revoked and expired keys', async () => {
    const { id, token } = await issue()
    const verify = (text: string, options: { target?: string; now?: number } = {}) =>
      verifyDastKey(admin.db, text, { ip: '203.0.113.9', secret: DAST_SECRET, ...options })

    const ok = await verify(token, { target: 'https://app.org-test.example/login' })
    expect(ok).toMatchObject({ ok: true, key: { id, company: TRIGGERING } })
    expect((await admin.db.doc(dastKeyPath(id)).get()).get('lastUsedIp')).toBe('203.0.113.9')
    expect(await verify(token, { target: '192.0.2.5' })).toMatchObject({ ok: true })
    // In the company's scope but not among the key's targets.
    expect(await verify(token, { target: 'www.org-test.example' })).toEqual({ ok: false, reason: 'target' })
    expect(await verify(token, { target: '192.0.2.200' })).toEqual({ ok: false, reason: 'target' })

    // One character changed: the checksum refuses it; with the checksum made good, the hash does.
    const at = DAST_KEY_PREFIX.length + 20
    const altered = token.slice(0, at) + (token[at] === 'x' ? 'y' : 'x') + token.slice(at + 1, -6)
    expect(await verify(altered + token.slice(-6))).toEqual({ ok: false, reason: 'malformed' })
    expect(await verify(altered + dastKeyChecksum(altered))).toEqual({ ok: false, reason: 'unknown' })
    expect(await verifyDastKey(admin.db, token, { secret: 'another-secret-of-enough-length' })).toEqual({ ok: false, reason: 'unknown' })

    expect(await verify(token, { now: Date.now() + 91 * 86_400_000 })).toEqual({ ok: false, reason: 'expired' })

    await call(companyAdmin, 'revokeDastKey', { id })
    expect(await verify(token)).toEqual({ ok: false, reason: 'revoked' })
    expect(await call(companyAdmin, 'revokeDastKey', { id })).toEqual({ revoked: false })
  })

  it('stops every key of a company whose DAST triggering is switched off', async () => {
    const slug = `orgt-${unique()}`
    await admin.db.doc(companyPath(slug)).set(companyDocument(slug, TRIGGERING_FLAGS))
    await admin.db.doc(scanScopePath(slug)).set({ entries: SCOPE })
    await admin.db.doc(userAccessPath(companyAdmin.uid)).update({ companies: [...companyAdmin.companies, slug] })
    const { token } = (await call(companyAdmin, 'createDastKey', {
      company: slug,
      name: 'CI',
      expiresInDays: 1,
      allowedTargets: ['org-test.example'],
    })) as { token: string }
    expect(await verifyDastKey(admin.db, token, { secret: DAST_SECRET })).toMatchObject({ ok: true })
    await call(platform, 'updateCompany', { company: slug, flags: { enableDastTriggering: false } })
    expect(await verifyDastKey(admin.db, token, { secret: DAST_SECRET })).toEqual({ ok: false, reason: 'not-triggering' })
  })
})

describe('API tokens', () => {
  const verify = (token: string) => verifyApiToken(admin.db, token, { secret: DAST_SECRET })

  it('stores only a keyed hash, shows the token once with its scopes and expiry audited, and verifies it until revoked', async () => {
    const { id, token } = (await call(companyAdmin, 'createApiToken', {
      company: NO_TRIGGERING,
      name: ' Jira sync ',
      scopes: ['findings:read', 'findings:write'],
      expiresInDays: 30,
    })) as { id: string; token: string }
    expect(token.startsWith(`${API_TOKEN_PREFIX}${id}`)).toBe(true)
    const stored = (await admin.db.doc(apiTokenPath(id)).get()).data()!
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(stored).toMatchObject({
      company: NO_TRIGGERING,
      name: 'Jira sync',
      scopes: ['findings:read', 'findings:write'],
      last4: token.slice(-4),
    })
    const hash = (await admin.db.doc(apiTokenHashPath(id)).get()).get('hash') as string
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    const created = (await events(companyAdmin.uid)).find((e) => e.action === 'api_token.created' && e.target.id === id)
    expect(created).toMatchObject({ companyId: NO_TRIGGERING, after: { name: 'Jira sync', scopes: ['findings:read', 'findings:write'] } })
    expect(JSON.stringify(created)).not.toContain(token)
    expect(await verify(token)).toMatchObject({ ok: true, token: { id, company: NO_TRIGGERING } })
    expect(await call(companyAdmin, 'revokeApiToken', { id })).toEqual({ revoked: true })
    expect(await call(companyAdmin, 'revokeApiToken', { id })).toEqual({ revoked: false })
    expect(await verify(token)).toMatchObject({ ok: false, reason: 'revoked' })
    expect(await verify(`${token.slice(0, -1)}x`)).toEqual({ ok: false, reason: 'malformed' })
  })

  it('refuses a token without scopes, with an unknown scope or past 365 days, recording nothing', async () => {
    const before = await auditCount(companyAdmin.uid)
    const create = (scopes: string[], expiresInDays = 30) =>
      call(companyAdmin, 'createApiToken', { company: TRIGGERING, name: 'Bad', scopes: scopes as never, expiresInDays })
    await expectCallableError(create([]), 'invalid-argument', 'Choose at least one thing the token may do.')
    await expectCallableError(create(['findings:delete']), 'invalid-argument', 'That is not a scope of the API.')
    await expectCallableError(create(['findings:read', 'findings:read']), 'invalid-argument', 'Each scope appears only once.')
    await expectCallableError(create(['findings:read'], 366), 'invalid-argument', 'A token expires after 1 to 365 days.')
    expect(await auditCount(companyAdmin.uid)).toBe(before)
  })
})
