// Email keys through their callables and through a first sign-in: one key in use per address or
// domain, consumer mail domains refused, revocation and expiry honoured, an exact address beating
// its domain, and every creation, revocation and use recorded as an audit event.
import { randomUUID } from 'node:crypto'
import { signInWithEmailLink } from 'firebase/auth'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUDIT_EVENTS_COLLECTION } from '#domain/audit-events.ts'
import { companyPath } from '#domain/companies.ts'
import { EMAIL_KEYS_COLLECTION, emailKeyFromDocument, emailKeyMessages, emailKeyPath } from '#domain/email-keys.ts'
import { SIGN_IN_PATH } from '#domain/sign-in.ts'
import { readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { companyDocument } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const COMPANY = `keys-${unique()}`
const DAY = 24 * 3600_000

let admin: AdminClients
let platform: CallableClient
let platformUid: string
let newcomer: CallableClient

const keyRequest = (match: string, overrides: Record<string, unknown> = {}) => ({
  match,
  company: COMPANY,
  userType: 'client' as const,
  accessLevel: 1,
  expiresAt: Date.now() + 30 * DAY,
  ...overrides,
})

async function createKey(match: string, overrides: Record<string, unknown> = {}): Promise<string> {
  return ((await callByName(platform, 'createEmailKey', keyRequest(match, overrides))) as { id: string }).id
}

async function key(id: string) {
  return emailKeyFromDocument((await admin.db.doc(emailKeyPath(id)).get()).data())
}

async function events(id: string) {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('targetId', '==', id).get()
  return snapshot.docs.map((doc) => doc.data())
}

/** A first sign-in of `email` through a link, then handleSignIn, as the browser does it. */
async function firstSignIn(email: string): Promise<{ uid: string; answer: unknown }> {
  await newcomer.auth.signOut()
  await admin.auth.createUser({ email, emailVerified: false })
  const link = await admin.auth.generateSignInWithEmailLink(email, { url: `http://127.0.0.1:3000${SIGN_IN_PATH}`, handleCodeInApp: true })
  const { user } = await signInWithEmailLink(newcomer.auth, email, link)
  const answer = await callByName(newcomer, 'handleSignIn').catch((error: unknown) => error)
  return { uid: user.uid, answer }
}

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(COMPANY)).set(companyDocument(COMPANY))
  platform = connectCallableClient('email-keys-platform')
  newcomer = connectCallableClient('email-keys-newcomer')
  ;({ uid: platformUid } = await signInWithClaims(platform, admin.auth, { userType: 'analyst', accessLevel: 9 }))
})

afterAll(async () => {
  await platform.close()
  await newcomer.close()
  await disconnect(admin)
})

describe('createEmailKey', () => {
  it('stores the normalised match with its expiry and no uses, and records it', async () => {
    const domain = `Keyed-${unique()}.Example.`
    const id = await createKey(domain)
    const stored = await key(id)
    expect(stored).toMatchObject({ match: `@${domain.toLowerCase().slice(0, -1)}`, company: COMPANY, uses: 0, revokedAt: null })
    expect(stored?.expiresAt).toBeGreaterThan(Date.now())
    expect(await events(id)).toEqual([expect.objectContaining({ action: 'email_key.created', actorUid: platformUid, companyId: COMPANY })])
  })

  it('refuses a consumer mail domain, a second key in use for the same match, and an expiry past a year', async () => {
    await expectCallableError(
      callByName(platform, 'createEmailKey', keyRequest('@gmail.com')),
      'invalid-argument',
      emailKeyMessages.consumer,
    )
    await expectCallableError(
      callByName(platform, 'createEmailKey', keyRequest(`@far-${unique()}.example`, { expiresAt: Date.now() + 400 * DAY })),
      'invalid-argument',
      emailKeyMessages.expiry,
    )
    const match = `@twice-${unique()}.example`
    const first = await createKey(match)
    await expectCallableError(callByName(platform, 'createEmailKey', keyRequest(match)), 'already-exists', emailKeyMessages.exists)
    const before = await admin.db.collection(EMAIL_KEYS_COLLECTION).where('match', '==', match).get()
    expect(before.docs.map((doc) => doc.id)).toEqual([first])
    // Once revoked, the match may have a new key.
    await callByName(platform, 'revokeEmailKey', { id: first })
    expect(await createKey(match)).not.toBe(first)
  })

  it('refuses a company that does not exist', async () => {
    await expectCallableError(
      callByName(platform, 'createEmailKey', keyRequest(`@lost-${unique()}.example`, { company: `none-${unique()}` })),
      'invalid-argument',
      emailKeyMessages.company,
    )
  })
})

describe('revokeEmailKey', () => {
  it('revokes once, recorded once', async () => {
    const id = await createKey(`@revoked-${unique()}.example`)
    expect(await callByName(platform, 'revokeEmailKey', { id })).toEqual({ revoked: true })
    expect(await callByName(platform, 'revokeEmailKey', { id })).toEqual({ revoked: false })
    expect((await key(id))?.revokedAt).toEqual(expect.any(Number))
    expect((await events(id)).map((event) => event.action).sort()).toEqual(['email_key.created', 'email_key.revoked'])
  })
})

describe('a first sign-in through a key', () => {
  it('provisions the newcomer, counts the use and records it', async () => {
    const domain = `newcomers-${unique()}.example`
    const id = await createKey(`@${domain}`, { accessLevel: 2 })
    const email = `new-${unique()}@${domain}`
    const { uid, answer } = await firstSignIn(email)
    expect(answer).toEqual({ userType: 'client', accessLevel: 2 })
    expect(readUserAccess((await admin.db.doc(userAccessPath(uid)).get()).data())).toMatchObject({ companies: [COMPANY] })
    expect(await key(id)).toMatchObject({ uses: 1, lastUsedAt: expect.any(Number) })
    expect(await events(id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'email_key.used', actorUid: uid, actorEmail: email, companyId: COMPANY })]),
    )
  })

  it('takes the exact address over its domain', async () => {
    const domain = `exact-${unique()}.example`
    const email = `boss-${unique()}@${domain}`
    await createKey(`@${domain}`, { accessLevel: 1 })
    const exact = await createKey(email, { accessLevel: 3 })
    const { answer } = await firstSignIn(email)
    expect(answer).toEqual({ userType: 'client', accessLevel: 3 })
    expect((await key(exact))?.uses).toBe(1)
  })

  it('refuses through a revoked or an expired key, and through a consumer domain key stored by hand', async () => {
    const revokedDomain = `gone-${unique()}.example`
    await callByName(platform, 'revokeEmailKey', { id: await createKey(`@${revokedDomain}`) })
    const expiredDomain = `old-${unique()}.example`
    const expired = await admin.db.collection(EMAIL_KEYS_COLLECTION).add({
      match: `@${expiredDomain}`,
      company: COMPANY,
      userType: 'client',
      accessLevel: 1,
      expiresAt: Timestamp.fromMillis(Date.now() - DAY),
      uses: 0,
    })
    await admin.db.collection(EMAIL_KEYS_COLLECTION).add({ match: '@yahoo.com', company: COMPANY, userType: 'client', accessLevel: 1 })
    for (const email of [`a-${unique()}@${revokedDomain}`, `b-${unique()}@${expiredDomain}`, `c-${unique()}@yahoo.com`]) {
      const { uid, answer } = await firstSignIn(email)
      expect(answer).toMatchObject({ code: 'functions/permission-denied' })
      expect((await admin.db.doc(userAccessPath(uid)).get()).exists).toBe(false)
    }
    expect((await key(expired.id))?.uses).toBe(0)
    expect(await events(expired.id)).toEqual([])
  })
})
