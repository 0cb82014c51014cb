// Imports are all or nothing (decision 0046): a draft is 'importing' until its last batch has
// arrived and the import is finished; until then no one reviews or publishes it and it is no
// draft to publish on the desk. An import cut off half-way leaves no draft of 0 findings, the same
// files imported again resume and finish it, and finishing with none of the files' findings there
// is refused.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import type { ParsedFinding } from '#domain/scan-import/parsed-scan.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { scanFromDocument, scanPath, scansPath } from '#domain/scans.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { importMessages } from '../../functions/src/scans/import-caller.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `whole-${unique()}`

let admin: AdminClients
let client: CallableClient
const call = async <N extends CallableName>(name: N, data: CallableRequest<N>) =>
  (await callByName(client, name, data)) as CallableResponse<N>
const sha = (text: string) => createHash('sha256').update(text).digest('hex')

const finding = (n: number): ParsedFinding => ({
  ruleId: `CVE-2026-${1000 + n}`,
  title: `Vulnerable service ${n}`,
  severity: 'high',
  target: { kind: 'host', host: `10.9.0.${n}`, ip: `10.9.0.${n}`, port: 443, protocol: 'tcp' },
  evidence: `banner ${n}`,
  raw: { script: 'vulners' },
})

/** A file of `count` findings, sent in two batches, as the analyst's browser sends it. */
function file(count: number) {
  const sha256 = sha(`whole-${unique()}`)
  const findings = Array.from({ length: count }, (_, n) => finding(n + 1))
  const create: CallableRequest<'createDraftScan'> = {
    company: SLUG,
    service: 'network',
    title: 'Cut off',
    scopeKey: 'network:10.9.0.0/24',
    files: [{ name: 'cut.xml', sha256, size: 1_000, format: 'nmap_xml', tool: 'nmap', toolVersion: '7.95' }],
    startedAt: Date.UTC(2026, 5, 1),
    finishedAt: Date.UTC(2026, 5, 1, 1),
    targets: ['10.9.0.0/24'],
    report: { findings: count, assets: 0, skipped: 0, warnings: 0, notes: [] },
  }
  const half = Math.ceil(count / 2)
  const batch = (scanId: string, part: 0 | 1): CallableRequest<'addDraftFindings'> => ({
    company: SLUG,
    scanId,
    sourceFile: sha256,
    findings: part === 0 ? findings.slice(0, half) : findings.slice(half),
    assets: [],
  })
  return { create, batch }
}

const scanNow = async (id: string) => scanFromDocument(id, (await admin.db.doc(scanPath(SLUG, id)).get()).data())!
const draftFindings = async (id: string) => (await admin.db.collection(draftFindingsPath(SLUG, id)).get()).size
/** What the desk lists as drafts to publish (desk-live.ts watchDrafts). */
const desksDrafts = async () =>
  (await admin.db.collection(scansPath(SLUG)).where('service', '==', 'network').where('state', '==', 'draft').get()).docs.map((d) => d.id)

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableViewResultsNetwork: true }))
  client = connectCallableClient('whole-senior')
  const claims = tokenClaims(LEVEL.seniorAnalyst)
  const { uid } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies: [], servicesEnabled: [], servicesManaged: [] })
})

afterAll(async () => {
  await client.close()
  await disconnect(admin)
})

describe('an import cut off half-way', () => {
  it('leaves no draft of 0 findings, and the same files imported again finish it whole', async () => {
    const { create, batch } = file(6)
    const started = await call('createDraftScan', create)
    expect(started).toMatchObject({ created: true, state: 'importing' })
    const { scanId } = started
    // Nothing arrived yet: there is no draft, only an import under way, which no one may publish or review.
    expect(await desksDrafts()).not.toContain(scanId)
    await expectCallableError(call('publishScan', { company: SLUG, scanId }), 'failed-precondition')
    await expectCallableError(
      call('reviewDraftFindings', { company: SLUG, scanId, findingIds: ['x'], review: { kind: 'split' } }),
      'failed-precondition',
      importMessages.importing,
    )
    // The first batch arrives; the browser is cut off before the second.
    await call('addDraftFindings', batch(scanId, 0))
    expect((await scanNow(scanId)).state).toBe('importing')
    expect(await desksDrafts()).not.toContain(scanId)

    // The same files again: not "imported before", but the import to resume.
    const again = await call('createDraftScan', create)
    expect(again).toEqual({ scanId, created: false, state: 'importing' })
    await call('addDraftFindings', batch(scanId, 0))
    await call('addDraftFindings', batch(scanId, 1))
    expect(await call('finishDraftImport', { company: SLUG, scanId })).toEqual({ findings: 6 })
    expect((await scanNow(scanId)).state).toBe('draft')
    expect(await desksDrafts()).toContain(scanId)
    expect(await draftFindings(scanId)).toBe(6)

    // Finished: finishing again answers the same, and the files are now imported before.
    expect(await call('finishDraftImport', { company: SLUG, scanId })).toEqual({ findings: 6 })
    expect(await call('createDraftScan', create)).toEqual({ scanId, created: false, state: 'draft' })
    await expectCallableError(call('addDraftFindings', batch(scanId, 1)), 'failed-precondition', importMessages.finished)
  })

  it('refuses to finish when none of the files’ findings arrived, and stays an import to resume', async () => {
    const { create, batch } = file(4)
    const { scanId } = await call('createDraftScan', create)
    await expectCallableError(call('finishDraftImport', { company: SLUG, scanId }), 'failed-precondition', importMessages.nothingArrived)
    expect((await scanNow(scanId)).state).toBe('importing')
    expect(await desksDrafts()).not.toContain(scanId)
    await call('addDraftFindings', batch(scanId, 0))
    await call('addDraftFindings', batch(scanId, 1))
    expect(await call('finishDraftImport', { company: SLUG, scanId })).toEqual({ findings: 4 })
  })

  it('finishes a file that had no findings as an empty draft', async () => {
    const { create, batch } = file(0)
    const { scanId } = await call('createDraftScan', create)
    await call('addDraftFindings', batch(scanId, 0))
    expect(await call('finishDraftImport', { company: SLUG, scanId })).toEqual({ findings: 0 })
    expect((await scanNow(scanId)).state).toBe('draft')
  })

  it('can be discarded, and the same files then import anew', async () => {
    const { create, batch } = file(2)
    const { scanId } = await call('createDraftScan', create)
    await call('addDraftFindings', batch(scanId, 0))
    expect(await call('discardDraftScan', { company: SLUG, scanId })).toEqual({ discarded: true })
    expect(await call('createDraftScan', create)).toEqual({ scanId, created: true, state: 'importing' })
    expect(await draftFindings(scanId)).toBe(0)
  })
})
