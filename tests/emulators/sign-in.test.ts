// The sign-in callables, called the way the browser calls them (client SDK against the Functions
// and Auth emulators), with the emails read from a mail catcher on the SMTP port the functions'
// settings name (functions/.env.demo-sectest).
import { randomUUID } from 'node:crypto'
import { createUserWithEmailAndPassword, isSignInWithEmailLink, signInWithEmailLink, signOut, type Auth } from 'firebase/auth'
import { httpsCallable, type Functions } from 'firebase/functions'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SIGN_IN_PATH, signInMessages, type SignInResponse } from '#domain/sign-in.ts'
import { type HandleSignInResponse, HandleSignInResponseSchema, userAccessPath } from '#domain/users-access.ts'
import { EMAIL_KEYS_COLLECTION } from '#domain/email-keys.ts'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { startMailCatcher, type MailCatcher } from '../../emulators/mail/mail-catcher.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { connectCallableClient, expectCallableError, revokeSignIn, type CallableClient } from './callable-client.ts'
import * as v from 'valibot'

// functions/.env.demo-sectest: SMTP_URL and the first of APP_ORIGINS.
const SMTP_PORT = 1025
const WEB_ORIGIN = 'http://127.0.0.1:3000'
const WEB_CONTINUE_URL = `${WEB_ORIGIN}${SIGN_IN_PATH}`
const FUNCTIONS_URL = `http://${EMULATOR_HOST}:${EMULATOR_PORTS.functions}/${PROJECT_ID}/us-central1`

interface CaughtMail {
  id: string
  to: string[]
  subject: string
  text: string
  html: string
  links: string[]
}

let admin: AdminClients
let mail: MailCatcher | undefined
let client: CallableClient
let auth: Auth
let functions: Functions

const unique = () => randomUUID().slice(0, 8)

// A fresh address per test: the per-address rate limit and the mailbox stay the test's own.
const address = (who: string, domain = 'acme-test.example') => `${who}-${unique()}@${domain}`

async function sendSignInLink(data: unknown): Promise<SignInResponse> {
  return (await httpsCallable<unknown, SignInResponse>(functions, 'sendSignInLink')(data)).data
}

async function handleSignIn(): Promise<HandleSignInResponse> {
  return (await httpsCallable<unknown, HandleSignInResponse>(functions, 'handleSignIn')()).data
}

const webRequest = (email: string, timeZone = 'Europe/Paris') => ({ email, url: WEB_ORIGIN, timeZone })

function inbox(): string {
  if (!mail) throw new Error('the mail catcher is not running')
  return mail.inboxUrl
}

async function waitForMail(to: string, after: number): Promise<CaughtMail> {
  const query = new URLSearchParams({ to, after: String(after), timeout: '15000' })
  const response = await fetch(`${inbox()}/api/wait?${query}`)
  if (!response.ok) throw new Error(`no mail for ${to}: ${response.status}`)
  const summary = (await response.json()) as { id: string }
  return (await (await fetch(`${inbox()}/api/messages/${summary.id}`)).json()) as CaughtMail
}

async function mailsTo(to: string): Promise<unknown[]> {
  return (await (await fetch(`${inbox()}/api/messages?to=${encodeURIComponent(to)}`)).json()) as unknown[]
}

function signInLinkOf(message: CaughtMail): string {
  const link = message.links.find((l) => l.includes('oobCode='))
  if (!link) throw new Error(`no sign-in link in ${JSON.stringify(message.links)}`)
  return link
}

// An account that an administrator created: Auth user plus users_access.
async function createMember(options: { accessLevel?: number; userType?: 'client' | 'analyst'; customClaims?: object } = {}) {
  const email = address('member')
  const user = await admin.auth.createUser({ email, emailVerified: true })
  if (options.customClaims) await admin.auth.setCustomUserClaims(user.uid, options.customClaims)
  const claims = { accessLevel: options.accessLevel ?? 2, userType: options.userType ?? 'client' }
  await admin.db.doc(userAccessPath(user.uid)).set({ claims, companies: ['acme'], servicesEnabled: [], servicesManaged: [] })
  return { uid: user.uid, email, claims }
}

// An email key for a domain of its own.
async function createDomainKey(key: { company: string; accessLevel: number; userType: 'client' | 'analyst' }) {
  const domain = `keyed-${unique()}.example`
  await admin.db.collection(EMAIL_KEYS_COLLECTION).add({
    match: `@${domain}`,
    ...key,
    createdAt: Timestamp.now(),
    createdBy: 'platform@sectest.example',
  })
  return domain
}

// Signs the client in through an email link that the Admin SDK generated (no callable, so no
// rate limit is spent).
async function signInWithGeneratedLink(email: string): Promise<string> {
  const link = await admin.auth.generateSignInWithEmailLink(email, { url: WEB_CONTINUE_URL, handleCodeInApp: true })
  const credential = await signInWithEmailLink(auth, email, link)
  return credential.user.uid
}

beforeAll(async () => {
  admin = connectToEmulators()
  mail = await startMailCatcher({ smtpPort: SMTP_PORT, httpPort: 0 })
  client = connectCallableClient('sign-in')
  auth = client.auth
  functions = client.functions
})

afterAll(async () => {
  await client.close()
  await mail?.close()
  await disconnect(admin)
})

describe('sendSignInLink', () => {
  it('mails a link to a member, leading back to /auth/redirect, with the time in their zone', async () => {
    const member = await createMember()
    const timeZone = 'Asia/Kathmandu'
    const before = Date.now()
    const response = await sendSignInLink(webRequest(member.email, timeZone))
    const after = Date.now()
    expect(response).toEqual({ success: true, message: signInMessages.sent })

    const message = await waitForMail(member.email, before)
    expect(message.to).toEqual([member.email])
    expect(message.subject).toBe('Your Bulwark sign-in link')
    const link = signInLinkOf(message)
    expect(isSignInWithEmailLink(auth, link)).toBe(true)
    const url = new URL(link)
    expect(url.searchParams.get('mode')).toBe('signIn')
    expect(url.searchParams.get('continueUrl')).toBe(WEB_CONTINUE_URL)
    expect(message.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`)
    expect(message.text).toContain(link)

    // Kathmandu is UTC+05:45 (the emulator's own TZ is UTC): the request's minute there.
    const minutes = new Set<string>()
    for (let t = before - 60_000; t <= after + 60_000; t += 30_000) {
      minutes.add(new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(t))
    }
    for (const body of [message.text, message.html]) {
      expect(body).toContain(timeZone)
      expect([...minutes].some((hhmm) => body.includes(hhmm))).toBe(true)
      expect(body).toContain('expires')
    }
  })

  it('accepts the desktop app URL (origin plus /auth/redirect) as the continue URL', async () => {
    const member = await createMember()
    const before = Date.now()
    const response = await sendSignInLink({ email: member.email, url: `http://tauri.localhost${SIGN_IN_PATH}`, timeZone: 'UTC' })
    expect(response.success).toBe(true)
    const link = signInLinkOf(await waitForMail(member.email, before))
    expect(new URL(link).searchParams.get('continueUrl')).toBe(`http://tauri.localhost${SIGN_IN_PATH}`)
  })

  it('trims and lowercases the address', async () => {
    const member = await createMember()
    const before = Date.now()
    const response = await sendSignInLink(webRequest(`  ${member.email.toUpperCase()} `))
    expect(response.success).toBe(true)
    expect((await waitForMail(member.email, before)).to).toEqual([member.email])
  })

  it('mails a link to an address that matches an email key, creating no account until the link is used', async () => {
    const domain = await createDomainKey({ company: 'initech', accessLevel: 1, userType: 'client' })
    const email = address('newcomer', domain)
    const before = Date.now()
    expect(await sendSignInLink(webRequest(email))).toEqual({ success: true, message: signInMessages.sent })
    expect(signInLinkOf(await waitForMail(email, before))).toContain('oobCode=')
    await expect(admin.auth.getUserByEmail(email)).rejects.toMatchObject({ code: 'auth/user-not-found' })
  })

  it('matches an email key for the exact address', async () => {
    const domain = `exact-${unique()}.example`
    const email = address('exact', domain)
    const other = address('other', domain)
    await admin.db
      .collection(EMAIL_KEYS_COLLECTION)
      .add({ match: email, company: 'acme', accessLevel: 2, userType: 'client', createdAt: Timestamp.now(), createdBy: 'test' })
    const before = Date.now()
    expect((await sendSignInLink(webRequest(email))).success).toBe(true)
    expect(signInLinkOf(await waitForMail(email, before))).toContain('oobCode=')
    expect(await sendSignInLink(webRequest(other))).toEqual({ success: true, message: signInMessages.sent })
    expect(await mailsTo(other)).toEqual([])
  })

  it('answers anyone else exactly as a member, without a mail and without creating an account', async () => {
    const stranger = address('stranger')
    const withoutAccess = address('no-access')
    await admin.auth.createUser({ email: withoutAccess })
    const disabled = await createMember()
    await admin.auth.updateUser(disabled.uid, { disabled: true })

    for (const email of [stranger, withoutAccess, disabled.email]) {
      expect(await sendSignInLink(webRequest(email))).toEqual({ success: true, message: signInMessages.sent })
    }
    await expect(admin.auth.getUserByEmail(stranger)).rejects.toMatchObject({ code: 'auth/user-not-found' })
    for (const email of [stranger, withoutAccess, disabled.email]) expect(await mailsTo(email)).toEqual([])
  })

  // functions/.env.demo-sectest: SIGN_IN_ANSWER_MS=500.
  it('answers a member and a stranger after the same fixed time', async () => {
    const member = await createMember()
    const timed = async (email: string) => {
      const started = performance.now()
      const response = await sendSignInLink(webRequest(email))
      return { response, ms: performance.now() - started }
    }
    const forMember = await timed(member.email)
    const forStranger = await timed(address('stranger'))
    expect(forStranger.response).toEqual(forMember.response)
    expect(forMember.ms).toBeGreaterThanOrEqual(500)
    expect(forStranger.ms).toBeGreaterThanOrEqual(500)
    expect(Math.abs(forMember.ms - forStranger.ms)).toBeLessThan(250)
  })

  it('rejects malformed requests as invalid-argument', async () => {
    const email = (await createMember()).email
    const good = webRequest(email)
    const bad: unknown[] = [
      { url: good.url, timeZone: good.timeZone },
      { ...good, email: 'not-an-email' },
      { ...good, email: 'two words@x.example' },
      { ...good, email: `${'a'.repeat(250)}@x.example` },
      { ...good, extra: true },
      { ...good, url: 'not a url' },
      { ...good, url: 'https://evil.example' },
      { ...good, url: `${WEB_ORIGIN}/somewhere-else` },
      { ...good, url: `${WEB_ORIGIN}/?next=/admin` },
      { ...good, url: 'http://127.0.0.1:3001' },
      // Firebase makes links to http(s) pages only.
      { ...good, url: `tauri://localhost${SIGN_IN_PATH}` },
      { ...good, timeZone: 'Mars/Olympus_Mons' },
      { ...good, timeZone: 42 },
      'viewer@acme.example',
      null,
      [good],
    ]
    for (const data of bad) await expectCallableError(sendSignInLink(data), 'invalid-argument')
    await expect(sendSignInLink({ ...good, email: 'not-an-email' })).rejects.toThrow('Invalid email')
    // None of them counted against the address.
    expect(await mailsTo(email)).toEqual([])
    expect((await sendSignInLink(good)).success).toBe(true)
  })

  // The emulator hands the functions the X-Forwarded-For a caller sends, as Google's front end
  // would after appending the address it saw; a raw POST in the callable protocol stands in for
  // requests from other networks.
  const callFrom = async (forwardedFor: string, email: string) => {
    const response = await fetch(`${FUNCTIONS_URL}/sendSignInLink`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ data: webRequest(email) }),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { result: SignInResponse }).result
  }
  // A caller IP of its own for each test (benchmarking range 198.18.0.0/15): a test that shared one
  // with the test that spends a whole window would find it spent.
  let nextIp = Math.floor(Math.random() * 60_000)
  const randomIp = () => {
    nextIp += 1
    return `198.18.${(nextIp >> 8) & 255}.${nextIp & 255}`
  }

  it('allows five requests per address from one network in a window, then says to wait', async () => {
    const member = await createMember()
    const ip = randomIp()
    for (let i = 0; i < 5; i += 1) expect((await callFrom(ip, member.email)).success).toBe(true)
    expect(await callFrom(ip, member.email)).toEqual({ success: false, message: signInMessages.tooMany })
    // Casing or spaces do not make another address.
    expect((await callFrom(ip, ` ${member.email.toUpperCase()}`)).message).toBe(signInMessages.tooMany)
    expect(await mailsTo(member.email)).toHaveLength(5)
    // From another network the person still gets a link: nobody else can use up their sign-ins.
    expect((await callFrom('198.51.100.9', member.email)).success).toBe(true)
  })

  it('counts a stranger’s address like a member’s, so the limit tells nothing either', async () => {
    const ip = randomIp()
    const stranger = address('stranger')
    for (let i = 0; i < 5; i += 1) expect((await callFrom(ip, stranger)).success).toBe(true)
    expect(await callFrom(ip, stranger)).toEqual({ success: false, message: signInMessages.tooMany })
  })

  it('allows thirty requests per caller IP in a window, whatever the addresses', async () => {
    const ip = randomIp()
    for (let i = 0; i < 30; i += 1) expect((await callFrom(ip, address('crowd'))).message).toBe(signInMessages.sent)
    const member = await createMember()
    expect(await callFrom(ip, member.email)).toEqual({ success: false, message: signInMessages.tooMany })
    expect((await callFrom('198.51.100.7', member.email)).success).toBe(true)
  })

  it('takes the caller IP from the trusted hop, not the left-most X-Forwarded-For entry the client wrote', async () => {
    const ip = randomIp()
    for (let i = 0; i < 30; i += 1) {
      expect((await callFrom(`10.${i}.${i}.${i}, ${ip}`, address('spoof'))).message).toBe(signInMessages.sent)
    }
    expect(await callFrom(`10.99.99.99, ${ip}`, address('spoof'))).toEqual({ success: false, message: signInMessages.tooMany })
  })

  it('answers cannotSend when the mail server is down', async () => {
    const member = await createMember()
    await mail?.close()
    mail = undefined
    try {
      expect(await sendSignInLink(webRequest(member.email))).toEqual({ success: false, message: signInMessages.cannotSend })
    } finally {
      mail = await startMailCatcher({ smtpPort: SMTP_PORT, httpPort: 0 })
    }
    // And recovers once it is back.
    expect((await sendSignInLink(webRequest(member.email))).success).toBe(true)
  })
})

describe('the emulator link', () => {
  it('redirects once (303) to the continue URL with mode, oobCode, apiKey and lang', async () => {
    const member = await createMember()
    const before = Date.now()
    await sendSignInLink(webRequest(member.email))
    const link = signInLinkOf(await waitForMail(member.email, before))
    const url = new URL(link)
    expect(`${url.origin}${url.pathname}`).toBe(`http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}/emulator/action`)
    expect([...url.searchParams.keys()].sort()).toEqual(['apiKey', 'continueUrl', 'lang', 'mode', 'oobCode'])
    expect(url.searchParams.get('apiKey')).toBe('fake-api-key')

    const response = await fetch(link, { redirect: 'manual' })
    expect(response.status).toBe(303)
    const target = new URL(response.headers.get('location') ?? '')
    expect(`${target.origin}${target.pathname}`).toBe(WEB_CONTINUE_URL)
    expect(Object.fromEntries(target.searchParams)).toEqual({
      mode: 'signIn',
      lang: 'en',
      oobCode: url.searchParams.get('oobCode'),
      apiKey: 'fake-api-key',
    })
    // The page the browser lands on holds a link the client SDK accepts.
    expect(isSignInWithEmailLink(auth, target.toString())).toBe(true)
  })
})

describe('the sign-up gate', () => {
  it('refuses to create an account through a link for an address no email key matches', async () => {
    const stranger = address('stranger')
    const link = await admin.auth.generateSignInWithEmailLink(stranger, { url: WEB_CONTINUE_URL, handleCodeInApp: true })
    await expect(signInWithEmailLink(auth, stranger, link)).rejects.toThrow(/not currently authorized/)
    await expect(admin.auth.getUserByEmail(stranger)).rejects.toMatchObject({ code: 'auth/user-not-found' })
  })
})

describe('handleSignIn', () => {
  it('requires a signed-in caller', async () => {
    await signOut(auth)
    await expectCallableError(handleSignIn(), 'unauthenticated')
  })

  it('copies access into custom claims, keeps other claims, marks synced and records one sign-in', async () => {
    const member = await createMember({ accessLevel: 5, userType: 'analyst', customClaims: { revoked: 1_700_000_000 } })
    const uid = await signInWithGeneratedLink(member.email)
    expect(uid).toBe(member.uid)

    const result = await handleSignIn()
    expect(result).toEqual({ accessLevel: 5, userType: 'analyst' })
    expect(v.is(HandleSignInResponseSchema, result)).toBe(true)

    expect((await admin.auth.getUser(uid)).customClaims).toEqual({ revoked: 1_700_000_000, accessLevel: 5, userType: 'analyst' })
    const access = (await admin.db.doc(userAccessPath(uid)).get()).data()
    expect(access?.claims).toMatchObject({ accessLevel: 5, userType: 'analyst' })
    expect(access?.claims.synced).toBeInstanceOf(Timestamp)
    // A document written without the address (as before users_access kept it) gets it, for the people lists.
    expect(access?.email).toBe(member.email.toLowerCase())
    const events = await admin.db.collection(EVENTS_COLLECTION).where('createdByUid', '==', uid).get()
    expect(events.docs.map((d) => d.data())).toEqual([{ type: 'sign_in', createdByUid: uid, createdAt: expect.any(Timestamp) }])

    // A refreshed ID token carries the claims.
    const token = await auth.currentUser?.getIdTokenResult(true)
    expect(token?.claims).toMatchObject({ accessLevel: 5, userType: 'analyst' })
  })

  it('provisions the first sign-in of an email-key address, through the emailed link', async () => {
    const domain = await createDomainKey({ company: 'initech', accessLevel: 1, userType: 'client' })
    const email = address('newcomer', domain)
    const before = Date.now()
    expect((await sendSignInLink(webRequest(email))).success).toBe(true)
    const link = signInLinkOf(await waitForMail(email, before))

    const { user } = await signInWithEmailLink(auth, email, link)
    expect(await handleSignIn()).toEqual({ accessLevel: 1, userType: 'client' })

    const access = (await admin.db.doc(userAccessPath(user.uid)).get()).data()
    expect(access).toEqual({
      claims: { userType: 'client', accessLevel: 1, synced: expect.any(Timestamp) },
      companies: ['initech'],
      servicesEnabled: [],
      servicesManaged: [],
      email,
      updatedAt: expect.any(Timestamp),
      updatedBy: 'system',
    })
    expect((await admin.db.doc(userPreferencesPath(user.uid)).get()).data()).toEqual({ defaultCompany: 'initech' })
    expect((await admin.auth.getUser(user.uid)).customClaims).toEqual({ accessLevel: 1, userType: 'client' })

    // The link works once.
    await signOut(auth)
    await expect(signInWithEmailLink(auth, email, link)).rejects.toMatchObject({ code: 'auth/invalid-action-code' })
  })

  it('refuses a revoked sign-in, leaving the claims and access as they were', async () => {
    const member = await createMember({ accessLevel: 5, userType: 'analyst' })
    // syncUserClaims copies the new document into the claims first.
    const syncedAt = async () => (await admin.db.doc(userAccessPath(member.uid)).get()).data()?.claims.synced as Timestamp | undefined
    await vi.waitFor(async () => expect(await syncedAt()).toBeInstanceOf(Timestamp), { timeout: 20_000, interval: 200 })
    const synced = await syncedAt()
    await signInWithGeneratedLink(member.email)
    await revokeSignIn(client, admin.auth)
    const claims = (await admin.auth.getUser(member.uid)).customClaims
    await expectCallableError(handleSignIn(), 'unauthenticated')
    expect((await admin.auth.getUser(member.uid)).customClaims).toEqual(claims)
    expect(await syncedAt()).toEqual(synced)
  })

  it('denies a signed-in user without access and without a key, creating nothing', async () => {
    const outsider = address('outsider')
    await admin.auth.createUser({ email: outsider })
    const uid = await signInWithGeneratedLink(outsider)
    await expectCallableError(handleSignIn(), 'permission-denied')
    expect((await admin.db.doc(userAccessPath(uid)).get()).exists).toBe(false)
    expect((await admin.db.doc(userPreferencesPath(uid)).get()).exists).toBe(false)
    expect((await admin.auth.getUser(uid)).customClaims ?? {}).toEqual({})
  })

  it('does not provision an address the caller has not proved (email not verified)', async () => {
    const domain = await createDomainKey({ company: 'acme', accessLevel: 3, userType: 'client' })
    const { user } = await createUserWithEmailAndPassword(auth, address('unverified', domain), `pw-${randomUUID()}`)
    expect(user.emailVerified).toBe(false)
    await expectCallableError(handleSignIn(), 'permission-denied')
    expect((await admin.db.doc(userAccessPath(user.uid)).get()).exists).toBe(false)
  })
})
