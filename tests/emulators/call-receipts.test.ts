// Writes a person may send again (decision 0046): the vault link, the retest request and the retest
// outcome, each sent twice under one request id (its first answer lost), or twice at once, write
// once and answer the same; the same id with other content is refused, and changes nothing.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { CALL_RECEIPTS_COLLECTION, callReceiptMessages } from '#domain/call-receipts.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { findingHistoryPath } from '#domain/finding-history.ts'
import { findingFromDocument, findingPath, type StoredFinding } from '#domain/findings.ts'
import { retestFromDocument, retestPath, retestsPath } from '#domain/retests.ts'
import { readServiceStats, serviceStatsPath } from '#domain/service-stats.ts'
import { DAY_MS } from '#domain/sla.ts'
import { storedEmail, userAccessPath } from '#domain/users-access.ts'
import { newVaultId } from '#domain/vault-crypto.ts'
import { VAULT_LINKS_COLLECTION } from '#domain/vault.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { applyFindingChanges } from '../../functions/src/reports/finding-store.ts'
import { companyDocument, findingDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `once-${unique()}`

let admin: AdminClients
const clients: CallableClient[] = []

interface Person {
  uid: string
  client: CallableClient
}

async function person(name: string, level: number): Promise<Person> {
  const client = connectCallableClient(`once-${name}`)
  clients.push(client)
  const claims = tokenClaims(level)
  const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db
    .doc(userAccessPath(uid))
    .set({ claims, companies: [SLUG], servicesEnabled: [], servicesManaged: [], email: storedEmail(email) })
  return { uid, client }
}

const call = async <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) =>
  (await callByName(who.client, name, data)) as CallableResponse<N>

async function seedFinding(id: string) {
  const finding: StoredFinding = findingDocument('dast', {}, Date.now() - DAY_MS)
  await admin.db.runTransaction((tx) =>
    applyFindingChanges(admin.db, tx, {
      company: SLUG,
      updatedBy: 'analyst@sectest.example',
      findings: [{ id, before: null, patch: finding, change: null }],
    }),
  )
}

const findingNow = async (id: string) => findingFromDocument(id, (await admin.db.doc(findingPath(SLUG, id)).get()).data())!
const historyOf = async (id: string) => (await admin.db.collection(findingHistoryPath(SLUG, id)).get()).docs.map((d) => d.data())
const retestsOf = async (id: string) =>
  (await admin.db.collection(retestsPath(SLUG)).where('findingIds', 'array-contains', id).get()).docs.map((d) => d.id)
const waitingOnUs = async () => readServiceStats((await admin.db.doc(serviceStatsPath(SLUG, 'dast')).get()).data()).retestsWaitingOnUs
const receiptsOf = async (uid: string) => (await admin.db.collection(CALL_RECEIPTS_COLLECTION).where('uid', '==', uid).get()).size

let manager: Person, analyst: Person

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableDast: true }))
  ;[manager, analyst] = await Promise.all([person('manager', LEVEL.clientManager), person('analyst', LEVEL.analyst)])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe('a write sent again under the same request id', () => {
  it('makes one vault link, with one audit event, and answers its id each time', async () => {
    const request: CallableRequest<'createVaultLink'> = {
      requestId: randomUUID(),
      id: newVaultId(),
      company: SLUG,
      expiresAt: Date.now() + 2 * 3_600_000,
      maxViews: 1,
      recipient: null,
      label: `Once ${unique()}`,
      kdf: null,
      findTokenHash: 'A'.repeat(43),
      openTokenHash: 'B'.repeat(43),
      ciphertext: 'C'.repeat(40),
      iv: 'D'.repeat(16),
    }
    const first = await call(analyst, 'createVaultLink', request)
    // Without the receipt the same link id would be refused as taken, and the browser would make another.
    expect(await call(analyst, 'createVaultLink', request)).toEqual(first)
    expect(first).toEqual({ id: request.id })
    const links = await admin.db.collection(VAULT_LINKS_COLLECTION).where('label', '==', request.label).get()
    expect(links.size).toBe(1)
    const created = await admin.db.collection(EVENTS_COLLECTION).where('linkId', '==', request.id).get()
    expect(created.docs.filter((d) => d.data().type === 'vault_link_created')).toHaveLength(1)
  })

  it('requests one retest, counts it once, and answers the same retest', async () => {
    const id = `once-${unique()}`
    await seedFinding(id)
    const before = await waitingOnUs()
    const request = { requestId: randomUUID(), company: SLUG, findingIds: [id], note: 'Patched' }
    const first = await call(manager, 'requestRetest', request)
    expect(await call(manager, 'requestRetest', request)).toEqual(first)
    expect(await retestsOf(id)).toEqual([first.retestId])
    expect(await waitingOnUs()).toBe(before + 1)
    expect((await historyOf(id)).filter((h) => h.action === 'request_retest')).toHaveLength(1)
  })

  it('requests one retest when two tries arrive at once', async () => {
    const id = `once-${unique()}`
    await seedFinding(id)
    const request = { requestId: randomUUID(), company: SLUG, findingIds: [id], note: 'Patched twice at once' }
    const [a, b] = await Promise.all([call(manager, 'requestRetest', request), call(manager, 'requestRetest', request)])
    expect(a).toEqual(b)
    expect(await retestsOf(id)).toEqual([a.retestId])
  })

  it('gives one retest outcome and answers it again, where the retest is no longer open', async () => {
    const id = `once-${unique()}`
    await seedFinding(id)
    const { retestId } = await call(manager, 'requestRetest', { requestId: randomUUID(), company: SLUG, findingIds: [id], note: 'Patched' })
    const outcome = { requestId: randomUUID(), company: SLUG, retestId, results: [{ findingId: id, outcome: 'fixed' as const, note: '' }] }
    const first = await call(analyst, 'completeRetest', outcome)
    expect(first).toEqual({ completed: true, refused: [] })
    expect(await call(analyst, 'completeRetest', outcome)).toEqual(first)
    // A new request for the same outcome is a new request: the retest it names is done.
    await expectCallableError(call(analyst, 'completeRetest', { ...outcome, requestId: randomUUID() }), 'failed-precondition')
    const retest = retestFromDocument(retestId, (await admin.db.doc(retestPath(SLUG, retestId)).get()).data())!
    expect(retest.results).toHaveLength(1)
    expect((await findingNow(id)).status).toBe('fixed')
    expect((await historyOf(id)).filter((h) => h.action === 'retest_fixed')).toHaveLength(1)
  })

  it('is refused with other content, which changes nothing', async () => {
    const [a, b] = [`once-${unique()}`, `once-${unique()}`]
    await seedFinding(a)
    await seedFinding(b)
    const requestId = randomUUID()
    const first = await call(manager, 'requestRetest', { requestId, company: SLUG, findingIds: [a], note: 'Patched' })
    const receipts = await receiptsOf(manager.uid)
    await expectCallableError(
      call(manager, 'requestRetest', { requestId, company: SLUG, findingIds: [b], note: 'Patched' }),
      'already-exists',
      callReceiptMessages.otherRequest,
    )
    expect(await retestsOf(b)).toEqual([])
    expect((await findingNow(b)).status).toBe('open')
    expect(await retestsOf(a)).toEqual([first.retestId])
    expect(await receiptsOf(manager.uid)).toBe(receipts)
  })

  it('writes no receipt for a refused write, so the same request can be sent again once it can be made', async () => {
    const id = `once-${unique()}`
    const requestId = randomUUID()
    const request = { requestId, company: SLUG, findingIds: [id], note: 'Patched' }
    // The finding is not there yet: refused, and nothing is remembered of it.
    await expectCallableError(call(manager, 'requestRetest', request), 'not-found')
    await seedFinding(id)
    const made = await call(manager, 'requestRetest', request)
    expect(await retestsOf(id)).toEqual([made.retestId])
  })
})
