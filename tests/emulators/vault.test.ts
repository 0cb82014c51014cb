// Vault share links through their callables, the way the browsers call them: the analyst's
// browser seals, the recipient's claims. Exactly N winners of many concurrent claims, expiry,
// revocation, passphrase tries, named recipients, the audit trail, the sweep, and a scan of every
// vault document for the secrets used.
import { randomUUID } from 'node:crypto'
import { connectFirestoreEmulator, doc, getDoc, getFirestore } from 'firebase/firestore/lite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableRequest } from '#domain/callables.ts'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument } from '#domain/audit-events.ts'
import { companyPath } from '#domain/companies.ts'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { userAccessPath } from '#domain/users-access.ts'
import {
  VAULT_LINK_GATES_COLLECTION,
  VAULT_LINKS_COLLECTION,
  vaultLinkFromDocument,
  vaultLinkGatePath,
  vaultLinkPath,
  vaultSealedPath,
  type ClaimVaultLinkResponse,
  type VaultLinkInfo,
} from '#domain/vault.ts'
import {
  createShareLink,
  deriveLinkKeys,
  newVaultId,
  openPayload,
  tokenHash,
  type LinkPolicy,
  type PassphraseKdf,
} from '#domain/vault-crypto.ts'
import {
  createRequestLink,
  openAnswer,
  openAnswerWithKey,
  unwrapRequestKey,
  parseRequestFragment,
  filesTokenOf,
  sealAnswer,
  submitTokenOf,
  type RequestPolicy,
} from '#domain/vault-request-crypto.ts'
import {
  VAULT_REQUEST_SHARES_COLLECTION,
  VAULT_REQUESTS_COLLECTION,
  VAULT_TEAM_KEYS_COLLECTION,
  vaultRequestFromDocument,
  vaultRequestGatePath,
  vaultRequestPath,
  vaultRequestSharePath,
  vaultTeamKeyPath,
} from '#domain/vault-requests.ts'
import { VAULT_KEYS_COLLECTION, type OpenVaultRequestResponse, type VaultTeamMember } from '#domain/vault-keys.ts'
import { createMemberKey, openRequestKeyAsMember, sealRequestKeyTo, unwrapMemberKey, type MemberKey } from '#domain/vault-team-crypto.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS } from '../../emulators/firebase/env.ts'
import { claimLink } from '../../functions/src/vault/link-store.ts'
import { submitAnswer } from '../../functions/src/vault/request-store.ts'
import { sweepVault } from '../../functions/src/vault/vault-sweep.ts'
import { admitVaultCall, VAULT_RATE_LIMITS } from '../../functions/src/vault/vault-rate-limit.ts'
import { RATE_LIMITS_COLLECTION, rateLimitId } from '../../functions/src/rate-limit.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `vault-${unique()}`
const HOUR = 3600_000

let admin: AdminClients
const clients: CallableClient[] = []
/** Every secret and key this file uses: none may be found in a stored document. */
const secretsUsed: string[] = []

interface Person {
  uid: string
  email: string
  client: CallableClient
}

async function person(name: string, level: number | null, companies = [SLUG]): Promise<Person> {
  const client = connectCallableClient(`vault-${name}`)
  clients.push(client)
  if (level === null) return { uid: '', email: '', client }
  const claims = tokenClaims(level)
  const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled: [], servicesManaged: [] })
  return { uid, email, client }
}

interface Shared {
  id: string
  linkKey: string
  kdf: PassphraseKdf | null
  text: string
}

async function share(
  by: Person,
  options: { maxViews?: number; passphrase?: string; recipient?: string; expiresIn?: number; text?: string; files?: number } = {},
): Promise<Shared> {
  const text = options.text ?? `secret-${randomUUID()}`
  const policy: LinkPolicy = {
    id: newVaultId(),
    company: SLUG,
    expiresAt: Date.now() + (options.expiresIn ?? 24 * HOUR),
    maxViews: options.maxViews ?? 1,
    recipient: options.recipient ?? null,
    passphrase: options.passphrase !== undefined,
  }
  const link = await createShareLink(policy, { text, files: [] }, options.passphrase ?? null)
  const { passphrase: _withPassphrase, ...terms } = policy
  const request: CallableRequest<'createVaultLink'> = {
    requestId: randomUUID(),
    ...terms,
    label: 'VPN for the network test',
    kdf: link.kdf,
    findTokenHash: link.findTokenHash,
    openTokenHash: link.openTokenHash,
    ...link.sealed,
    ...(options.files ? { files: options.files } : {}),
  }
  expect(await callByName(by.client, 'createVaultLink', request)).toEqual({ id: policy.id })
  secretsUsed.push(text, link.linkKey, ...(options.passphrase ? [options.passphrase] : []))
  return { id: policy.id, linkKey: link.linkKey, kdf: link.kdf, text }
}

async function tokens(link: Shared, passphrase?: string) {
  const keys = await deriveLinkKeys(
    link.id,
    link.linkKey,
    passphrase !== undefined && link.kdf ? { text: passphrase, kdf: link.kdf } : undefined,
  )
  secretsUsed.push(keys.findToken, keys.openToken)
  return keys
}

async function claim(who: Person, link: Shared, passphrase?: string): Promise<ClaimVaultLinkResponse> {
  const keys = await tokens(link, passphrase)
  return (await callByName(who.client, 'claimVaultLink', {
    id: link.id,
    findToken: keys.findToken,
    openToken: keys.openToken,
  })) as ClaimVaultLinkResponse
}

async function info(who: Person, link: Shared): Promise<VaultLinkInfo> {
  const keys = await tokens(link)
  return (await callByName(who.client, 'vaultLinkInfo', { id: link.id, findToken: keys.findToken })) as VaultLinkInfo
}

async function stored(id: string) {
  return vaultLinkFromDocument(id, (await admin.db.doc(vaultLinkPath(id)).get()).data())
}

async function sealedExists(id: string) {
  return (await admin.db.doc(vaultSealedPath(id)).get()).exists
}

async function eventsOf(id: string) {
  const snapshot = await admin.db.collection(EVENTS_COLLECTION).where('linkId', '==', id).get()
  return snapshot.docs.map((d) => d.data())
}

/** The company's audit trail entries of one link or request, oldest first. */
async function auditOf(id: string) {
  const snapshot = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('targetId', '==', id).get()
  return snapshot.docs
    .map((d) => auditEventFromDocument(d.id, d.data())!)
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || a.action.localeCompare(b.action))
}

let analyst: Person, other: Person, client: Person, recipient: Person, stranger: Person

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG))
  ;[analyst, other, client, recipient, stranger] = await Promise.all([
    person('analyst', LEVEL.analyst),
    person('other', LEVEL.analyst),
    person('client', LEVEL.clientManager),
    person('recipient', LEVEL.clientViewer),
    person('stranger', null),
  ])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe('share links', () => {
  it('opens once for a signed-out recipient, after any number of looks that spend nothing; then says it was used', async () => {
    const link = await share(analyst)
    for (let i = 0; i < 5; i++)
      expect(await info(stranger, link)).toMatchObject({ status: 'ready', viewsLeft: 1, kdf: null, label: 'VPN for the network test' })
    expect((await stored(link.id))?.views).toBe(0)

    const opened = await claim(stranger, link)
    expect(opened).toMatchObject({ outcome: 'opened', viewsLeft: 0 })
    if (opened.outcome !== 'opened') throw new Error('not opened')
    const { key } = await tokens(link)
    expect((await openPayload(key, opened, opened.policy)).text).toBe(link.text)

    expect(await claim(stranger, link)).toEqual({ outcome: 'refused', reason: 'used', triesLeft: null })
    expect(await info(stranger, link)).toMatchObject({ status: 'used' })
    expect(await sealedExists(link.id)).toBe(false)
    const record = await stored(link.id)
    expect(record).toMatchObject({ state: 'used', views: 1 })
    expect(record?.opens).toHaveLength(1)
    // The Functions emulator proxies requests over a local socket, so no address reaches it here.
    expect(record?.opens[0]).toMatchObject({ ip: expect.any(String), browser: expect.any(String) })
    expect(record?.opens[0]?.browser).not.toBe('')
  })

  const expectExactlyN = async (link: Shared, n: number, outcomes: unknown[]) => {
    const winners = outcomes.filter((o) => (o as ClaimVaultLinkResponse).outcome === 'opened')
    expect(winners).toHaveLength(n)
    for (const o of outcomes.filter((x) => !winners.includes(x))) expect(o).toEqual({ outcome: 'refused', reason: 'used', triesLeft: null })
    expect((await stored(link.id))?.views).toBe(n)
    expect((await eventsOf(link.id)).filter((e) => e.type === 'vault_link_opened')).toHaveLength(n)
    expect(await sealedExists(link.id)).toBe(false)
  }

  // The Functions emulator starts a process per concurrent call, so the callable path is shown
  // with a few claims at once; the twenty below run the same claim code against the emulator.
  it('gives exactly 2 of 6 concurrent claims through the callable the secret of a 2-view link', { timeout: 180_000 }, async () => {
    const link = await share(analyst, { maxViews: 2 })
    await expectExactlyN(link, 2, await Promise.all(Array.from({ length: 6 }, () => claim(stranger, link))))
  })

  it('gives exactly N of 20 concurrent claims the secret, for N = 1, 2 and 10', async () => {
    const who = { uid: null, email: null, emailVerified: false, ip: '203.0.113.7', browser: 'Chrome 140 on Linux' }
    for (const n of [1, 2, 10]) {
      const link = await share(analyst, { maxViews: n })
      const keys = await tokens(link)
      const input = { id: link.id, findToken: keys.findToken, openToken: keys.openToken }
      await expectExactlyN(link, n, await Promise.all(Array.from({ length: 20 }, () => claimLink(admin.db, input, who, Date.now()))))
      expect((await stored(link.id))?.opens.map((o) => o.ip)).toEqual(Array(n).fill('203.0.113.7'))
    }
  })

  it('refuses a link whose find token is wrong without counting anything', async () => {
    const link = await share(analyst)
    const forged = { ...link, linkKey: (await share(analyst)).linkKey }
    expect(await claim(stranger, forged)).toEqual({ outcome: 'refused', reason: 'not-found', triesLeft: null })
    expect(await info(stranger, forged)).toEqual({ status: 'not-found' })
    expect(await stored(link.id)).toMatchObject({ views: 0, failedTries: 0, state: 'active' })
  })

  it('counts wrong passphrases without burning the link; the fifth revokes it and deletes the ciphertext', async () => {
    const kept = await share(analyst, { passphrase: 'correct horse' })
    expect(await info(stranger, kept)).toMatchObject({ status: 'ready', kdf: { iterations: 600_000 } })
    for (let i = 4; i >= 1; i--)
      expect(await claim(stranger, kept, 'wrong')).toEqual({ outcome: 'refused', reason: 'wrong-passphrase', triesLeft: i })
    expect(await claim(stranger, kept, 'correct horse')).toMatchObject({ outcome: 'opened' })

    const burned = await share(analyst, { passphrase: 'battery staple' })
    for (let i = 4; i >= 0; i--)
      expect(await claim(stranger, burned, `guess ${i}`)).toMatchObject({ reason: 'wrong-passphrase', triesLeft: i })
    expect(await claim(stranger, burned, 'battery staple')).toMatchObject({ outcome: 'refused', reason: 'revoked' })
    expect(await stored(burned.id)).toMatchObject({ state: 'revoked', revokedBy: 'passphrase', failedTries: 5 })
    expect(await sealedExists(burned.id)).toBe(false)
    const types = (await eventsOf(burned.id)).map((e) => e.type).sort()
    expect(types).toEqual(['vault_link_created', ...Array(5).fill('vault_link_failed'), 'vault_link_revoked'])
  })

  it('refuses an expired link before the sweep, and the sweep deletes its ciphertext', async () => {
    const link = await share(analyst)
    const past = new Date(Date.now() - 1000)
    await admin.db.doc(vaultLinkPath(link.id)).update({ expiresAt: past })
    await admin.db.doc(vaultSealedPath(link.id)).update({ expiresAt: past })
    expect(await claim(stranger, link)).toMatchObject({ outcome: 'refused', reason: 'expired' })
    expect(await info(stranger, link)).toMatchObject({ status: 'expired', senderName: expect.any(String) })
    const swept = await sweepVault(admin.db, Date.now())
    expect(swept.ciphertexts).toBeGreaterThanOrEqual(1)
    expect(await sealedExists(link.id)).toBe(false)
    expect(await stored(link.id)).not.toBeNull()
    // Past its keeping time the record goes too.
    await sweepVault(admin.db, Date.now() + 31 * 24 * HOUR)
    expect(await stored(link.id)).toBeNull()
  })

  it('keeps a files gate for a link with files: open while it may be opened, shut in the commit that uses or revokes it, gone with it', async () => {
    const gate = async (id: string) => (await admin.db.doc(vaultLinkGatePath(id)).get()).data()
    const plain = await share(analyst)
    expect(await gate(plain.id)).toBeUndefined()

    const used = await share(analyst, { files: 2 })
    expect(await gate(used.id)).toMatchObject({ open: true })
    expect(await claim(stranger, used)).toMatchObject({ outcome: 'opened' })
    expect(await gate(used.id)).toMatchObject({ open: false, closed: 'used', closedAt: expect.anything() })

    const burned = await share(analyst, { files: 1, passphrase: 'gate passphrase' })
    for (let i = 0; i < 5; i++) await claim(stranger, burned, `guess ${i}`)
    expect(await gate(burned.id)).toMatchObject({ open: false, closed: 'revoked' })

    const revoked = await share(analyst, { files: 1 })
    expect(await callByName(analyst.client, 'revokeVaultLink', { id: revoked.id })).toEqual({ revoked: true })
    expect(await gate(revoked.id)).toMatchObject({ open: false, closed: 'revoked' })

    // Past its keeping time the link's gate goes with its record.
    await admin.db.doc(vaultLinkPath(revoked.id)).update({ purgeAt: new Date(Date.now() - 1000) })
    await sweepVault(admin.db, Date.now())
    expect(await gate(revoked.id)).toBeUndefined()
  })

  it('is revoked by its analyst only; a revoked link is refused', async () => {
    const link = await share(analyst)
    await expectCallableError(callByName(other.client, 'revokeVaultLink', { id: link.id }), 'not-found')
    await expectCallableError(callByName(client.client, 'revokeVaultLink', { id: link.id }), 'permission-denied')
    expect(await callByName(analyst.client, 'revokeVaultLink', { id: link.id })).toEqual({ revoked: true })
    expect(await callByName(analyst.client, 'revokeVaultLink', { id: link.id })).toEqual({ revoked: false })
    expect(await claim(stranger, link)).toMatchObject({ outcome: 'refused', reason: 'revoked' })
    expect(await stored(link.id)).toMatchObject({ state: 'revoked', revokedBy: 'analyst' })
    expect(await sealedExists(link.id)).toBe(false)
    expect((await eventsOf(link.id)).map((e) => e.type).sort()).toEqual(['vault_link_created', 'vault_link_revoked'])
  })

  it('opens a named recipient link only for that signed-in address', async () => {
    const link = await share(analyst, { recipient: recipient.email.toUpperCase() })
    expect(await info(stranger, link)).toMatchObject({ recipient: recipient.email })
    expect(await claim(stranger, link)).toMatchObject({ reason: 'sign-in' })
    expect(await claim(client, link)).toMatchObject({ reason: 'wrong-recipient' })
    expect(await claim(recipient, link)).toMatchObject({ outcome: 'opened' })
    const opened = (await eventsOf(link.id)).find((e) => e.type === 'vault_link_opened')
    expect(opened).toMatchObject({ createdByUid: analyst.uid, byUid: recipient.uid, company: SLUG })
  })

  it('refuses links it cannot keep: an expiry out of range, a company the analyst is not in, an id taken', async () => {
    const link = await share(analyst)
    const base = {
      id: newVaultId(),
      company: SLUG,
      expiresAt: Date.now() + HOUR * 2,
      maxViews: 1,
      recipient: null,
      label: '',
      kdf: null,
      findTokenHash: 'A'.repeat(43),
      openTokenHash: 'B'.repeat(43),
      ciphertext: 'C'.repeat(40),
      iv: 'D'.repeat(16),
    }
    await expectCallableError(
      callByName(analyst.client, 'createVaultLink', { ...base, requestId: randomUUID(), expiresAt: Date.now() + 31 * 24 * HOUR }),
      'invalid-argument',
    )
    await expectCallableError(
      callByName(analyst.client, 'createVaultLink', { ...base, requestId: randomUUID(), expiresAt: Date.now() + 60_000 }),
      'invalid-argument',
    )
    await expectCallableError(
      callByName(analyst.client, 'createVaultLink', { ...base, requestId: randomUUID(), company: `elsewhere-${unique()}` }),
      'permission-denied',
    )
    await expectCallableError(
      callByName(analyst.client, 'createVaultLink', { ...base, requestId: randomUUID(), ciphertext: 'C'.repeat(200_001) }),
      'invalid-argument',
    )
    await expectCallableError(
      callByName(analyst.client, 'createVaultLink', { ...base, requestId: randomUUID(), id: link.id }),
      'already-exists',
    )
  })
})

describe('request links', () => {
  async function ask(by: Person, passphrase = 'vault passphrase of the analyst') {
    const policy: RequestPolicy = { id: newVaultId(), company: SLUG, expiresAt: Date.now() + 24 * HOUR }
    const link = await createRequestLink(policy.id, passphrase)
    expect(
      await callByName(by.client, 'createVaultRequest', {
        ...policy,
        label: 'VPN credentials for the network test',
        submitTokenHash: link.submitTokenHash,
        wrappedKey: link.wrappedKey,
      }),
    ).toEqual({ id: policy.id })
    const { publicKey, secret } = parseRequestFragment(link.fragment)
    const submitToken = await submitTokenOf(policy.id, secret)
    secretsUsed.push(passphrase, secret, submitToken, link.fragment)
    return { policy, publicKey, submitToken, passphrase }
  }

  it('takes one sealed answer from a signed-out client, which only the asking analyst opens with their vault passphrase', async () => {
    const request = await ask(analyst)
    const info = { id: request.policy.id, submitToken: request.submitToken }
    expect(await callByName(stranger.client, 'vaultRequestInfo', info)).toMatchObject({
      status: 'open',
      label: 'VPN credentials for the network test',
      company: SLUG,
    })
    const text = `client-answer-${randomUUID()}`
    secretsUsed.push(text)
    const answer = await sealAnswer(request.publicKey, request.policy, { text, files: [] })
    expect(await callByName(stranger.client, 'submitVaultRequest', { ...info, answer })).toEqual({ outcome: 'stored' })
    const again = await sealAnswer(request.publicKey, request.policy, { text: 'second', files: [] })
    expect(await callByName(stranger.client, 'submitVaultRequest', { ...info, answer: again })).toEqual({
      outcome: 'refused',
      reason: 'answered',
    })
    expect(await callByName(stranger.client, 'vaultRequestInfo', info)).toMatchObject({ status: 'answered' })

    const stored = vaultRequestFromDocument(request.policy.id, (await admin.db.doc(vaultRequestPath(request.policy.id)).get()).data())
    expect(stored).toMatchObject({ state: 'answered', createdBy: analyst.uid })
    const opened = await openAnswer(
      stored!.wrappedKey,
      request.passphrase,
      { ...request.policy, expiresAt: stored!.expiresAt },
      stored!.answer!,
    )
    expect(opened.text).toBe(text)
    await expect(openAnswer(stored!.wrappedKey, 'a guess', request.policy, stored!.answer!)).rejects.toThrow('Wrong vault passphrase')
    const types = (await eventsOf(request.policy.id)).map((e) => e.type).sort()
    expect(types).toEqual(['vault_request_answered', 'vault_request_created'])
  })

  it('keeps exactly one of 20 concurrent answers; refuses a wrong token, and a withdrawn request', async () => {
    const request = await ask(analyst)
    const who = { uid: null, email: null, emailVerified: false, ip: '198.51.100.4', browser: 'Firefox 139 on Windows' }
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        submitAnswer(
          admin.db,
          {
            id: request.policy.id,
            submitToken: request.submitToken,
            answer: await sealAnswer(request.publicKey, request.policy, { text: `n${i}`, files: [] }),
          },
          who,
          Date.now(),
        ),
      ),
    )
    expect(answers.filter((a) => a.outcome === 'stored')).toHaveLength(1)
    expect(answers.filter((a) => a.outcome === 'refused' && a.reason === 'answered')).toHaveLength(19)

    const withdrawn = await ask(analyst)
    const forged = (await ask(analyst)).submitToken
    expect(await callByName(stranger.client, 'vaultRequestInfo', { id: withdrawn.policy.id, submitToken: forged })).toEqual({
      status: 'not-found',
    })
    await expectCallableError(callByName(other.client, 'revokeVaultRequest', { id: withdrawn.policy.id }), 'not-found')
    expect(await callByName(analyst.client, 'revokeVaultRequest', { id: withdrawn.policy.id })).toEqual({ revoked: true })
    const answer = await sealAnswer(withdrawn.publicKey, withdrawn.policy, { text: 'late', files: [] })
    expect(
      await callByName(stranger.client, 'submitVaultRequest', { id: withdrawn.policy.id, submitToken: withdrawn.submitToken, answer }),
    ).toEqual({
      outcome: 'refused',
      reason: 'revoked',
    })
  })
})

describe('request link files', () => {
  it('opens the upload gate with the files token hash only, and shuts it on the answer and on withdrawal', async () => {
    const make = async () => {
      const policy: RequestPolicy = { id: newVaultId(), company: SLUG, expiresAt: Date.now() + 24 * HOUR }
      const link = await createRequestLink(policy.id, 'gate vault passphrase')
      await callByName(analyst.client, 'createVaultRequest', {
        ...policy,
        label: 'Firewall export',
        submitTokenHash: link.submitTokenHash,
        filesTokenHash: link.filesTokenHash,
        wrappedKey: link.wrappedKey,
      })
      const { publicKey, secret } = parseRequestFragment(link.fragment)
      const filesToken = await filesTokenOf(policy.id, secret)
      secretsUsed.push(secret, filesToken, link.fragment)
      return { policy, publicKey, secret, filesToken, hash: link.filesTokenHash }
    }
    const gate = async (id: string) => (await admin.db.doc(vaultRequestGatePath(id)).get()).data()
    const answered = await make()
    expect(answered.hash).toBe(await tokenHash(answered.filesToken))
    expect(await gate(answered.policy.id)).toMatchObject({ filesTokenHash: answered.hash, open: true })
    const submitToken = await submitTokenOf(answered.policy.id, answered.secret)
    const answer = await sealAnswer(answered.publicKey, answered.policy, { text: '', files: [], filesToken: answered.filesToken })
    expect(await callByName(stranger.client, 'submitVaultRequest', { id: answered.policy.id, submitToken, answer })).toEqual({
      outcome: 'stored',
    })
    // Shut for uploads; the file store keeps an answer's files, and deletes a withdrawn request's.
    expect(await gate(answered.policy.id)).toMatchObject({ open: false, closed: 'answered' })

    const withdrawn = await make()
    await callByName(analyst.client, 'revokeVaultRequest', { id: withdrawn.policy.id })
    expect(await gate(withdrawn.policy.id)).toMatchObject({ open: false, closed: 'withdrawn' })
  })
})

describe('the audit trail and the rate limits', () => {
  it("records in the company's audit trail who created, opened, failed to open and revoked each link", async () => {
    const link = await share(analyst, { passphrase: 'audit passphrase', maxViews: 2 })
    expect(await claim(stranger, link, 'wrong')).toMatchObject({ reason: 'wrong-passphrase' })
    expect(await claim(recipient, link, 'audit passphrase')).toMatchObject({ outcome: 'opened' })
    expect(await callByName(analyst.client, 'revokeVaultLink', { id: link.id })).toEqual({ revoked: true })
    const trail = await auditOf(link.id)
    expect(trail.map((e) => e.action).sort()).toEqual([
      'vault_link.created',
      'vault_link.open_failed',
      'vault_link.opened',
      'vault_link.revoked',
    ])
    for (const e of trail)
      expect(e).toMatchObject({ companyId: SLUG, target: { kind: 'vault_link', id: link.id, label: 'VPN for the network test' } })
    const by = Object.fromEntries(trail.map((e) => [e.action, e]))
    expect(by['vault_link.created']).toMatchObject({
      actorUid: analyst.uid,
      actorEmail: analyst.email,
      after: { maxViews: 2, passphrase: true },
    })
    expect(by['vault_link.open_failed']).toMatchObject({ actorUid: '', after: { failedTries: 1, browser: expect.any(String) } })
    expect(by['vault_link.opened']).toMatchObject({ actorUid: recipient.uid, actorEmail: recipient.email, after: { views: 1 } })
    expect(by['vault_link.revoked']).toMatchObject({ actorUid: analyst.uid, after: { reason: 'analyst' } })

    // Five wrong passphrases: five failures and the revocation they caused.
    const burned = await share(analyst, { passphrase: 'another passphrase' })
    for (let i = 0; i < 5; i++) await claim(stranger, burned, `guess ${i}`)
    const burnedTrail = (await auditOf(burned.id)).map((e) => e.action)
    expect(burnedTrail.filter((a) => a === 'vault_link.open_failed')).toHaveLength(5)
    expect(burnedTrail.filter((a) => a === 'vault_link.revoked')).toHaveLength(1)
  })

  it('records requests created, answered and withdrawn', async () => {
    const policy: RequestPolicy = { id: newVaultId(), company: SLUG, expiresAt: Date.now() + 24 * HOUR }
    const link = await createRequestLink(policy.id, 'audit vault passphrase')
    await callByName(analyst.client, 'createVaultRequest', {
      ...policy,
      label: 'Archive password',
      submitTokenHash: link.submitTokenHash,
      wrappedKey: link.wrappedKey,
    })
    const { publicKey, secret } = parseRequestFragment(link.fragment)
    const submitToken = await submitTokenOf(policy.id, secret)
    secretsUsed.push(secret, submitToken, link.fragment, 'audit vault passphrase')
    const answer = await sealAnswer(publicKey, policy, { text: 'audited-answer', files: [] })
    secretsUsed.push('audited-answer')
    expect(await callByName(stranger.client, 'submitVaultRequest', { id: policy.id, submitToken, answer })).toEqual({ outcome: 'stored' })
    expect(await callByName(analyst.client, 'revokeVaultRequest', { id: policy.id })).toEqual({ revoked: true })
    const trail = await auditOf(policy.id)
    expect(trail.map((e) => e.action).sort()).toEqual(['vault_request.answered', 'vault_request.created', 'vault_request.revoked'])
    for (const e of trail) expect(e).toMatchObject({ companyId: SLUG, target: { kind: 'vault_request', label: 'Archive password' } })
  })

  it('refuses a link looked at or claimed too often, whatever the tokens, and leaves other links alone', async () => {
    const link = await share(analyst)
    for (let i = 0; i < VAULT_RATE_LIMITS.link.limit; i++) expect(await info(stranger, link)).toMatchObject({ status: 'ready' })
    await expectCallableError(info(stranger, link), 'resource-exhausted')
    await expectCallableError(claim(stranger, link), 'resource-exhausted')
    expect((await stored(link.id))?.views).toBe(0)
    expect(await info(stranger, await share(analyst))).toMatchObject({ status: 'ready' })
  })

  it('refuses an address that used up its window, on any link', async () => {
    const ip = `192.0.2.${Math.floor(Math.random() * 200) + 1}`
    await admitVaultCall(admin.db, newVaultId(), ip)
    await admin.db
      .collection(RATE_LIMITS_COLLECTION)
      .doc(rateLimitId(VAULT_RATE_LIMITS.ip.kind, ip))
      .update({ count: VAULT_RATE_LIMITS.ip.limit })
    await expect(admitVaultCall(admin.db, newVaultId(), ip)).rejects.toMatchObject({ code: 'resource-exhausted' })
    await expect(admitVaultCall(admin.db, newVaultId(), '192.0.2.254')).resolves.toBeUndefined()
  })
})

describe('requests shared with the engagement', () => {
  const passphrases = { colleague: 'colleague vault passphrase', outsider: 'outsider vault passphrase' }
  let colleague: Person, outsider: Person
  let colleagueKey: MemberKey, outsiderKey: MemberKey

  beforeAll(async () => {
    ;[colleague, outsider] = await Promise.all([person('colleague', LEVEL.analyst), person('outsider', LEVEL.analyst, ['elsewhere'])])
    ;[colleagueKey, outsiderKey] = await Promise.all([
      createMemberKey(colleague.uid, passphrases.colleague),
      createMemberKey(outsider.uid, passphrases.outsider),
    ])
    expect(await callByName(colleague.client, 'setVaultKey', colleagueKey)).toEqual({ saved: true })
    expect(await callByName(outsider.client, 'setVaultKey', outsiderKey)).toEqual({ saved: true })
    secretsUsed.push(...Object.values(passphrases))
  })

  async function askTeam(team: readonly VaultTeamMember[], extra: Partial<CallableRequest<'createVaultRequest'>> = {}) {
    const policy: RequestPolicy = { id: newVaultId(), company: SLUG, expiresAt: Date.now() + 24 * HOUR }
    const link = await createRequestLink(policy.id, 'asking analyst passphrase', team)
    const request: CallableRequest<'createVaultRequest'> = {
      ...policy,
      label: 'Domain admin for the internal test',
      submitTokenHash: link.submitTokenHash,
      wrappedKey: link.wrappedKey,
      team: true,
      teamKeys: link.teamKeys,
      ...extra,
    }
    const { publicKey, secret } = parseRequestFragment(link.fragment)
    secretsUsed.push(secret, link.fragment, 'asking analyst passphrase')
    return { policy, request, link, publicKey, submitToken: await submitTokenOf(policy.id, secret) }
  }

  async function answered(team: readonly VaultTeamMember[]) {
    const asked = await askTeam(team)
    expect(await callByName(analyst.client, 'createVaultRequest', asked.request)).toEqual({ id: asked.policy.id })
    const text = `team-answer-${randomUUID()}`
    secretsUsed.push(text, asked.submitToken)
    const answer = await sealAnswer(asked.publicKey, asked.policy, { text, files: [] })
    const submitted = await callByName(stranger.client, 'submitVaultRequest', {
      id: asked.policy.id,
      submitToken: asked.submitToken,
      answer,
    })
    expect(submitted).toEqual({ outcome: 'stored' })
    return { ...asked, text }
  }

  it('names the engagement analysts with a vault key to an analyst of the company, and to no one else', async () => {
    const { members } = (await callByName(analyst.client, 'vaultTeamKeys', { company: SLUG })) as { members: VaultTeamMember[] }
    expect(members.map((m) => m.uid)).toContain(colleague.uid)
    expect(members.find((m) => m.uid === colleague.uid)?.publicKey).toBe(colleagueKey.publicKey)
    // Not the caller, not an analyst of another company.
    expect(members.map((m) => m.uid)).not.toContain(analyst.uid)
    expect(members.map((m) => m.uid)).not.toContain(outsider.uid)
    await expectCallableError(callByName(outsider.client, 'vaultTeamKeys', { company: SLUG }), 'permission-denied')
    await expectCallableError(callByName(client.client, 'vaultTeamKeys', { company: SLUG }), 'permission-denied')
  })

  it('refuses to share with an analyst outside the engagement, or keys without the team choice', async () => {
    const outsiderMember = { uid: outsider.uid, name: 'outsider', publicKey: outsiderKey.publicKey }
    const forged = await askTeam([outsiderMember])
    await expectCallableError(callByName(analyst.client, 'createVaultRequest', forged.request), 'permission-denied')
    expect((await admin.db.doc(vaultRequestPath(forged.policy.id)).get()).exists).toBe(false)
    const colleagueMember = { uid: colleague.uid, name: 'colleague', publicKey: colleagueKey.publicKey }
    const unasked = await askTeam([colleagueMember], { team: false })
    await expectCallableError(callByName(analyst.client, 'createVaultRequest', unasked.request), 'invalid-argument')
    // Nor with themselves: the one who asks has their own wrapped key.
    const self = await askTeam([{ ...colleagueMember, uid: analyst.uid }])
    await expectCallableError(callByName(analyst.client, 'createVaultRequest', self.request), 'permission-denied')
  })

  it('a colleague opens the answer with their own vault passphrase; each opening is audited; an outsider and a client get nothing', async () => {
    const members = [{ uid: colleague.uid, name: 'colleague', publicKey: colleagueKey.publicKey }]
    const asked = await answered(members)
    const stored = vaultRequestFromDocument(asked.policy.id, (await admin.db.doc(vaultRequestPath(asked.policy.id)).get()).data())!
    expect(stored).toMatchObject({ team: true, teamUids: [colleague.uid] })
    expect((await admin.db.doc(vaultTeamKeyPath(asked.policy.id, colleague.uid)).get()).data()).toMatchObject({
      publicKey: colleagueKey.publicKey,
      addedBy: analyst.uid,
    })

    const opened = (await callByName(colleague.client, 'openVaultRequest', { id: asked.policy.id })) as OpenVaultRequestResponse
    if (opened.as !== 'team') throw new Error(`expected a team opening, got ${opened.as}`)
    expect(opened.publicKey).toBe(colleagueKey.publicKey)
    const memberPrivate = await unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, passphrases.colleague)
    const member = { uid: colleague.uid, publicKey: colleagueKey.publicKey }
    const requestKey = await openRequestKeyAsMember(asked.policy.id, member, memberPrivate, opened.teamKey)
    const policy = { ...asked.policy, expiresAt: stored.expiresAt }
    expect((await openAnswerWithKey(requestKey, policy, opened.answer)).text).toBe(asked.text)

    // The outsider's own key does not open the colleague's sealed key, and the server gives them none.
    const outsiderPrivate = await unwrapMemberKey(outsider.uid, outsiderKey.wrappedKey, passphrases.outsider)
    await expect(
      openRequestKeyAsMember(asked.policy.id, { uid: outsider.uid, publicKey: outsiderKey.publicKey }, outsiderPrivate, opened.teamKey),
    ).rejects.toThrow('This answer was not shared with your vault key')
    await expectCallableError(callByName(outsider.client, 'openVaultRequest', { id: asked.policy.id }), 'not-found')
    await expectCallableError(callByName(other.client, 'openVaultRequest', { id: asked.policy.id }), 'not-found')
    await expectCallableError(callByName(client.client, 'openVaultRequest', { id: asked.policy.id }), 'permission-denied')
    await expectCallableError(callByName(stranger.client, 'openVaultRequest', { id: asked.policy.id }), 'unauthenticated')

    // The one who asked opens through the same call.
    const own = (await callByName(analyst.client, 'openVaultRequest', { id: asked.policy.id })) as OpenVaultRequestResponse
    expect(own.as).toBe('owner')
    const ownKey = await unwrapRequestKey(stored.wrappedKey, 'asking analyst passphrase', asked.policy.id)
    expect((await openAnswerWithKey(ownKey, policy, own.answer)).text).toBe(asked.text)

    const opens = (await auditOf(asked.policy.id)).filter((e) => e.action === 'vault_request.opened')
    expect(opens.map((e) => [e.actorUid, e.actorEmail, e.after])).toEqual(
      expect.arrayContaining([
        [colleague.uid, colleague.email, { as: 'team' }],
        [analyst.uid, analyst.email, { as: 'owner' }],
      ]),
    )
    expect(opens).toHaveLength(2)
    for (const e of opens) expect(e).toMatchObject({ companyId: SLUG, target: { kind: 'vault_request', id: asked.policy.id } })
    const created = (await auditOf(asked.policy.id)).find((e) => e.action === 'vault_request.created')
    expect(created?.after).toMatchObject({ team: true, sharedWith: [colleague.uid] })
  })

  it("gives a colleague the request's share, without the wrapped key or the answer; the answer only through the audited call", async () => {
    const asked = await answered([{ uid: colleague.uid, name: 'colleague', publicKey: colleagueKey.publicKey }])
    const id = asked.policy.id
    const db = getFirestore(colleague.client.app)
    connectFirestoreEmulator(db, EMULATOR_HOST, EMULATOR_PORTS.firestore)
    // The request itself, wrapped key and answer with it, is the asker's alone.
    await expect(getDoc(doc(db, vaultRequestPath(id)))).rejects.toMatchObject({ code: 'permission-denied' })
    const share = (await getDoc(doc(db, vaultRequestSharePath(id)))).data()!
    expect(share).toMatchObject({
      state: 'answered',
      team: true,
      teamUids: [colleague.uid],
      createdBy: analyst.uid,
      label: asked.request.label,
    })
    for (const secret of ['wrappedKey', 'answer', 'submitTokenHash']) expect(share).not.toHaveProperty(secret)
    expect(await auditOf(id).then((trail) => trail.filter((e) => e.action === 'vault_request.opened'))).toHaveLength(0)

    // The call hands the answer out, and the opening is on the trail.
    const opened = (await callByName(colleague.client, 'openVaultRequest', { id })) as OpenVaultRequestResponse
    const memberPrivate = await unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, passphrases.colleague)
    const requestKey = await openRequestKeyAsMember(
      id,
      { uid: colleague.uid, publicKey: colleagueKey.publicKey },
      memberPrivate,
      (opened as Extract<OpenVaultRequestResponse, { as: 'team' }>).teamKey,
    )
    expect((await openAnswerWithKey(requestKey, { ...asked.policy, expiresAt: share.expiresAt.toMillis() }, opened.answer)).text).toBe(
      asked.text,
    )
    expect((await auditOf(id)).filter((e) => e.action === 'vault_request.opened').map((e) => e.actorUid)).toEqual([colleague.uid])

    // Withdrawn, the share says so; past its keeping time it goes with the request.
    expect(await callByName(analyst.client, 'revokeVaultRequest', { id })).toEqual({ revoked: true })
    expect((await getDoc(doc(db, vaultRequestSharePath(id)))).data()).toMatchObject({ state: 'revoked' })
    await admin.db.doc(vaultRequestPath(id)).update({ purgeAt: new Date(Date.now() - 1000) })
    await sweepVault(admin.db, Date.now())
    expect((await admin.db.doc(vaultRequestSharePath(id)).get()).exists).toBe(false)
  })

  it('refuses a colleague no longer of the engagement, and an answer not yet given', async () => {
    const asked = await askTeam([{ uid: colleague.uid, name: 'colleague', publicKey: colleagueKey.publicKey }])
    expect(await callByName(analyst.client, 'createVaultRequest', asked.request)).toEqual({ id: asked.policy.id })
    await expectCallableError(callByName(colleague.client, 'openVaultRequest', { id: asked.policy.id }), 'failed-precondition')
    const text = 'late-team-answer'
    secretsUsed.push(text, asked.submitToken)
    const answer = await sealAnswer(asked.publicKey, asked.policy, { text, files: [] })
    await callByName(stranger.client, 'submitVaultRequest', { id: asked.policy.id, submitToken: asked.submitToken, answer })
    await admin.db.doc(userAccessPath(colleague.uid)).update({ companies: ['elsewhere'] })
    try {
      await expectCallableError(callByName(colleague.client, 'openVaultRequest', { id: asked.policy.id }), 'permission-denied')
    } finally {
      await admin.db.doc(userAccessPath(colleague.uid)).update({ companies: [SLUG] })
    }
    expect((await callByName(colleague.client, 'openVaultRequest', { id: asked.policy.id })) as OpenVaultRequestResponse).toMatchObject({
      as: 'team',
    })
  })

  it('a sealed key swapped between colleagues or requests opens nothing', async () => {
    const asked = await answered([{ uid: colleague.uid, name: 'colleague', publicKey: colleagueKey.publicKey }])
    const memberPrivate = await unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, passphrases.colleague)
    const stored = (await admin.db.doc(vaultTeamKeyPath(asked.policy.id, colleague.uid)).get()).data() as {
      enc: string
      ciphertext: string
    }
    const other = newVaultId()
    await expect(
      openRequestKeyAsMember(other, { uid: colleague.uid, publicKey: colleagueKey.publicKey }, memberPrivate, {
        enc: stored.enc,
        ciphertext: stored.ciphertext,
      }),
    ).rejects.toThrow('This answer was not shared with your vault key')
    // A seal made for someone else's request key, even to the colleague's key, opens a key that does not open this answer.
    const foreign = await sealRequestKeyTo(
      asked.policy.id,
      { uid: colleague.uid, publicKey: colleagueKey.publicKey },
      new Uint8Array(32).fill(7),
    )
    const wrongKey = await openRequestKeyAsMember(
      asked.policy.id,
      { uid: colleague.uid, publicKey: colleagueKey.publicKey },
      await unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, passphrases.colleague),
      foreign,
    )
    const request = vaultRequestFromDocument(asked.policy.id, (await admin.db.doc(vaultRequestPath(asked.policy.id)).get()).data())!
    await expect(openAnswerWithKey(wrongKey, { ...asked.policy, expiresAt: request.expiresAt }, request.answer!)).rejects.toThrow(
      'The answer could not be decrypted',
    )
  })
})

describe('what the vault stores', () => {
  it('holds no secret, key or token in any vault document or audit event', async () => {
    // One link left unopened, so a live ciphertext is among what is scanned.
    await share(analyst, { text: 'unopened-plaintext-canary', passphrase: 'canary passphrase' })
    const links = await admin.db.collection(VAULT_LINKS_COLLECTION).get()
    const requests = await admin.db.collection(VAULT_REQUESTS_COLLECTION).get()
    const sealed = await admin.db.collectionGroup('vault_sealed').get()
    const keys = await admin.db.collection(VAULT_KEYS_COLLECTION).get()
    const teamKeys = await admin.db.collectionGroup(VAULT_TEAM_KEYS_COLLECTION).get()
    const shares = await admin.db.collection(VAULT_REQUEST_SHARES_COLLECTION).get()
    const linkGates = await admin.db.collection(VAULT_LINK_GATES_COLLECTION).get()
    const events = await admin.db.collection(EVENTS_COLLECTION).where('company', '==', SLUG).get()
    const audit = await admin.db.collection(AUDIT_EVENTS_COLLECTION).where('companyId', '==', SLUG).get()
    expect(sealed.size).toBeGreaterThan(0)
    expect(audit.size).toBeGreaterThan(0)
    expect(keys.size).toBeGreaterThan(0)
    expect(teamKeys.size).toBeGreaterThan(0)
    expect(shares.size).toBeGreaterThan(0)
    expect(linkGates.size).toBeGreaterThan(0)
    const everything = [
      ...links.docs,
      ...sealed.docs,
      ...requests.docs,
      ...events.docs,
      ...audit.docs,
      ...keys.docs,
      ...teamKeys.docs,
      ...shares.docs,
      ...linkGates.docs,
    ]
      .map((d) => JSON.stringify(d.data()))
      .join('\n')
    expect(secretsUsed.length).toBeGreaterThan(20)
    for (const secret of secretsUsed) expect(everything).not.toContain(secret)
  })
})
