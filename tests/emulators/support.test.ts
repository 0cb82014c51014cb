// handleSupportEmail, called the way the browser calls it (client SDK against the Functions and
// Auth emulators), with the mail read from a mail catcher on the SMTP port the functions' settings
// name (functions/.env.demo-sectest).
import { randomUUID } from 'node:crypto'
import { signInWithEmailLink, signOut, type Auth } from 'firebase/auth'
import { httpsCallable, type Functions } from 'firebase/functions'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { SIGN_IN_PATH } from '#domain/sign-in.ts'
import { SUPPORT_MESSAGE_MAX_LENGTH, SUPPORT_MESSAGES_COLLECTION, type SupportResponse } from '#domain/support.ts'
import { companyPath } from '#domain/companies.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { startMailCatcher, type CaughtMessage, type MailCatcher } from '../../emulators/mail/mail-catcher.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { connectCallableClient, expectCallableError, revokeSignIn, type CallableClient } from './callable-client.ts'

// functions/.env.demo-sectest: SMTP_URL and SUPPORT_INBOX.
const SMTP_PORT = 1025
const SUPPORT_INBOX = 'support@bulwark.example'

let admin: AdminClients
let mail: MailCatcher | undefined
let client: CallableClient
let auth: Auth
let functions: Functions

const unique = () => randomUUID().slice(0, 8)

async function handleSupportEmail(data: unknown): Promise<SupportResponse> {
  return (await httpsCallable<unknown, SupportResponse>(functions, 'handleSupportEmail')(data)).data
}

function inbox(): string {
  if (!mail) throw new Error('the mail catcher is not running')
  return mail.inboxUrl
}

async function waitForSupportMail(after: number): Promise<CaughtMessage> {
  const query = new URLSearchParams({ to: SUPPORT_INBOX, after: String(after), timeout: '15000' })
  const response = await fetch(`${inbox()}/api/wait?${query}`)
  if (!response.ok) throw new Error(`no mail for ${SUPPORT_INBOX}: ${response.status}`)
  const summary = (await response.json()) as { id: string }
  return (await (await fetch(`${inbox()}/api/messages/${summary.id}`)).json()) as CaughtMessage
}

const header = (message: CaughtMessage, name: string) => message.headers.find((h) => h.name.toLowerCase() === name)?.value

async function storedMessages(uid: string) {
  const snapshot = await admin.db.collection(SUPPORT_MESSAGES_COLLECTION).where('uid', '==', uid).get()
  return snapshot.docs.map((d) => d.data())
}

// A member of a company of its own, signed in on the client (through a link the Admin SDK made,
// so no sign-in rate limit is spent).
async function signInMember(options: { displayName?: string } = {}) {
  const slug = `support-co-${unique()}`
  const companyName = `Support Co ${slug.slice(-8)}`
  const email = `member-${unique()}@acme-test.example`
  const user = await admin.auth.createUser({ email, emailVerified: true, ...options })
  await admin.db.doc(companyPath(slug)).set({ slug, companyName })
  await admin.db.doc(userAccessPath(user.uid)).set({
    claims: { accessLevel: 2, userType: 'client' },
    companies: ['other-co', slug],
    servicesEnabled: [],
    servicesManaged: [],
  })
  await admin.db.doc(userPreferencesPath(user.uid)).set({ defaultCompany: slug })
  const link = await admin.auth.generateSignInWithEmailLink(email, {
    url: `http://127.0.0.1:3000${SIGN_IN_PATH}`,
    handleCodeInApp: true,
  })
  await signInWithEmailLink(auth, email, link)
  return { uid: user.uid, email, slug, companyName }
}

beforeAll(async () => {
  admin = connectToEmulators()
  mail = await startMailCatcher({ smtpPort: SMTP_PORT, httpPort: 0 })
  client = connectCallableClient('support')
  auth = client.auth
  functions = client.functions
})

beforeEach(async () => {
  await signOut(auth)
})

afterAll(async () => {
  await client.close()
  await mail?.close()
  await disconnect(admin)
})

describe('handleSupportEmail', () => {
  it('mails the support inbox with the sender, company, type and message, and stores it', async () => {
    const member = await signInMember({ displayName: 'Ada Lovelace' })
    const message = `The report page is blank <b>${unique()}</b>\nSecond line & more`
    const before = Date.now()
    expect(await handleSupportEmail({ message: `  ${message}  `, request_type: 'bug' })).toEqual({ success: true })

    const caught = await waitForSupportMail(before)
    expect(caught.to).toEqual([SUPPORT_INBOX])
    expect(caught.subject).toBe(`[Bulwark support] Bug report from ${member.email}`)
    expect(header(caught, 'reply-to')).toContain(member.email)
    for (const part of [member.email, member.uid, 'Ada Lovelace', `${member.companyName} (${member.slug})`, 'Bug report (bug)', message]) {
      expect(caught.text).toContain(part)
    }
    expect(caught.html).toContain('&lt;b&gt;')
    expect(caught.html).not.toContain('<b>')

    const stored = await storedMessages(member.uid)
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({
      message,
      request_type: 'bug',
      uid: member.uid,
      email: member.email,
      company: member.slug,
      delivered: true,
    })
    expect(stored[0]?.createdAt).toBeInstanceOf(Timestamp)
  })

  it.each([
    ['a missing message', { request_type: 'question' }],
    ['an empty message', { message: '', request_type: 'question' }],
    ['a blank message', { message: '   ', request_type: 'question' }],
    ['an oversized message', { message: 'a'.repeat(SUPPORT_MESSAGE_MAX_LENGTH + 1), request_type: 'question' }],
    ['an unknown request type', { message: 'Hello', request_type: 'complaint' }],
    ['an extra key', { message: 'Hello', request_type: 'question', uid: 'someone-else' }],
    ['a string', 'Hello'],
    ['nothing', null],
  ])('refuses %s with invalid-argument, storing nothing', async (_, data) => {
    const member = await signInMember()
    await expectCallableError(handleSupportEmail(data), 'invalid-argument')
    expect(await storedMessages(member.uid)).toEqual([])
  })

  it('refuses callers who are not signed in', async () => {
    await expectCallableError(handleSupportEmail({ message: 'Hello', request_type: 'question' }), 'unauthenticated')
  })

  it('refuses a sign-in that was revoked, storing and mailing nothing', async () => {
    const member = await signInMember()
    // The claims sync of the member's new users_access sets the claims whole: the revocation comes
    // after it, or the sync's write could drop it.
    await vi.waitFor(async () => expect((await admin.db.doc(userAccessPath(member.uid)).get()).data()?.claims.synced).toBeDefined(), {
      timeout: 45_000,
      interval: 200,
    })
    await revokeSignIn(client, admin.auth)
    const before = Date.now()
    await expectCallableError(handleSupportEmail({ message: 'Hello', request_type: 'question' }), 'unauthenticated')
    expect(await storedMessages(member.uid)).toEqual([])
    const mails = (await (
      await fetch(`${inbox()}/api/messages?to=${encodeURIComponent(SUPPORT_INBOX)}&after=${before}`)
    ).json()) as unknown[]
    expect(mails).toEqual([])
  }, 60_000)

  it('answers success false when the mail server is down, and keeps the message', async () => {
    const member = await signInMember()
    await mail?.close()
    mail = undefined
    try {
      expect(await handleSupportEmail({ message: 'Nobody hears me', request_type: 'feature' })).toEqual({ success: false })
    } finally {
      mail = await startMailCatcher({ smtpPort: SMTP_PORT, httpPort: 0 })
    }
    const stored = await storedMessages(member.uid)
    expect(stored).toEqual([expect.objectContaining({ message: 'Nobody hears me', request_type: 'feature', delivered: false })])
    // And recovers once it is back.
    expect(await handleSupportEmail({ message: 'Hello again', request_type: 'feature' })).toEqual({ success: true })
  })

  it('accepts five messages per user in ten minutes, then answers success false', async () => {
    const member = await signInMember()
    for (let i = 0; i < 5; i += 1) {
      expect(await handleSupportEmail({ message: `Message ${i}`, request_type: 'question' })).toEqual({ success: true })
    }
    expect(await handleSupportEmail({ message: 'One too many', request_type: 'question' })).toEqual({ success: false })
    expect(await storedMessages(member.uid)).toHaveLength(5)

    // Another user has a limit of their own.
    await signOut(auth)
    await signInMember()
    expect(await handleSupportEmail({ message: 'Hello', request_type: 'question' })).toEqual({ success: true })
  })
})

describe('handleSignedOutSupportEmail', () => {
  async function send(data: unknown): Promise<SupportResponse> {
    return (await httpsCallable<unknown, SupportResponse>(functions, 'handleSignedOutSupportEmail')(data)).data
  }

  beforeEach(async () => {
    // A fresh window for the network address every test here shares (127.0.0.1).
    const counters = await admin.db.collection('rate_limits').where('kind', '==', 'support-signed-out-ip').get()
    await Promise.all(counters.docs.map((d) => d.ref.delete()))
  })

  it('mails the support inbox for someone signed out, with the address they gave, and stores it', async () => {
    const email = `locked-out-${unique()}@nowhere.example`
    const before = Date.now()
    expect(await send({ message: 'My link never arrives', request_type: 'question', email })).toEqual({ success: true })
    const message = await waitForSupportMail(before)
    expect(message.text).toContain('My link never arrives')
    expect(message.text).toContain(email)
    expect(message.text).toContain('not signed in')
    // The address is the sender's own word: shown as not verified, never made the Reply-To.
    expect(message.text).toContain(`${email} (not verified)`)
    expect(header(message, 'reply-to')).toBeUndefined()
    const stored = await admin.db.collection(SUPPORT_MESSAGES_COLLECTION).where('email', '==', email).get()
    expect(stored.docs.map((d) => d.data())).toEqual([
      expect.objectContaining({ uid: null, delivered: true, message: 'My link never arrives' }),
    ])
  })

  it('refuses an invalid address', async () => {
    await expectCallableError(send({ message: 'Hello', request_type: 'question', email: 'nobody' }), 'invalid-argument', 'Invalid email')
  })

  it('accepts three messages per address in an hour, then answers success false', async () => {
    const email = `busy-${unique()}@nowhere.example`
    for (let i = 0; i < 3; i += 1) expect(await send({ message: `Message ${i}`, request_type: 'bug', email })).toEqual({ success: true })
    expect(await send({ message: 'One too many', request_type: 'bug', email })).toEqual({ success: false })
    expect((await admin.db.collection(SUPPORT_MESSAGES_COLLECTION).where('email', '==', email).get()).size).toBe(3)
    expect(await send({ message: 'Hello', request_type: 'bug', email: `other-${unique()}@nowhere.example` })).toEqual({ success: true })
  })
})
