// syncUserClaims against the emulators: every write of users_access reaches the Auth user's custom
// claims; a demotion, a removal or a document that asks for it ends the sign-ins, and callables
// refuse an ID token issued before that even though the token itself does not say so.
import { randomUUID } from 'node:crypto'
import { signInWithEmailLink } from 'firebase/auth'
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SIGN_IN_PATH } from '#domain/sign-in.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { callByName, connectCallableClient, expectCallableError, type CallableClient } from './callable-client.ts'

let admin: AdminClients
const clients: CallableClient[] = []

// The trigger runs in the functions emulator; its effects usually show within seconds, but its
// first run may wait for a new worker: as long as the index triggers get (template-fixtures.ts).
const eventually = (assertion: () => Promise<void>) => vi.waitFor(assertion, { timeout: 45_000, interval: 200 })
// A test waits for the trigger up to twice.
vi.setConfig({ testTimeout: 100_000 })

const claimsOf = async (uid: string) => (await admin.auth.getUser(uid)).customClaims ?? {}
const accessOf = async (uid: string) => (await admin.db.doc(userAccessPath(uid)).get()).data()

/** A person an administrator created: Auth user and users_access, the claims already synced. */
async function member(accessLevel: number, userType: 'client' | 'analyst') {
  const email = `claims-${randomUUID().slice(0, 8)}@claims.example`
  const { uid } = await admin.auth.createUser({ email, emailVerified: true })
  await admin.db
    .doc(userAccessPath(uid))
    .set({ claims: { accessLevel, userType }, companies: ['acme'], servicesEnabled: [], servicesManaged: [] })
  await eventually(async () => expect(await claimsOf(uid)).toEqual({ accessLevel, userType }))
  await eventually(async () => expect((await accessOf(uid))?.claims.synced).toBeInstanceOf(Timestamp))
  return { uid, email }
}

/** Signs a browser-like client in as `email`; its ID token carries the claims of that moment. */
async function signIn(email: string): Promise<CallableClient> {
  const client = connectCallableClient('user-claims')
  clients.push(client)
  const link = await admin.auth.generateSignInWithEmailLink(email, { url: `http://127.0.0.1:3000${SIGN_IN_PATH}`, handleCodeInApp: true })
  await signInWithEmailLink(client.auth, email, link)
  return client
}

async function expectRevoked(uid: string, client: CallableClient) {
  await eventually(async () => expect((await accessOf(uid))?.claims?.revoked ?? (await claimsOf(uid)).revoked).toBeDefined())
  const claims = await claimsOf(uid)
  expect(claims.revoked).toEqual(expect.any(Number))
  const signedInAt = Number((await client.auth.currentUser?.getIdTokenResult())?.claims.auth_time)
  expect(claims.revoked).toBeGreaterThanOrEqual(signedInAt)
  // Auth ends the refresh tokens of the sign-in (a real project refuses to refresh them).
  const validSince = Date.parse((await admin.auth.getUser(uid)).tokensValidAfterTime ?? '')
  expect(validSince).toBeGreaterThanOrEqual(signedInAt * 1000)
  expect(Math.floor(validSince / 1000)).toBe(claims.revoked)
}

beforeAll(() => {
  admin = connectToEmulators()
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe('syncUserClaims', () => {
  it('copies a new users_access into the claims and marks it synced, keeping other claims', async () => {
    const { uid } = await admin.auth.createUser({ email: `claims-${randomUUID().slice(0, 8)}@claims.example` })
    await admin.auth.setCustomUserClaims(uid, { revoked: 1_700_000_000 })
    await admin.db.doc(userAccessPath(uid)).set({ claims: { accessLevel: 3, userType: 'client' }, companies: ['acme'] })
    await eventually(async () => expect(await claimsOf(uid)).toEqual({ revoked: 1_700_000_000, accessLevel: 3, userType: 'client' }))
    await eventually(async () => expect((await accessOf(uid))?.claims.synced).toBeInstanceOf(Timestamp))
    expect((await accessOf(uid))?.claims.revoked).toBeUndefined()
  })

  it('a promotion reaches the claims without ending the sign-in', async () => {
    const person = await member(5, 'analyst')
    const client = await signIn(person.email)
    const synced = (await accessOf(person.uid))?.claims.synced as Timestamp
    await admin.db.doc(userAccessPath(person.uid)).update({ 'claims.accessLevel': 7 })
    await eventually(async () => expect(await claimsOf(person.uid)).toEqual({ accessLevel: 7, userType: 'analyst' }))
    await eventually(async () =>
      expect(((await accessOf(person.uid))?.claims.synced as Timestamp).toMillis()).toBeGreaterThan(synced.toMillis()),
    )
    // The browser refreshes and carries the new level.
    expect((await client.auth.currentUser?.getIdTokenResult(true))?.claims.accessLevel).toBe(7)
  })

  it('a demotion lowers the claims, revokes the sign-ins, and callables refuse the old ID token at once', async () => {
    const person = await member(7, 'analyst')
    const client = await signIn(person.email)
    // The token of the sign-in works before.
    expect(await callByName(client, 'getSearchClient', { type: 'search' })).toMatchObject({ success: true })

    await admin.db.doc(userAccessPath(person.uid)).update({ 'claims.accessLevel': 5 })
    await eventually(async () => expect((await claimsOf(person.uid)).accessLevel).toBe(5))
    // Not refreshed: the cached ID token still says level 7 and carries no `revoked` claim.
    const old = await client.auth.currentUser?.getIdTokenResult()
    expect(old?.claims).toMatchObject({ accessLevel: 7 })
    expect(old?.claims.revoked).toBeUndefined()
    await expectCallableError(callByName(client, 'getSearchClient', { type: 'search' }), 'unauthenticated')
    await expectRevoked(person.uid, client)
    expect((await accessOf(person.uid))?.claims).toMatchObject({ accessLevel: 5, revoked: expect.any(Timestamp) })
  })

  it('a change of user type revokes the sign-ins', async () => {
    const person = await member(3, 'analyst')
    const client = await signIn(person.email)
    await admin.db.doc(userAccessPath(person.uid)).update({ 'claims.userType': 'client' })
    await eventually(async () => expect((await claimsOf(person.uid)).userType).toBe('client'))
    await expectRevoked(person.uid, client)
  })

  it('a removed users_access takes the access claims away and revokes the sign-ins', async () => {
    const person = await member(9, 'analyst')
    const client = await signIn(person.email)
    await admin.db.doc(userAccessPath(person.uid)).delete()
    await eventually(async () => expect(await claimsOf(person.uid)).toEqual({ revoked: expect.any(Number) }))
    await expectCallableError(callByName(client, 'getSearchClient', { type: 'search' }), 'unauthenticated')
    await expectRevoked(person.uid, client)
  })

  it('a users_access whose claims.revoked moves (sign out everywhere) revokes the sign-ins, keeping the level', async () => {
    const person = await member(2, 'client')
    const client = await signIn(person.email)
    const signedInAt = Number((await client.auth.currentUser?.getIdTokenResult())?.claims.auth_time)
    await admin.db.doc(userAccessPath(person.uid)).update({ 'claims.revoked': FieldValue.serverTimestamp() })
    await eventually(async () => expect((await claimsOf(person.uid)).revoked).toBeGreaterThanOrEqual(signedInAt))
    expect(await claimsOf(person.uid)).toMatchObject({ accessLevel: 2, userType: 'client' })
    await expectRevoked(person.uid, client)
  })
})
