// The people callables (invite, change, remove from a company, revoke sessions, disable, delete,
// list) as the admin pages call them: who may do what to whom, escalations refused with
// permission-denied, users_access as the only thing written, and one audit event for every change
// that happened and none for one refused.
import { randomUUID } from 'node:crypto'
import { Timestamp } from 'firebase-admin/firestore'
import { collection, connectFirestoreEmulator, getDocs, getFirestore, query, where } from 'firebase/firestore'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { UserType } from '#domain/access.ts'
import { PEOPLE_PAGE, peopleMessages, type PersonRow } from '#domain/admin-people-calls.ts'
import { AUDIT_EVENTS_COLLECTION } from '#domain/audit-events.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { readUserAccess, storedEmail, userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { startMailCatcher, type MailCatcher } from '../../emulators/mail/mail-catcher.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS } from '../../emulators/firebase/env.ts'
import { INVITE_RATE_LIMITS } from '../../functions/src/admin/invite-user.ts'
import { RATE_LIMITS_COLLECTION, rateLimitId } from '../../functions/src/rate-limit.ts'
import { companyDocument } from '../builders.ts'
import {
  callByName,
  connectCallableClient,
  expectCallableError,
  revokeSignIn,
  signInWithClaims,
  type CallableClient,
} from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
// Company A has every service, B only network; C is nobody's here; D has a single admin; U
// (umbrella, to A's admin) and I (initech) have none, for the seed's shapes.
const A = `people-a-${unique()}`
const U = `people-u-${unique()}`
const I = `people-i-${unique()}`
// L's invitations are used up.
const L = `people-l-${unique()}`
const B = `people-b-${unique()}`
const C = `people-c-${unique()}`
const D = `people-d-${unique()}`
const SMTP_PORT = 1025
const DENIED = 'Your access does not allow this.'

let admin: AdminClients
let mail: MailCatcher | undefined
const clients: CallableClient[] = []

interface Caller {
  uid: string
  email: string
  client: CallableClient
}

interface Access {
  userType: UserType
  accessLevel: number
  companies: string[]
  servicesEnabled?: string[]
  servicesManaged?: string[]
}

/** users_access as the product writes it; `email` null leaves the address out, as documents written before it was kept. */
const accessDocument = (access: Access, email: string | null) => ({
  claims: { userType: access.userType, accessLevel: access.accessLevel },
  companies: access.companies,
  servicesEnabled: access.servicesEnabled ?? [],
  servicesManaged: access.servicesManaged ?? [],
  ...(email === null ? {} : { email: storedEmail(email) }),
})

/** A signed-in caller with these claims and users_access. */
async function caller(name: string, access: Access): Promise<Caller> {
  const client = connectCallableClient(`people-${name}`)
  clients.push(client)
  const { uid, email } = await signInWithClaims(client, admin.auth, { userType: access.userType, accessLevel: access.accessLevel })
  await admin.db.doc(userAccessPath(uid)).set(accessDocument(access, email))
  return { uid, email, client }
}

/** A person to act on: an account with users_access, not signed in anywhere. */
async function person(access: Access, email = `person-${unique()}@people.example`, stored: string | null = email): Promise<string> {
  const user = await admin.auth.createUser({ email, emailVerified: true })
  await admin.auth.setCustomUserClaims(user.uid, { userType: access.userType, accessLevel: access.accessLevel })
  await admin.db.doc(userAccessPath(user.uid)).set(accessDocument(access, stored))
  return user.uid
}

const client1 = (companies = [A]): Access => ({ userType: 'client', accessLevel: 1, companies })

async function stored(uid: string) {
  const snapshot = await admin.db.doc(userAccessPath(uid)).get()
  return snapshot.exists ? readUserAccess(snapshot.data()) : null
}

async function events(targetId: string) {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('targetId', '==', targetId).get()
  return snapshot.docs.map((doc) => doc.data())
}

const call = <N extends CallableName>(who: Caller, name: N, data: CallableRequest<N>) => callByName(who.client, name, data)

const list = async (who: Caller, request: CallableRequest<'listUsers'>) =>
  (await call(who, 'listUsers', request)) as CallableResponse<'listUsers'>

/** The row of `uid` in the list `who` reads of `company` (null: everyone), found by the start of their address. */
async function rowOf(who: Caller, company: string | null, uid: string): Promise<PersonRow | undefined> {
  const { email } = await admin.auth.getUser(uid)
  const { people } = await list(who, { company, emailPrefix: email ?? '' })
  return people.find((row) => row.uid === uid)
}

/** Refused with permission-denied: nothing written, no event. */
async function refused<N extends CallableName>(who: Caller, name: N, data: CallableRequest<N>, target: string, message?: string) {
  const before = await stored(target)
  await expectCallableError(call(who, name, data), 'permission-denied', message)
  expect(await stored(target)).toEqual(before)
  expect(await events(target)).toEqual([])
}

const update = (uid: string, access: Access): CallableRequest<'updateUserAccess'> => ({
  uid,
  userType: access.userType,
  accessLevel: access.accessLevel,
  companies: access.companies,
  servicesEnabled: access.servicesEnabled ?? [],
  servicesManaged: access.servicesManaged ?? [],
})

let platform: Caller, adminA: Caller, adminB: Caller, adminD: Caller, viewerA: Caller, managerA: Caller, analystA: Caller, senior: Caller

beforeAll(async () => {
  admin = connectToEmulators()
  mail = await startMailCatcher({ smtpPort: SMTP_PORT, httpPort: 0 })
  await admin.db
    .doc(companyPath(A))
    .set(companyDocument(A, { enableDast: true, enableViewResultsNetwork: true, enableViewCloudScanStats: true }))
  await admin.db.doc(companyPath(B)).set(companyDocument(B, { enableViewResultsNetwork: true }))
  await admin.db.doc(companyPath(C)).set(companyDocument(C, { enableViewCloudScanStats: true }))
  await admin.db.doc(companyPath(D)).set(companyDocument(D))
  await admin.db.doc(companyPath(U)).set(companyDocument(U))
  await admin.db.doc(companyPath(I)).set(companyDocument(I))
  await admin.db.doc(companyPath(L)).set(companyDocument(L))
  ;[platform, adminA, adminB, adminD, viewerA, managerA, analystA, senior] = await Promise.all([
    caller('platform', { userType: 'analyst', accessLevel: 9, companies: [], servicesManaged: ['dast'] }),
    caller('admin-a', { userType: 'client', accessLevel: 3, companies: [A] }),
    caller('admin-b', { userType: 'client', accessLevel: 3, companies: [B] }),
    caller('admin-d', { userType: 'client', accessLevel: 3, companies: [D] }),
    caller('viewer-a', client1()),
    caller('manager-a', { userType: 'client', accessLevel: 2, companies: [A] }),
    caller('analyst-a', { userType: 'analyst', accessLevel: 5, companies: [A] }),
    caller('senior', { userType: 'analyst', accessLevel: 7, companies: [] }),
  ])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await mail?.close()
  await disconnect(admin)
})

describe('updateUserAccess: who may raise a viewer of A to manager', () => {
  const cases: [string, () => Caller, string | null][] = [
    ['a client viewer of A', () => viewerA, DENIED],
    ['a client manager of A', () => managerA, DENIED],
    ['a company admin of A', () => adminA, null],
    ['a company admin of B only', () => adminB, peopleMessages.notYourCompany],
    // Analysts assigned to a company manage its clients as its admins do.
    ['an analyst of A', () => analystA, null],
    ['a senior analyst of no company', () => senior, peopleMessages.notYourCompany],
    ['a platform admin', () => platform, null],
  ]
  it.each(cases)('%s', async (_, who, refusal) => {
    const target = await person(client1())
    const request = update(target, { ...client1(), accessLevel: 2 })
    if (refusal) return refused(who(), 'updateUserAccess', request, target, refusal)
    expect(await call(who(), 'updateUserAccess', request)).toEqual({ changed: true })
    expect((await stored(target))?.claims.accessLevel).toBe(2)
    const [event, ...more] = await events(target)
    expect(more).toEqual([])
    expect(event).toMatchObject({
      action: 'user.updated',
      actorUid: who().uid,
      actorEmail: who().email,
      targetKind: 'user',
      companyId: A,
      before: { accessLevel: 1, userType: 'client', companies: [A] },
      after: { accessLevel: 2, userType: 'client', companies: [A] },
    })
    expect(event?.createdAt).toBeTruthy()
  })

  it('refuses a revoked sign-in, and writes nothing', async () => {
    const revoked = await caller('revoked-admin', { userType: 'client', accessLevel: 3, companies: [A] })
    await revokeSignIn(revoked.client, admin.auth)
    const target = await person(client1())
    await expectCallableError(call(revoked, 'updateUserAccess', update(target, { ...client1(), accessLevel: 2 })), 'unauthenticated')
    expect((await stored(target))?.claims.accessLevel).toBe(1)
    expect(await events(target)).toEqual([])
  })

  it('changes nothing and records nothing when the access is the same', async () => {
    const target = await person(client1())
    expect(await call(adminA, 'updateUserAccess', update(target, client1()))).toEqual({ changed: false })
    expect(await events(target)).toEqual([])
  })
})

describe('a company admin cannot grant more than they hold', () => {
  const escalations: [string, () => Promise<{ target: string; request: CallableRequest<'updateUserAccess'> }>, string][] = [
    [
      'level 5 (an analyst)',
      async () => {
        const target = await person(client1())
        return { target, request: update(target, { userType: 'analyst', accessLevel: 5, companies: [A] }) }
      },
      peopleMessages.analysts,
    ],
    [
      'a company they are not in',
      async () => {
        const target = await person(client1())
        return { target, request: update(target, client1([A, C])) }
      },
      peopleMessages.notYourCompany,
    ],
    [
      'a service to manage',
      async () => {
        const target = await person(client1())
        return { target, request: update(target, { ...client1(), servicesManaged: ['dast'] }) }
      },
      peopleMessages.moreThanYouHold,
    ],
    [
      'a service none of their companies has',
      async () => {
        const target = await person(client1())
        return { target, request: update(target, { ...client1(), servicesEnabled: ['password_cracking'] }) }
      },
      peopleMessages.moreThanYouHold,
    ],
    [
      'any change to an analyst',
      async () => {
        const target = await person({ userType: 'analyst', accessLevel: 5, companies: [A] })
        return { target, request: update(target, { userType: 'analyst', accessLevel: 5, companies: [A], servicesEnabled: ['dast'] }) }
      },
      peopleMessages.analysts,
    ],
    [
      'a change to someone of another company',
      async () => {
        const target = await person(client1([B]))
        return { target, request: update(target, { ...client1([B]), accessLevel: 2 }) }
      },
      peopleMessages.notYourCompany,
    ],
  ]
  it.each(escalations)('%s', async (_, make, message) => {
    const { target, request } = await make()
    await refused(adminA, 'updateUserAccess', request, target, message)
  })

  it('may give their own level and a service their company has on', async () => {
    const target = await person(client1())
    const request = update(target, { ...client1(), accessLevel: 3, servicesEnabled: ['dast', 'network'] })
    expect(await call(adminA, 'updateUserAccess', request)).toEqual({ changed: true })
    expect(await stored(target)).toMatchObject({ claims: { accessLevel: 3 }, servicesEnabled: ['dast', 'network'] })
    expect(await events(target)).toHaveLength(1)
  })

  it('may not change their own level', async () => {
    await refused(adminA, 'updateUserAccess', update(adminA.uid, { ...client1(), accessLevel: 2 }), adminA.uid, peopleMessages.yourself)
  })

  it('reads a request as a change to what they see: the companies and services hidden from them stay', async () => {
    // No company here has password cracking on: A's admin sees neither C nor that service, and
    // sends back what they saw.
    const target = await person({ ...client1([A, C]), servicesEnabled: ['password_cracking'] })
    expect(await call(adminA, 'updateUserAccess', update(target, client1([A])))).toEqual({ changed: false })
    expect(await stored(target)).toMatchObject({ companies: [A, C], servicesEnabled: ['password_cracking'] })
    // Someone of A's only: a service no company of theirs has on stays as well.
    const own = await person({ ...client1([A]), servicesEnabled: ['password_cracking'] })
    expect(await call(adminA, 'updateUserAccess', update(own, { ...client1([A]), accessLevel: 2 }))).toEqual({ changed: true })
    expect(await stored(own)).toMatchObject({ claims: { accessLevel: 2 }, servicesEnabled: ['password_cracking'] })
  })
})

/** The events about `target` that `who` reads in `company`'s trail, through the rules, as the admin pages do. */
async function trail(who: Caller, company: string, target: string) {
  const db = getFirestore(who.client.app)
  connectFirestoreEmulator(db, EMULATOR_HOST, EMULATOR_PORTS.firestore)
  const found = await getDocs(
    query(collection(db, AUDIT_EVENTS_COLLECTION), where('companyId', '==', company), where('targetId', '==', target)),
  )
  return found.docs.map((d) => d.data())
}

// The review's exploit, with the seed's shapes: Ada administers acme (A) and umbrella (U); Mario
// manages acme, globex (B) and initech (I). Level, type and services hold in all of Mario's
// companies, so Ada changing them would change what he may do at globex and initech.
describe('someone who also works for companies their admin does not administer', () => {
  let ada: Caller
  const mario = () => person({ userType: 'client', accessLevel: 2, companies: [A, B, I] })
  beforeAll(async () => {
    ada = await caller('ada', { userType: 'client', accessLevel: 3, companies: [A, U] })
  })

  it('cannot be made company admin of them all by one company’s admin (the exploit), nor by sending what she sees', async () => {
    const target = await mario()
    const exploit = update(target, { userType: 'client', accessLevel: 3, companies: [A, B, I] })
    await refused(ada, 'updateUserAccess', exploit, target, peopleMessages.otherCompanies)
    await refused(ada, 'updateUserAccess', update(target, { ...client1([A]), accessLevel: 3 }), target, peopleMessages.otherCompanies)
    expect((await admin.auth.getUser(target)).customClaims).toMatchObject({ accessLevel: 2 })
  })

  it('cannot have another company’s admin demoted, nor services given or taken', async () => {
    const globexAdmin = await person({ userType: 'client', accessLevel: 3, companies: [A, B] })
    await refused(
      ada,
      'updateUserAccess',
      update(globexAdmin, { ...client1([A, B]), accessLevel: 2 }),
      globexAdmin,
      peopleMessages.otherCompanies,
    )
    const target = await mario()
    const dast = update(target, { userType: 'client', accessLevel: 2, companies: [A], servicesEnabled: ['dast'] })
    await refused(ada, 'updateUserAccess', dast, target, peopleMessages.otherCompanies)
    const served = await person({ userType: 'client', accessLevel: 2, companies: [A, B], servicesEnabled: ['dast'] })
    await refused(ada, 'updateUserAccess', update(served, { ...client1([A]), accessLevel: 2 }), served, peopleMessages.otherCompanies)
  })

  it('may be added to her other company and taken out of hers, each in that company’s trail only', async () => {
    const target = await mario()
    expect(await call(ada, 'updateUserAccess', update(target, { ...client1([A, U]), accessLevel: 2 }))).toEqual({ changed: true })
    expect((await stored(target))?.companies.sort()).toEqual([A, B, I, U].sort())
    expect((await stored(target))?.claims.accessLevel).toBe(2)
    expect(await events(target)).toEqual([
      expect.objectContaining({ action: 'user.updated', companyId: U, before: expect.objectContaining({ companies: [] }) }),
    ])
    expect(await call(ada, 'removeUserFromCompany', { uid: target, company: A })).toEqual({ changed: true })
    expect((await stored(target))?.companies.sort()).toEqual([B, I, U].sort())
    expect((await events(target)).map((event) => event.companyId).sort()).toEqual([A, U].sort())
  })

  it("changes by a platform admin only, and the change lands in each company's trail with that company's part", async () => {
    const target = await mario()
    const raise = update(target, { userType: 'client', accessLevel: 3, companies: [A, B, I, C], servicesEnabled: ['network', 'cloud'] })
    expect(await call(platform, 'updateUserAccess', raise)).toEqual({ changed: true })
    const all = await events(target)
    expect(all.map((event) => event.companyId).sort()).toEqual([A, B, C, I].sort())
    // Each copy: that company only, and the services as they apply there (C, where he is new, has cloud only).
    const services = { [A]: ['network', 'cloud'], [B]: ['network'], [I]: [], [C]: ['cloud'] }
    for (const company of [A, B, I, C]) {
      expect(all.find((event) => event.companyId === company)).toMatchObject({
        action: 'user.updated',
        actorUid: platform.uid,
        before: { accessLevel: 2, companies: company === C ? [] : [company], servicesEnabled: [] },
        after: { accessLevel: 3, companies: [company], servicesEnabled: services[company] },
      })
    }
    // Globex's admin reads Globex's copy through the rules, and it names no other company.
    const globex = await trail(adminB, B, target)
    expect(globex).toHaveLength(1)
    expect(JSON.stringify(globex)).not.toContain(A)
    await expect(trail(adminB, A, target)).rejects.toMatchObject({ code: 'permission-denied' })
  })

  it('shows in her list with only what concerns her companies', async () => {
    const target = await person({ userType: 'client', accessLevel: 2, companies: [A, B, I], servicesEnabled: ['network', 'cloud'] })
    // A has network and cloud on; B and I are not hers.
    expect(await rowOf(ada, A, target)).toMatchObject({
      companies: [A],
      servicesEnabled: ['network', 'cloud'],
      inOtherCompanies: true,
    })
    expect(await rowOf(ada, A, ada.uid)).toMatchObject({ companies: [A, U], inOtherCompanies: false })
    // Globex has network only: its admin sees no cloud, nor acme or initech.
    expect(await rowOf(adminB, B, target)).toMatchObject({ companies: [B], servicesEnabled: ['network'], inOtherCompanies: true })
    expect(await rowOf(platform, null, target)).toMatchObject({
      companies: [A, B, I],
      servicesEnabled: ['network', 'cloud'],
      inOtherCompanies: false,
    })
  })
})

describe('the last company admin', () => {
  it('cannot be removed, demoted or deleted, until there is another', async () => {
    const remove: CallableRequest<'removeUserFromCompany'> = { uid: adminD.uid, company: D }
    await refused(adminD, 'removeUserFromCompany', remove, adminD.uid, peopleMessages.lastAdmin)
    await refused(
      platform,
      'updateUserAccess',
      update(adminD.uid, { ...client1([D]), accessLevel: 2 }),
      adminD.uid,
      peopleMessages.lastAdmin,
    )
    await refused(platform, 'deleteUser', { uid: adminD.uid }, adminD.uid, peopleMessages.lastAdmin)

    const second = await person({ userType: 'client', accessLevel: 3, companies: [D] })
    expect(await call(platform, 'removeUserFromCompany', { uid: adminD.uid, company: D })).toEqual({ changed: true })
    expect((await stored(adminD.uid))?.companies).toEqual([])
    expect(await events(adminD.uid)).toHaveLength(1)
    expect((await stored(second))?.companies).toEqual([D])
  })
})

describe('removeUserFromCompany', () => {
  it('takes the company away from someone who also works elsewhere, and records it for that company only', async () => {
    const target = await person({ ...client1([A, B]), servicesEnabled: ['network', 'password_cracking'] })
    expect(await call(adminA, 'removeUserFromCompany', { uid: target, company: A })).toEqual({ changed: true })
    expect((await stored(target))?.companies).toEqual([B])
    // Nothing B sees changes, so only A's trail has it; A's copy names no other company, and only
    // the services A has on (no company here has password cracking on).
    expect(await events(target)).toEqual([
      expect.objectContaining({
        action: 'user.removed_from_company',
        companyId: A,
        before: expect.objectContaining({ companies: [A], servicesEnabled: ['network'] }),
        after: expect.objectContaining({ companies: [], servicesEnabled: [] }),
      }),
    ])
  })

  it('refuses a company the admin is not in, and an analyst', async () => {
    const other = await person(client1([A, C]))
    await refused(adminA, 'removeUserFromCompany', { uid: other, company: C }, other, peopleMessages.notYourCompany)
    const analyst = await person({ userType: 'analyst', accessLevel: 5, companies: [A] })
    await refused(adminA, 'removeUserFromCompany', { uid: analyst, company: A }, analyst, peopleMessages.analysts)
  })
})

describe('restoreUserToCompany: Remove is undone', () => {
  /** The person's row among the people removed from `company`, as `who` lists them. */
  async function removedRow(who: Caller, company: string, uid: string): Promise<PersonRow | undefined> {
    const { email } = await admin.auth.getUser(uid)
    const { people } = await list(who, { company, emailPrefix: email ?? '', removed: true })
    return people.find((row) => row.uid === uid)
  }

  it('lists the removed person as removed, points a new invitation to Restore, and gives the company back with the access they held', async () => {
    const email = `removed-${unique()}@people.example`
    const access = { userType: 'client', accessLevel: 2, companies: [A], servicesEnabled: ['network'] } satisfies Access
    const target = await person(access, email)
    expect(await call(adminA, 'removeUserFromCompany', { uid: target, company: A })).toEqual({ changed: true })
    expect(await stored(target)).toMatchObject({ companies: [], removedFrom: [A] })
    // Gone from the company's people, listed among its removed people, which another company's admin may not read.
    expect(await rowOf(adminA, A, target)).toBeUndefined()
    expect(await removedRow(adminA, A, target)).toMatchObject({ email, removed: true, accessLevel: 2, companies: [] })
    await expectCallableError(list(adminB, { company: A, removed: true }), 'permission-denied', peopleMessages.notYourCompany)

    // Inviting the address again says where to go instead of that it has an account, and changes nothing.
    await expectCallableError(call(adminA, 'inviteUser', invitation(email, client1())), 'already-exists', peopleMessages.removedHere)
    expect(await stored(target)).toMatchObject({ companies: [], removedFrom: [A] })

    // Only A's admins (and platform admins) restore to A; nobody restores to a company the person was not removed from.
    const before = await stored(target)
    await expectCallableError(
      call(adminB, 'restoreUserToCompany', { uid: target, company: A }),
      'permission-denied',
      peopleMessages.notYourCompany,
    )
    await expectCallableError(
      call(adminB, 'restoreUserToCompany', { uid: target, company: B }),
      'permission-denied',
      peopleMessages.notRemoved,
    )
    await expectCallableError(call(viewerA, 'restoreUserToCompany', { uid: target, company: A }), 'permission-denied', DENIED)
    expect(await stored(target)).toEqual(before)

    expect(await call(adminA, 'restoreUserToCompany', { uid: target, company: A })).toEqual({ changed: true })
    expect(await stored(target)).toMatchObject({
      claims: { userType: 'client', accessLevel: 2 },
      companies: [A],
      servicesEnabled: ['network'],
      removedFrom: [],
    })
    expect(await rowOf(adminA, A, target)).toMatchObject({ removed: false, accessLevel: 2, companies: [A], servicesEnabled: ['network'] })
    expect(await removedRow(adminA, A, target)).toBeUndefined()
    expect((await events(target)).map((event) => [event.action, event.companyId])).toEqual(
      expect.arrayContaining([
        ['user.removed_from_company', A],
        ['user.restored_to_company', A],
      ]),
    )
    const restored = (await events(target)).find((event) => event.action === 'user.restored_to_company')
    expect(restored).toMatchObject({
      actorUid: adminA.uid,
      before: expect.objectContaining({ companies: [] }),
      after: expect.objectContaining({ companies: [A] }),
    })
    // Once back, there is nothing to restore.
    await expectCallableError(
      call(adminA, 'restoreUserToCompany', { uid: target, company: A }),
      'permission-denied',
      peopleMessages.notRemoved,
    )
  })

  it('leaves to a platform admin someone given more than the company admin holds since the removal', async () => {
    const target = await person({ ...client1([A, B]), accessLevel: 2 })
    expect(await call(adminA, 'removeUserFromCompany', { uid: target, company: A })).toEqual({ changed: true })
    // B's side gives them a service to manage, which A's admin does not manage.
    expect(
      await call(platform, 'updateUserAccess', update(target, { ...client1([B]), accessLevel: 2, servicesManaged: ['dast'] })),
    ).toEqual({ changed: true })
    expect(await stored(target)).toMatchObject({ companies: [B], removedFrom: [A] })
    await expectCallableError(
      call(adminA, 'restoreUserToCompany', { uid: target, company: A }),
      'permission-denied',
      peopleMessages.moreThanYouHold,
    )
    expect(await call(platform, 'restoreUserToCompany', { uid: target, company: A })).toEqual({ changed: true })
    expect(await stored(target)).toMatchObject({ companies: [B, A], removedFrom: [], servicesManaged: ['dast'] })
  })

  it('forgets the removal once the company is given back another way', async () => {
    const target = await person(client1())
    expect(await call(adminA, 'removeUserFromCompany', { uid: target, company: A })).toEqual({ changed: true })
    expect(await call(platform, 'updateUserAccess', update(target, client1()))).toEqual({ changed: true })
    expect(await stored(target)).toMatchObject({ companies: [A], removedFrom: [] })
    expect(await removedRow(adminA, A, target)).toBeUndefined()
  })
})

async function waitForMail(to: string, after: number): Promise<{ subject: string; text: string; links: string[] }> {
  if (!mail) throw new Error('the mail catcher is not running')
  const query = new URLSearchParams({ to, after: String(after), timeout: '15000' })
  const response = await fetch(`${mail.inboxUrl}/api/wait?${query}`)
  if (!response.ok) throw new Error(`no mail for ${to}: ${response.status}`)
  const { id } = (await response.json()) as { id: string }
  return (await (await fetch(`${mail.inboxUrl}/api/messages/${id}`)).json()) as { subject: string; text: string; links: string[] }
}

const invitation = (email: string, access: Access): CallableRequest<'inviteUser'> => ({
  email,
  userType: access.userType,
  accessLevel: access.accessLevel,
  companies: access.companies,
  servicesEnabled: access.servicesEnabled ?? [],
  servicesManaged: access.servicesManaged ?? [],
  url: 'http://127.0.0.1:3000',
  timeZone: 'Europe/London',
})

async function eventsOfAction(action: string, label: string) {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('targetLabel', '==', label).get()
  return snapshot.docs.map((doc) => doc.data()).filter((event) => event.action === action)
}

describe('inviteUser', () => {
  it('creates the account and its access, records it and mails a sign-in link', async () => {
    const email = `invitee-${unique()}@people.example`
    const sent = Date.now()
    const answer = await call(adminA, 'inviteUser', invitation(email, { ...client1(), accessLevel: 2, servicesEnabled: ['dast'] }))
    expect(answer).toEqual({ mailed: true })
    const user = await admin.auth.getUserByEmail(email)
    const uid = user.uid
    expect(await stored(uid)).toMatchObject({
      claims: { userType: 'client', accessLevel: 2 },
      companies: [A],
      servicesEnabled: ['dast'],
    })
    expect((await admin.db.doc(userPreferencesPath(uid)).get()).data()).toEqual({ defaultCompany: A })
    expect(await events(uid)).toEqual([
      expect.objectContaining({ action: 'user.invited', actorUid: adminA.uid, companyId: A, before: null, targetLabel: email }),
    ])
    const message = await waitForMail(email, sent)
    expect(message.subject).toBe('You are invited to Bulwark')
    expect(message.text).toContain(`${adminA.email} invited you`)
    expect(message.links.some((link) => link.includes('oobCode='))).toBe(true)
  })

  const refusals: [string, () => Caller, Access, string][] = [
    ['a company admin inviting an analyst', () => adminA, { userType: 'analyst', accessLevel: 5, companies: [A] }, peopleMessages.analysts],
    ['a company admin inviting into a company not theirs', () => adminA, client1([C]), peopleMessages.notYourCompany],
    ['a company admin giving a managed service', () => adminA, { ...client1(), servicesManaged: ['dast'] }, peopleMessages.moreThanYouHold],
    ['a client manager', () => managerA, client1(), DENIED],
  ]
  it.each(refusals)('refuses %s, creating nothing', async (_, who, access, message) => {
    const email = `refused-${unique()}@people.example`
    await expectCallableError(call(who(), 'inviteUser', invitation(email, access)), 'permission-denied', message)
    await expect(admin.auth.getUserByEmail(email)).rejects.toMatchObject({ code: 'auth/user-not-found' })
    expect(await eventsOfAction('user.invited', email)).toEqual([])
  })

  it('lets a platform admin invite an analyst, and refuses an address that already has an account', async () => {
    const email = `analyst-${unique()}@people.example`
    await call(platform, 'inviteUser', invitation(email, { userType: 'analyst', accessLevel: 7, companies: [] }))
    const { uid } = await admin.auth.getUserByEmail(email)
    expect((await stored(uid))?.claims).toMatchObject({ userType: 'analyst', accessLevel: 7 })
    await expectCallableError(call(platform, 'inviteUser', invitation(email, client1())), 'already-exists', peopleMessages.exists)
    expect(await events(uid)).toHaveLength(1)
  })
})

describe('inviteUser and an address that has an account elsewhere', () => {
  it('answers an address with an account in another company as one with none, and refers it to the platform admins', async () => {
    const elsewhere = await person({ userType: 'client', accessLevel: 3, companies: [B] })
    const elsewhereEmail = (await admin.auth.getUser(elsewhere)).email!
    const before = await stored(elsewhere)
    const fresh = `fresh-${unique()}@people.example`

    const answers = [
      await call(adminA, 'inviteUser', invitation(fresh, client1())),
      await call(adminA, 'inviteUser', invitation(elsewhereEmail, client1())),
    ]
    expect(answers[1]).toEqual(answers[0])
    expect(answers[0]).toEqual({ mailed: true })
    // Nothing changes for the person elsewhere, and nothing of it is in A's trail or B's.
    expect(await stored(elsewhere)).toEqual(before)
    expect((await events(elsewhere)).map((event) => [event.action, event.companyId, event.audience])).toEqual([
      ['user.invitation_referred', null, 'platform'],
    ])
    expect(await trail(adminA, A, elsewhere)).toEqual([])
    expect(await trail(adminB, B, elsewhere)).toEqual([])
  })

  it('tells the admin of a company the person is in already, and a platform admin, that they have an account', async () => {
    const colleague = await person({ userType: 'client', accessLevel: 1, companies: [A, B] })
    const email = (await admin.auth.getUser(colleague)).email!
    await expectCallableError(call(adminA, 'inviteUser', invitation(email, client1())), 'already-exists', peopleMessages.alreadyYours)
    await expectCallableError(call(platform, 'inviteUser', invitation(email, client1())), 'already-exists', peopleMessages.exists)
    expect(await events(colleague)).toEqual([])
  })

  it.each([
    ['the inviter', (who: Caller) => ({ ...INVITE_RATE_LIMITS.inviter, key: who.uid }), () => A],
    ['the company', () => ({ ...INVITE_RATE_LIMITS.company, key: L }), () => L],
  ])('refuses invitations over the hourly limit of %s, creating nothing, whatever the address', async (_, limit, company) => {
    const inviter = await caller(`busy-${unique()}`, { userType: 'client', accessLevel: 3, companies: [A, L] })
    const counted = limit(inviter)
    await admin.db
      .collection(RATE_LIMITS_COLLECTION)
      .doc(rateLimitId(counted.kind, counted.key))
      .set({
        kind: counted.kind,
        count: counted.limit,
        windowStart: Timestamp.now(),
        expiresAt: Timestamp.fromMillis(Date.now() + counted.windowMs),
      })
    const elsewhere = (await admin.auth.getUser(await person({ userType: 'client', accessLevel: 1, companies: [B] }))).email!
    for (const email of [`limited-${unique()}@people.example`, elsewhere]) {
      await expectCallableError(
        call(inviter, 'inviteUser', invitation(email, client1([company()]))),
        'resource-exhausted',
        peopleMessages.tooManyInvitations,
      )
    }
    expect((await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('actorUid', '==', inviter.uid).get()).size).toBe(0)
  })
})

describe('revokeUserSessions', () => {
  it('stamps claims.revoked, ends refresh tokens and records it', async () => {
    const target = await person(client1())
    const validBefore = (await admin.auth.getUser(target)).tokensValidAfterTime
    expect(await call(adminA, 'revokeUserSessions', { uid: target })).toEqual({ changed: true })
    expect((await stored(target))?.claims.revoked).toEqual(expect.any(Number))
    expect((await admin.auth.getUser(target)).tokensValidAfterTime).not.toBe(validBefore)
    expect(await events(target)).toEqual([expect.objectContaining({ action: 'user.sessions_revoked', companyId: A })])
  })

  it('is refused on an analyst and on someone of another company', async () => {
    const analyst = await person({ userType: 'analyst', accessLevel: 5, companies: [A] })
    await refused(adminA, 'revokeUserSessions', { uid: analyst }, analyst, peopleMessages.analysts)
    const other = await person(client1([B]))
    await refused(adminA, 'revokeUserSessions', { uid: other }, other, peopleMessages.notYourCompany)
  })
})

describe('setUserDisabled and deleteUser (platform admins)', () => {
  it('disables and enables an account, each once recorded', async () => {
    const target = await person(client1())
    expect(await call(platform, 'setUserDisabled', { uid: target, disabled: true })).toEqual({ changed: true })
    expect((await admin.auth.getUser(target)).disabled).toBe(true)
    expect((await stored(target))?.claims.revoked).toEqual(expect.any(Number))
    expect(await call(platform, 'setUserDisabled', { uid: target, disabled: true })).toEqual({ changed: false })
    expect(await call(platform, 'setUserDisabled', { uid: target, disabled: false })).toEqual({ changed: true })
    expect((await admin.auth.getUser(target)).disabled).toBe(false)
    expect((await events(target)).map((event) => event.action).sort()).toEqual(['user.disabled', 'user.enabled'])
  })

  it('deletes the account with its access and preferences', async () => {
    const target = await person(client1())
    await admin.db.doc(userPreferencesPath(target)).set({ defaultCompany: A })
    expect(await call(platform, 'deleteUser', { uid: target })).toEqual({ changed: true })
    await expect(admin.auth.getUser(target)).rejects.toMatchObject({ code: 'auth/user-not-found' })
    expect(await stored(target)).toBeNull()
    expect((await admin.db.doc(userPreferencesPath(target)).get()).exists).toBe(false)
    expect(await events(target)).toEqual([expect.objectContaining({ action: 'user.deleted', after: {} })])
  })

  it('refuses disabling or deleting oneself', async () => {
    await refused(platform, 'setUserDisabled', { uid: platform.uid, disabled: true }, platform.uid, peopleMessages.yourself)
    await refused(platform, 'deleteUser', { uid: platform.uid }, platform.uid, peopleMessages.yourself)
    expect((await admin.auth.getUser(platform.uid)).disabled).toBe(false)
  })

  it('answers not-found for nobody', async () => {
    await expectCallableError(call(platform, 'deleteUser', { uid: `nobody-${unique()}` }), 'not-found', peopleMessages.noPerson)
  })
})

describe('listUsers', () => {
  it("gives a company admin their company's clients, with what Auth knows", async () => {
    const target = await person(client1([A, B]))
    const analyst = await person({ userType: 'analyst', accessLevel: 5, companies: [A] })
    const { people, mayChange } = await list(adminA, { company: A })
    expect(mayChange).toBe(true)
    expect(people.every((row) => row.userType === 'client' && row.companies.includes(A))).toBe(true)
    expect(await rowOf(adminA, A, target)).toMatchObject({
      email: expect.stringContaining('@people.example'),
      disabled: false,
      createdAt: expect.any(Number),
      accessLevel: 1,
      companies: [A],
      inOtherCompanies: true,
    })
    expect(await rowOf(adminA, A, analyst)).toBeUndefined()
    expect((await rowOf(adminA, A, adminA.uid))?.lastSignInAt).not.toBeNull()
  })

  it('refuses a company admin another company or everyone; a platform admin lists everyone', async () => {
    await expectCallableError(call(adminA, 'listUsers', { company: B }), 'permission-denied', peopleMessages.notYourCompany)
    await expectCallableError(call(adminA, 'listUsers', { company: null }), 'permission-denied', peopleMessages.notYourCompany)
    for (const who of [adminA, adminB, senior, analystA]) expect(await rowOf(platform, null, who.uid)).toBeDefined()
    expect((await list(platform, { company: null })).mayChange).toBe(true)
  })

  it("gives a senior analyst any company's people to read (their page opens for every company), never everyone", async () => {
    const { people, mayChange } = await list(senior, { company: B })
    expect(await rowOf(senior, B, adminB.uid)).toBeDefined()
    // To read, not to change: B is not one of the senior analyst's companies, and a change is refused.
    expect(mayChange).toBe(false)
    await expectCallableError(call(senior, 'revokeUserSessions', { uid: adminB.uid }), 'permission-denied', peopleMessages.notYourCompany)
    expect(people.every((row) => row.companies.includes(B))).toBe(true)
    await expectCallableError(call(senior, 'listUsers', { company: null }), 'permission-denied', peopleMessages.notYourCompany)
  })
})

describe('listUsers a page at a time', () => {
  // P: 120 clients (three of them its admins, the first ten in B too), three analysts working for
  // it, its admin, and one client whose users_access holds no address yet.
  const P = `people-p-${unique()}`
  const tag = `pg${unique()}`
  let adminP: Caller
  let clientUids: string[]
  let analystUids: string[]
  let unlistedUid: string

  /** Every page of a request, following the cursors (at most 20: a loop would fail the test, not hang it). */
  async function allPages(who: Caller, request: CallableRequest<'listUsers'>) {
    const pages: CallableResponse<'listUsers'>[] = []
    let cursor: CallableRequest<'listUsers'>['cursor'] = null
    do {
      const page = await list(who, { ...request, cursor })
      pages.push(page)
      cursor = page.next
    } while (cursor && pages.length < 20)
    return pages
  }
  const uidsOf = (pages: CallableResponse<'listUsers'>[]) => pages.flatMap((page) => page.people.map((row) => row.uid))

  beforeAll(async () => {
    await admin.db.doc(companyPath(P)).set(companyDocument(P, { enableViewResultsNetwork: true }))
    adminP = await caller('admin-p', { userType: 'client', accessLevel: 3, companies: [P] })
    clientUids = []
    for (let from = 0; from < 120; from += 20) {
      const chunk = Array.from({ length: 20 }, (_, k) => from + k)
      clientUids.push(
        ...(await Promise.all(
          chunk.map((i) =>
            person(
              { userType: 'client', accessLevel: i % 40 === 0 ? 3 : 1, companies: i < 10 ? [P, B] : [P], servicesEnabled: ['network'] },
              `${tag}-${String(i).padStart(3, '0')}@paging.example`,
            ),
          ),
        )),
      )
    }
    analystUids = await Promise.all(
      [0, 1, 2].map((i) => person({ userType: 'analyst', accessLevel: 5, companies: [P] }, `${tag}-analyst-${i}@paging.example`)),
    )
    unlistedUid = await person(client1([P]), `${tag}-unlisted@paging.example`, null)
  })

  it('gives a company admin every client once, in order of address, with the exact number on every page', async () => {
    const pages = await allPages(adminP, { company: P, pageSize: 50 })
    expect(pages.map((page) => page.people.length)).toEqual([50, 50, 21])
    expect(pages.map((page) => page.total)).toEqual([121, 121, 121])
    expect(pages.at(-1)?.next).toBeNull()
    const uids = uidsOf(pages)
    expect(new Set(uids).size).toBe(uids.length)
    expect([...uids].sort()).toEqual([adminP.uid, ...clientUids].sort())
    const emails = pages.flatMap((page) => page.people.map((row) => row.email ?? ''))
    expect(emails).toEqual([...emails].sort())
    // The one without a stored address is counted apart, on the first page only.
    expect(pages.map((page) => page.unlisted)).toEqual([1, null, null])
    // What concerns P only: not B, where the first ten work too.
    expect(pages.flatMap((page) => page.people).find((row) => row.uid === clientUids[0])).toMatchObject({
      companies: [P],
      inOtherCompanies: true,
    })
  })

  it('narrows on the server by the start of an address, whatever its case, and by level; analysts stay out below platform admin', async () => {
    const narrowed = await list(adminP, { company: P, emailPrefix: ` ${tag.toUpperCase()}-00` })
    expect(narrowed).toMatchObject({ total: 10, next: null, unlisted: null })
    expect(narrowed.people.map((row) => row.uid)).toEqual(clientUids.slice(0, 10))
    const admins = await list(adminP, { company: P, accessLevel: 3 })
    expect(admins.people.map((row) => row.uid).sort()).toEqual([adminP.uid, clientUids[0], clientUids[40], clientUids[80]].sort())
    expect(admins.total).toBe(4)
    // Asking for analysts does not show a company admin any: the type is the server's, clients.
    const asked = await list(adminP, { company: P, userType: 'analyst', emailPrefix: `${tag}-analyst` })
    expect(asked).toMatchObject({ people: [], total: 0 })
    const pagedPrefix = await allPages(adminP, { company: P, emailPrefix: `${tag}-0`, pageSize: 30 })
    expect(pagedPrefix.map((page) => page.people.length)).toEqual([30, 30, 30, 10])
    expect(uidsOf(pagedPrefix)).toEqual(clientUids.slice(0, 100))
  })

  it("gives a platform admin and a senior analyst the company's analysts too, by type and level", async () => {
    const everyone = await allPages(platform, { company: P, pageSize: 200 })
    expect(everyone).toHaveLength(1)
    expect(everyone[0]).toMatchObject({ total: 124, unlisted: 1, next: null, mayChange: true })
    expect(uidsOf(everyone).sort()).toEqual([adminP.uid, ...clientUids, ...analystUids].sort())
    const analysts = await list(platform, { company: null, userType: 'analyst', accessLevel: 5, emailPrefix: tag })
    expect(analysts.people.map((row) => row.uid)).toEqual(analystUids)
    expect(analysts.total).toBe(3)
    // A senior analyst reads who works for the company, analysts too (its page names them), and changes none of them.
    const read = await allPages(senior, { company: P, pageSize: 200 })
    expect(read[0]).toMatchObject({ total: 124, mayChange: false })
    expect(uidsOf(read).sort()).toEqual(uidsOf(everyone).sort())
    expect((await list(senior, { company: P, userType: 'analyst' })).people.map((row) => row.uid)).toEqual(analystUids)
  })

  it("gives the service catalogue a service's managers a page at a time, and nobody else asks for them", async () => {
    const managers = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        person(
          { userType: 'analyst', accessLevel: 5, companies: [], servicesManaged: ['password_cracking'] },
          `${tag}-manager-${i}@paging.example`,
        ),
      ),
    )
    const pages = await allPages(platform, { company: null, manages: 'password_cracking', emailPrefix: tag, pageSize: 2 })
    expect(pages.map((page) => page.people.length)).toEqual([2, 2, 1])
    expect(pages.map((page) => page.total)).toEqual([5, 5, 5])
    expect(uidsOf(pages)).toEqual(managers)
    const all = await list(platform, { company: null, manages: 'password_cracking', pageSize: 200 })
    expect(all.people.every((row) => row.servicesManaged.includes('password_cracking'))).toBe(true)
    expect(all.unlisted).toBe(0)
    await expectCallableError(call(adminP, 'listUsers', { company: P, manages: 'password_cracking' }), 'invalid-argument')
    await expectCallableError(call(senior, 'listUsers', { company: null, manages: 'password_cracking' }), 'permission-denied')
  })

  it('refuses another company whatever the cursor, and a page larger than the largest', async () => {
    const cursor = { email: null, uid: adminP.uid }
    await expectCallableError(call(adminB, 'listUsers', { company: P, cursor }), 'permission-denied', peopleMessages.notYourCompany)
    await expectCallableError(call(adminP, 'listUsers', { company: null, cursor }), 'permission-denied', peopleMessages.notYourCompany)
    await expectCallableError(call(adminP, 'listUsers', { company: P, pageSize: PEOPLE_PAGE.max + 1 }), 'invalid-argument')
  })

  it('lists someone whose users_access held no address once a change of their access stores it', async () => {
    expect(await rowOf(adminP, P, unlistedUid)).toBeUndefined()
    expect(await call(adminP, 'updateUserAccess', update(unlistedUid, { ...client1([P]), accessLevel: 2 }))).toEqual({ changed: true })
    expect((await stored(unlistedUid))?.email).toBe(`${tag}-unlisted@paging.example`)
    expect(await rowOf(adminP, P, unlistedUid)).toMatchObject({ accessLevel: 2 })
    expect((await list(adminP, { company: P })).unlisted).toBe(0)
  })
})

describe('claims follow users_access after every change (syncUserClaims)', () => {
  const eventually = (assertion: () => Promise<void>) => vi.waitFor(assertion, { timeout: 20_000, interval: 200 })
  const claimsOf = async (uid: string) => (await admin.auth.getUser(uid)).customClaims ?? {}

  it('a raise, a demotion (which ends the sign-ins), an invitation and a revocation', async () => {
    const target = await person(client1())
    await call(adminA, 'updateUserAccess', update(target, { ...client1(), accessLevel: 2 }))
    await eventually(async () => {
      expect(await claimsOf(target)).toMatchObject({ accessLevel: 2, userType: 'client' })
      expect((await stored(target))?.claims.synced).toEqual(expect.any(Number))
    })
    expect((await claimsOf(target)).revoked).toBeUndefined()

    await call(adminA, 'updateUserAccess', update(target, client1()))
    await eventually(async () => {
      expect(await claimsOf(target)).toMatchObject({ accessLevel: 1, revoked: expect.any(Number) })
      expect((await stored(target))?.claims.revoked).toEqual(expect.any(Number))
    })

    const email = `claims-${unique()}@people.example`
    await call(adminA, 'inviteUser', invitation(email, client1()))
    const { uid } = await admin.auth.getUserByEmail(email)
    await eventually(async () => expect(await claimsOf(uid)).toMatchObject({ accessLevel: 1, userType: 'client' }))

    const before = (await claimsOf(uid)).revoked
    await call(adminA, 'revokeUserSessions', { uid })
    await eventually(async () => expect((await claimsOf(uid)).revoked).not.toBe(before))
    expect((await claimsOf(uid)).revoked).toEqual(expect.any(Number))
  })
})
