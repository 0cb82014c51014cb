// Scope-safe publication (decision 0045), through the callables: the preview counts exactly the
// open findings a publication marks not detected and names the scan it compares with; a file of
// one host publishes as a side scan that changes no finding it does not list; a scan of the same
// scope still closes what it missed. Drafts are written the way the import callables write them.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { findingFromDocument, findingPath, findingsPath } from '#domain/findings.ts'
import { parsedFingerprint } from '#domain/scan-import/observed.ts'
import type { ParsedFinding } from '#domain/scan-import/parsed-scan.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { latestWholeServiceScan, scanFromDocument, scanPath, scansPath, type Scan } from '#domain/scans.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { applyFindingChanges } from '../../functions/src/reports/finding-store.ts'
import { writeDraftFindings } from '../../functions/src/scans/add-draft-findings.ts'
import { writeDraftScan } from '../../functions/src/scans/create-draft-scan.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const SLUG = `scope-${randomUUID().slice(0, 8)}`
const BY = 'senior@sectest.example'
const WHOLE = 'network:10.9.0.0/24'

let admin: AdminClients
const clients: CallableClient[] = []
let senior: CallableClient
let manager: CallableClient

async function person(name: string, level: number, companies: string[]): Promise<CallableClient> {
  const client = connectCallableClient(`scope-${name}`)
  clients.push(client)
  const claims = tokenClaims(level)
  const { uid } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled: [], servicesManaged: [] })
  return client
}

const call = async <N extends CallableName>(who: CallableClient, name: N, data: CallableRequest<N>) =>
  (await callByName(who, name, data)) as CallableResponse<N>

const host = (ip: string, port: number, ruleId: string): ParsedFinding => ({
  ruleId,
  title: `${ruleId} on ${ip}:${port}`,
  severity: 'high',
  target: { kind: 'host', host: ip, ip, port, protocol: 'tcp' },
  cve: [ruleId],
  evidence: `${ruleId} seen`,
  raw: {},
})
const id = (finding: ParsedFinding) => parsedFingerprint('network', finding)

/**
 * A whole draft of `findings` from one file, as createDraftScan and addDraftFindings leave it once
 * its last batch is in; `scopeKey` unset takes the server's default (the targets' own scope).
 */
async function draft(name: string, targets: string[], findings: ParsedFinding[], startedAt: number, scopeKey?: string): Promise<string> {
  const sha256 = createHash('sha256').update(`${SLUG}/${name}`).digest('hex')
  const made = await writeDraftScan(
    admin.db,
    {
      company: SLUG,
      service: 'network',
      title: name,
      ...(scopeKey ? { scopeKey } : {}),
      files: [{ name: `${name}.xml`, sha256, size: 100, format: 'nmap_xml', tool: 'nmap', toolVersion: '7.94' }],
      startedAt,
      finishedAt: startedAt + 60_000,
      targets,
      report: { findings: findings.length, assets: 0, skipped: 0, warnings: 0, notes: [], statistics: {} },
    },
    BY,
  )
  const scan = scanFromDocument(made.scanId, (await admin.db.doc(scanPath(SLUG, made.scanId)).get()).data())!
  await writeDraftFindings(admin.db, scan, { company: SLUG, scanId: made.scanId, sourceFile: sha256, findings, assets: [] }, BY)
  await admin.db.doc(scanPath(SLUG, made.scanId)).update({ state: 'draft' })
  return made.scanId
}

const scanOf = async (scanId: string) => scanFromDocument(scanId, (await admin.db.doc(scanPath(SLUG, scanId)).get()).data())!
/** Every finding of the company, whole, by id: what "changes no other finding" compares. */
const everyFinding = async () =>
  new Map((await admin.db.collection(findingsPath(SLUG)).get()).docs.map((d) => [d.id, JSON.stringify(d.data())] as const))
const statusOf = async (findingId: string) =>
  findingFromDocument(findingId, (await admin.db.doc(findingPath(SLUG, findingId)).get()).data())!.status

const JAN = Date.UTC(2026, 0, 10)
const FEB = Date.UTC(2026, 1, 10)
const MAR = Date.UTC(2026, 2, 10)
const [A, B, C, E, F, G] = [
  host('10.9.0.5', 22, 'CVE-2023-0001'),
  host('10.9.0.6', 80, 'CVE-2023-0002'),
  host('10.9.0.7', 443, 'CVE-2023-0003'),
  host('10.9.0.8', 21, 'CVE-2023-0004'),
  host('10.9.0.9', 25, 'CVE-2023-0005'),
  host('10.9.0.10', 110, 'CVE-2023-0006'),
] as const
const D = host('10.9.0.5', 8080, 'CVE-2023-0007')
const H = host('10.9.0.11', 3389, 'CVE-2023-0008')

let whole: string

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableViewResultsNetwork: true }))
  ;[senior, manager] = await Promise.all([person('senior', LEVEL.seniorAnalyst, []), person('manager', LEVEL.clientManager, [SLUG])])
  // January: the whole service, six findings.
  whole = await draft('January, whole service', ['10.9.0.0/24'], [A, B, C, E, F, G], JAN, WHOLE)
  const first = await call(senior, 'previewPublication', { company: SLUG, scanId: whole })
  expect(first).toEqual({ scopeKey: WHOLE, side: false, previous: null, notDetected: 0, held: 0 })
  expect(await call(senior, 'publishScan', { company: SLUG, scanId: whole })).toMatchObject({ published: true })
  expect(await scanOf(whole)).toMatchObject({ state: 'published', side: false })
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe('a side scan of one host', () => {
  it('is previewed as a side scan closing nothing, publishes so, changes no other finding and is not the latest', async () => {
    // Its own targets' scope by default: never the service's latest scan's.
    const side = await draft('February, one host', ['10.9.0.5'], [A, D], FEB)
    expect((await scanOf(side)).scopeKey).toBe('network:10.9.0.5')
    expect(await call(senior, 'previewPublication', { company: SLUG, scanId: side })).toEqual({
      scopeKey: 'network:10.9.0.5',
      side: true,
      previous: null,
      notDetected: 0,
      held: 0,
    })
    // Clients and those who may not import never see what a draft would do.
    await expectCallableError(call(manager, 'previewPublication', { company: SLUG, scanId: side }), 'permission-denied')

    const before = await everyFinding()
    const [a, d] = await Promise.all([id(A), id(D)])
    expect(await call(senior, 'publishScan', { company: SLUG, scanId: side })).toEqual({
      published: true,
      previousScanId: null,
      counts: { total: 2, new: 1, persisting: 1, notDetected: 0, reopened: 0 },
      progress: null,
    })
    const after = await everyFinding()
    // Only what it listed changed: the host's finding seen again, and its new one.
    const changed = [...after].filter(([key, value]) => before.get(key) !== value).map(([key]) => key)
    expect(changed.sort()).toEqual([a, d].sort())
    expect(await scanOf(side)).toMatchObject({ state: 'published', side: true, previousScanId: null })

    // The report's latest stays the whole service's January scan.
    const published = (await admin.db.collection(scansPath(SLUG)).where('state', '==', 'published').get()).docs
      .map((doc) => scanFromDocument(doc.id, doc.data())!)
      .sort((x, y) => (y.publishedAt ?? 0) - (x.publishedAt ?? 0))
    expect(published[0]!.id).toBe(side)
    expect(latestWholeServiceScan<Scan>(published)!.id).toBe(whole)

    // A later file of the same host compares with it, is a side scan too, and closes what that saw only.
    const again = await draft('March, one host', ['10.9.0.5'], [D], MAR)
    expect(await call(senior, 'previewPublication', { company: SLUG, scanId: again })).toMatchObject({
      side: true,
      previous: { id: side, title: 'February, one host' },
      notDetected: 1,
      held: 0,
    })
    const beforeAgain = await everyFinding()
    expect(await call(senior, 'publishScan', { company: SLUG, scanId: again })).toMatchObject({
      previousScanId: side,
      counts: { notDetected: 1 },
    })
    expect(await statusOf(a)).toBe('not_detected')
    const changedAgain = [...(await everyFinding())].filter(([key, value]) => beforeAgain.get(key) !== value).map(([key]) => key)
    expect(changedAgain.sort()).toEqual([a, d].sort())
    expect(await scanOf(again)).toMatchObject({ side: true })
  })
})

describe('a scan of the same scope', () => {
  it('counts before publishing exactly the open findings it then marks not detected, and names the scan it compares with', async () => {
    const [a, b, c, e, f, g] = await Promise.all([A, B, C, E, F, G].map(id))
    // C waits on a retest: missed, it keeps its status.
    await admin.db.runTransaction(async (tx) => {
      const found = findingFromDocument(c!, (await tx.get(admin.db.doc(findingPath(SLUG, c!)))).data())!
      await applyFindingChanges(admin.db, tx, {
        company: SLUG,
        updatedBy: BY,
        findings: [{ id: c!, before: found, patch: { status: 'retest_requested' }, change: null }],
      })
    })
    // April lists B, F (dismissed as a false positive) and G (merged into B), and a new H.
    const april = await draft('April, whole service', ['10.9.0.0/24'], [B, F, G, H], Date.UTC(2026, 3, 10), WHOLE)
    await admin.db.doc(`${draftFindingsPath(SLUG, april)}/${f}`).update({ falsePositive: true })
    await admin.db.doc(`${draftFindingsPath(SLUG, april)}/${g}`).update({ mergedInto: b })

    const preview = await call(senior, 'previewPublication', { company: SLUG, scanId: april })
    // E is missed, G is published as B so its own record is missed; A was last seen by the host's scans.
    expect(preview).toEqual({
      scopeKey: WHOLE,
      side: false,
      previous: { id: whole, title: 'January, whole service', startedAt: JAN, publishedAt: (await scanOf(whole)).publishedAt },
      notDetected: 2,
      held: 1,
    })

    const before = new Map(await Promise.all([a, b, c, e, f, g].map(async (x) => [x!, await statusOf(x!)] as const)))
    const published = await call(senior, 'publishScan', { company: SLUG, scanId: april })
    expect(published).toMatchObject({ published: true, previousScanId: whole })
    const moved = []
    for (const [x, status] of before) if ((await statusOf(x)) !== status) moved.push(x)
    expect(moved.sort()).toEqual([e, g].sort())
    expect(await statusOf(e!)).toBe('not_detected')
    expect(await statusOf(c!)).toBe('retest_requested')
    expect(await statusOf(f!)).toBe('open')
    expect(await statusOf(a!)).toBe('not_detected') // as the host's March scan left it
    expect(await scanOf(april)).toMatchObject({ side: false })

    // Publishing again changes nothing; a published scan has no preview.
    const still = await everyFinding()
    expect(await call(senior, 'publishScan', { company: SLUG, scanId: april })).toMatchObject({ published: false })
    expect(await everyFinding()).toEqual(still)
    await expectCallableError(call(senior, 'previewPublication', { company: SLUG, scanId: april }), 'failed-precondition')
  })
})
