// fillMissingAddresses: users_access documents written before the address was kept get Auth's,
// lower-cased, a page at a time in order of document id, so the people lists hold everyone. An
// address already stored is never touched, a document whose account is gone is left and counted,
// a stretch ends with where to go on, and a second run writes nothing.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { readUserAccess, userAccessPath, USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { fillMissingAddressesFrom, FILL_PAGE } from '../../functions/src/admin/fill-addresses.ts'
import { companyDocument } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const tag = randomUUID().slice(0, 8)
// F holds the people written before the address was kept; G the documents whose accounts are gone.
const F = `fill-f-${tag}`
const G = `fill-g-${tag}`
const COUNT = FILL_PAGE + 50
const id = (i: number) => `fill-${tag}-a-${String(i).padStart(3, '0')}`
const NO_ADDRESS = `fill-${tag}-b-no-address`
const KEPT = `fill-${tag}-b-kept`
const GONE = [0, 1, 2].map((i) => `fill-${tag}-c-gone-${i}`)
const addressOf = (i: number) => `Fill-${tag}-${String(i).padStart(3, '0')}@Fill.Example`

let admin: AdminClients
const clients: CallableClient[] = []
let platform: CallableClient
let companyAdmin: CallableClient

/** users_access as it was before the address was kept. */
const oldDocument = (company: string) => ({
  claims: { userType: 'client', accessLevel: 1 },
  companies: [company],
  servicesEnabled: [],
  servicesManaged: [],
})

async function signedIn(name: string, claims: { userType: 'client' | 'analyst'; accessLevel: number }, companies: string[]) {
  const client = connectCallableClient(`fill-${name}`)
  clients.push(client)
  const { uid, email } = await signInWithClaims(client, admin.auth, claims)
  await admin.db.doc(userAccessPath(uid)).set({ ...oldDocument(companies[0] ?? F), claims, companies, email })
  return client
}

const fill = async (client: CallableClient, cursor: string | null) =>
  (await callByName(client, 'fillMissingAddresses', { cursor })) as CallableResponse<'fillMissingAddresses'>

/** Every stretch from the first document to the last, as the people page runs them. */
async function fillAll(client: CallableClient) {
  const sum = { read: 0, filled: 0, withoutAccount: 0, calls: 0 }
  let cursor: string | null = null
  do {
    const answer = await fill(client, cursor)
    sum.read += answer.read
    sum.filled += answer.filled
    sum.withoutAccount += answer.withoutAccount
    sum.calls += 1
    cursor = answer.next
  } while (cursor !== null && sum.calls < 100)
  return sum
}

async function stored(uid: string) {
  const snapshot = await admin.db.doc(userAccessPath(uid)).get()
  return {
    email: snapshot.get('email') as string | null | undefined,
    updated: snapshot.updateTime?.toMillis(),
    access: readUserAccess(snapshot.data()),
  }
}

const list = async (company: string) =>
  (await callByName(platform, 'listUsers', { company, pageSize: 200 })) as CallableResponse<'listUsers'>

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(F)).set(companyDocument(F))
  await admin.db.doc(companyPath(G)).set(companyDocument(G))
  const accounts = [
    ...Array.from({ length: COUNT }, (_, i) => ({ uid: id(i), email: addressOf(i) })),
    { uid: NO_ADDRESS },
    { uid: KEPT, email: `auth-${tag}@fill.example` },
  ]
  const imported = await admin.auth.importUsers(accounts)
  expect(imported.failureCount).toBe(0)
  const writer = admin.db.bulkWriter()
  for (const { uid } of accounts) if (uid !== KEPT) void writer.set(admin.db.doc(userAccessPath(uid)), oldDocument(F))
  // Already stored: never replaced, whatever Auth says now.
  void writer.set(admin.db.doc(userAccessPath(KEPT)), { ...oldDocument(F), email: `kept-${tag}@fill.example` })
  for (const uid of GONE) void writer.set(admin.db.doc(userAccessPath(uid)), oldDocument(G))
  await writer.close()
  platform = await signedIn('platform', { userType: 'analyst', accessLevel: 9 }, [])
  companyAdmin = await signedIn('company-admin', { userType: 'client', accessLevel: 3 }, [F])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe('fillMissingAddresses', () => {
  it('starts with the people of F out of the list, counted as not listed yet', async () => {
    expect(await list(F)).toMatchObject({ total: 2, unlisted: COUNT + 1 })
  })

  it('fills a page at a time in order of document id and says where to go on', async () => {
    const step = await fillMissingAddressesFrom(admin.db, admin.auth, `fill-${tag}-a-`, { deadline: 0, pageSize: 50 })
    expect(step).toEqual({ read: 50, filled: 50, withoutAccount: 0, next: id(49) })
    expect((await stored(id(0))).email).toBe(addressOf(0).toLowerCase())
    expect((await stored(id(49))).email).toBe(addressOf(49).toLowerCase())
    expect((await stored(id(50))).email).toBeUndefined()
    // Going on from there: the next page only.
    const next = await fillMissingAddressesFrom(admin.db, admin.auth, step.next, { deadline: 0, pageSize: 50 })
    expect(next).toMatchObject({ read: 50, filled: 50, next: id(99) })
    expect((await stored(id(100))).email).toBeUndefined()
  })

  it('refuses anyone below platform admin, writing nothing', async () => {
    await expectCallableError(fill(companyAdmin, null), 'permission-denied')
    expect((await stored(id(100))).email).toBeUndefined()
  })

  it('fills every document with an account, keeps a stored address and leaves those without an account', async () => {
    // The claims sync writes each new document once (claims.synced): the document kept is the one after it.
    await vi.waitFor(async () => expect((await stored(KEPT)).access.claims.synced).toBeDefined(), { timeout: 45_000, interval: 200 })
    const kept = await stored(KEPT)
    const run = await fillAll(platform)
    // More than a page: the whole collection, with what other tests left in it.
    expect(run.read).toBeGreaterThan(COUNT + 4)
    // The 150 people of F still without an address and the account without one; any others left by other tests.
    expect(run.filled).toBeGreaterThanOrEqual(COUNT - 100 + 1)
    expect(run.withoutAccount).toBeGreaterThanOrEqual(GONE.length)
    for (const i of [100, 150, COUNT - 1]) expect((await stored(id(i))).email).toBe(addressOf(i).toLowerCase())
    // An account without an address stores null: listed first, no longer left out.
    expect((await stored(NO_ADDRESS)).email).toBeNull()
    expect(await stored(KEPT)).toEqual(kept)
    for (const uid of GONE) expect((await stored(uid)).email).toBeUndefined()
    // Only the address was written.
    expect((await stored(id(150))).access).toMatchObject({ claims: { userType: 'client', accessLevel: 1 }, companies: [F] })

    // Everyone of F is listed now; the documents without an account stay counted apart.
    expect(await list(F)).toMatchObject({ total: COUNT + 3, unlisted: 0 })
    expect((await list(G)).unlisted).toBe(GONE.length)

    // A second run writes nothing and finds the same documents without an account.
    const before = await Promise.all([id(0), id(150), NO_ADDRESS, KEPT, GONE[0]!].map(stored))
    const again = await fillAll(platform)
    expect(again).toMatchObject({ filled: 0, withoutAccount: run.withoutAccount })
    expect(await Promise.all([id(0), id(150), NO_ADDRESS, KEPT, GONE[0]!].map(stored))).toEqual(before)
  }, 120_000)

  it('reads the collection by id: its size is the documents it holds', async () => {
    const count = (await admin.db.collection(USERS_ACCESS_COLLECTION).count().get()).data().count
    expect((await fillAll(platform)).read).toBe(count)
  })
})
