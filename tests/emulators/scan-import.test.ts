// Scan imports through the callables, the way the analyst's page sends them: a draft the client
// cannot see, reviewed and published into the company's findings with the comparison against the
// previous scan (new, persisting, not detected, reopened), counters equal to a recount, the same
// file imported again changing nothing, and who may call each import callable.
import { createHash, randomUUID } from 'node:crypto'
import { doc, getDoc, getFirestore, connectFirestoreEmulator } from 'firebase/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { parsedFingerprint } from '#domain/scan-import/observed.ts'
import type { ParsedFinding } from '#domain/scan-import/parsed-scan.ts'
import { findingFromDocument, findingPath, findingsPath, occurrencePath } from '#domain/findings.ts'
import { draftFindingFromDocument, draftFindingsPath } from '#domain/scan-drafts.ts'
import { scanFromDocument, scanMembersPath, scanPath } from '#domain/scans.ts'
import { findingContribution, readServiceStats, serviceStatsPath, sumContributions } from '#domain/service-stats.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { templatePath } from '#domain/template-library.ts'
import { templateMappingFromDocument, templateMappingId, templateMappingPath } from '#domain/template-mappings.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS } from '../../emulators/firebase/env.ts'
import { applyFindingChanges } from '../../functions/src/reports/finding-store.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `imp-${unique()}`
const OTHER = `imp-other-${unique()}`

let admin: AdminClients
const clients: CallableClient[] = []

interface Person {
  uid: string
  client: CallableClient
}

async function person(name: string, level: number, companies: string[], servicesManaged: string[] = []): Promise<Person> {
  const client = connectCallableClient(`import-${name}`)
  clients.push(client)
  const claims = tokenClaims(level)
  const { uid } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled: [], servicesManaged })
  return { uid, client }
}

const call = async <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) =>
  (await callByName(who.client, name, data)) as CallableResponse<N>

const sha = (text: string) => createHash('sha256').update(text).digest('hex')

const hostFinding = (ip: string, port: number, ruleId: string, severity: ParsedFinding['severity'] = 'high'): ParsedFinding => ({
  ruleId,
  title: `${ruleId} on ${ip}`,
  severity,
  target: { kind: 'host', host: ip, ip, port, protocol: 'tcp' },
  cve: [ruleId],
  evidence: `${ruleId} seen`,
  raw: { script: 'vulners', extra: 'kept' },
})

/** Creates a draft of `findings` from one file and returns its id. */
async function importFile(who: Person, file: string, findings: ParsedFinding[], startedAt: number) {
  const created = await call(who, 'createDraftScan', {
    company: SLUG,
    service: 'network',
    title: `Network scan ${file}`,
    scopeKey: 'network:10.0.0.0/24',
    files: [{ name: `${file}.xml`, sha256: sha(file), size: 1000, format: 'nmap_xml', tool: 'nmap', toolVersion: '7.94' }],
    startedAt,
    finishedAt: startedAt + 60_000,
    targets: ['10.0.0.0/24'],
    report: {
      findings: findings.length,
      assets: 1,
      skipped: 1,
      warnings: 0,
      notes: [{ level: 'skipped', where: 'host 3', message: 'Host down' }],
    },
  })
  if (created.state === 'importing') {
    await call(who, 'addDraftFindings', {
      company: SLUG,
      scanId: created.scanId,
      sourceFile: sha(file),
      findings,
      assets: [{ type: 'host', value: '10.0.0.5', ports: [{ port: 22, protocol: 'tcp', service: 'ssh' }] }],
    })
    await call(who, 'finishDraftImport', { company: SLUG, scanId: created.scanId })
  }
  return created
}

const findingsNow = async () => (await admin.db.collection(findingsPath(SLUG)).get()).docs.map((d) => findingFromDocument(d.id, d.data())!)

let senior: Person, analyst: Person, passwordAnalyst: Person, manager: Person, outsider: Person

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db
    .doc(companyPath(SLUG))
    .set(companyDocument(SLUG, { enableViewResultsNetwork: true, enableViewResultsPasswordCracking: true }))
  await admin.db.doc(templatePath('ssh-weak-ciphers')).set({
    slug: 'ssh-weak-ciphers',
    title: 'Weak SSH ciphers',
    severity: 'medium',
    description: 'From the template.',
    impact: 'Template impact.',
    remediation: 'Template fix.',
    references: [],
    cwe: ['CWE-327'],
    tags: [],
    status: 'ready',
    createdAt: new Date(),
    updatedAt: new Date(),
    updatedBy: 'senior@sectest.example',
  })
  await admin.db.doc(companyPath(OTHER)).set(companyDocument(OTHER, { enableViewResultsPasswordCracking: true }))
  ;[senior, analyst, passwordAnalyst, manager, outsider] = await Promise.all([
    person('senior', LEVEL.seniorAnalyst, []),
    person('analyst', LEVEL.analyst, [SLUG]),
    person('password', LEVEL.analyst, [SLUG], ['password_cracking']),
    person('manager', LEVEL.clientManager, [SLUG]),
    person('outsider', LEVEL.analyst, ['elsewhere'], ['password_cracking']),
  ])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe('who may import', () => {
  it('lets senior analysts import any service, password-cracking managers only theirs in their companies', async () => {
    const draft = (who: Person, service: CallableRequest<'createDraftScan'>['service'], company = SLUG) =>
      call(who, 'createDraftScan', {
        company,
        service,
        title: 'Permissions',
        files: [
          {
            name: 'a',
            sha256: sha(`perm${unique()}`),
            size: 1,
            format: service === 'password_cracking' ? 'ntds_potfile' : 'nmap_xml',
            tool: 't',
            toolVersion: '1',
          },
        ],
        startedAt: null,
        finishedAt: null,
        targets: [],
        report: { findings: 0, assets: 0, skipped: 0, warnings: 0, notes: [] },
      })
    expect((await draft(senior, 'network')).created).toBe(true)
    expect((await draft(passwordAnalyst, 'password_cracking')).created).toBe(true)
    await expectCallableError(draft(passwordAnalyst, 'network'), 'permission-denied')
    await expectCallableError(draft(analyst, 'password_cracking'), 'permission-denied')
    await expectCallableError(draft(manager, 'network'), 'permission-denied')
    await expectCallableError(draft(outsider, 'password_cracking'), 'permission-denied')
    await expectCallableError(draft(senior, 'network', `missing-${unique()}`), 'not-found')

    // The other calls name a scan: refused alike for those who may not import its service.
    const { scanId } = await draft(senior, 'network')
    await expectCallableError(call(passwordAnalyst, 'publishScan', { company: SLUG, scanId }), 'permission-denied')
    await expectCallableError(
      call(passwordAnalyst, 'addDraftFindings', { company: SLUG, scanId, sourceFile: sha('x'), findings: [], assets: [] }),
      'permission-denied',
    )
    await expectCallableError(
      call(passwordAnalyst, 'reviewDraftFindings', { company: SLUG, scanId, findingIds: ['x'], review: { kind: 'split' } }),
      'permission-denied',
    )
    await expectCallableError(call(passwordAnalyst, 'discardDraftScan', { company: SLUG, scanId }), 'permission-denied')
    await expectCallableError(call(passwordAnalyst, 'finishDraftImport', { company: SLUG, scanId }), 'permission-denied')
    await expectCallableError(call(senior, 'publishScan', { company: SLUG, scanId: 'no-such-scan' }), 'not-found')
    // A file the draft was not made from is refused.
    await expectCallableError(
      call(senior, 'addDraftFindings', { company: SLUG, scanId, sourceFile: sha('other'), findings: [], assets: [] }),
      'invalid-argument',
    )
    expect(await call(senior, 'discardDraftScan', { company: SLUG, scanId })).toEqual({ discarded: true })
    expect((await admin.db.doc(scanPath(SLUG, scanId)).get()).exists).toBe(false)
  })
})

describe('rule-to-template mappings', () => {
  it('are saved and removed by those who may import the service, and map the next import', async () => {
    const mapping = async () => (await admin.db.doc(templateMappingPath(await templateMappingId('network', 'CVE-2099-0001'))).get()).data()
    await expectCallableError(
      call(passwordAnalyst, 'saveTemplateMapping', { service: 'network', ruleId: 'CVE-2099-0001', templateSlug: 'ssh-weak-ciphers' }),
      'permission-denied',
    )
    await expectCallableError(
      call(senior, 'saveTemplateMapping', { service: 'network', ruleId: 'CVE-2099-0001', templateSlug: 'no-such-template' }),
      'not-found',
    )
    expect(
      await call(senior, 'saveTemplateMapping', { service: 'network', ruleId: 'CVE-2099-0001', templateSlug: 'ssh-weak-ciphers' }),
    ).toEqual({ saved: true })
    // Kept with the template's title, for the list to name it; no finding named the rule here.
    expect(await mapping()).toMatchObject({
      service: 'network',
      ruleId: 'CVE-2099-0001',
      templateSlug: 'ssh-weak-ciphers',
      templateTitle: 'Weak SSH ciphers',
    })
    expect(await mapping()).not.toHaveProperty('ruleTitle')
    await call(senior, 'saveTemplateMapping', { service: 'network', ruleId: 'CVE-2099-0001', templateSlug: null })
    expect(await mapping()).toBeUndefined()
  })
})

describe('password reuse keys', () => {
  it('gives the same key for a company to those who may import its audits, and no one else', async () => {
    const { key } = await call(passwordAnalyst, 'getPasswordReuseKey', { company: SLUG })
    expect(key).toMatch(/^[a-f0-9]{64}$/)
    expect(await call(senior, 'getPasswordReuseKey', { company: SLUG })).toEqual({ key })
    expect((await call(senior, 'getPasswordReuseKey', { company: OTHER })).key).not.toBe(key)
    await expectCallableError(call(analyst, 'getPasswordReuseKey', { company: SLUG }), 'permission-denied')
    await expectCallableError(call(manager, 'getPasswordReuseKey', { company: SLUG }), 'permission-denied')
    await expectCallableError(call(outsider, 'getPasswordReuseKey', { company: SLUG }), 'permission-denied')
  })
})

describe('import, review, publish', () => {
  it('keeps the draft from the client, publishes it with the comparison, and counts like a recount', async () => {
    const january = Date.UTC(2026, 0, 10)
    const first = [
      hostFinding('10.0.0.5', 22, 'CVE-2023-48795', 'medium'),
      hostFinding('10.0.0.5', 22, 'CVE-2023-48795', 'medium'), // a second instance of the same issue
      hostFinding('10.0.0.5', 443, 'CVE-2024-0001', 'critical'),
      hostFinding('10.0.0.6', 80, 'CVE-2024-0002', 'low'),
      hostFinding('10.0.0.7', 21, 'ftp-anon', 'high'),
    ]
    const draft = await importFile(senior, 'jan', first, january)
    expect(draft).toMatchObject({ created: true, state: 'importing' })

    // The client cannot read the draft (rules), the analyst can; it holds four findings.
    const managerDb = getFirestore(manager.client.app)
    connectFirestoreEmulator(managerDb, EMULATOR_HOST, EMULATOR_PORTS.firestore)
    await expect(getDoc(doc(managerDb, scanPath(SLUG, draft.scanId)))).rejects.toMatchObject({ code: 'permission-denied' })
    const drafts = (await admin.db.collection(draftFindingsPath(SLUG, draft.scanId)).get()).docs.map((d) =>
      draftFindingFromDocument(d.id, d.data())!,
    )
    expect(drafts).toHaveLength(4)
    const ssh = await parsedFingerprint('network', first[0]!)
    const ftp = await parsedFingerprint('network', first[3 + 1]!)
    const low = await parsedFingerprint('network', first[3]!)
    expect(drafts.find((d) => d.id === ssh)).toMatchObject({
      instances: 2,
      location: { host: '10.0.0.5', port: '22', protocol: 'tcp' },
      templateSource: 'none',
    })

    // Review: the SSH finding gets a template (remembered for the rule), the FTP one is a false positive.
    await call(senior, 'reviewDraftFindings', {
      company: SLUG,
      scanId: draft.scanId,
      findingIds: [ssh],
      review: { kind: 'template', templateSlug: 'ssh-weak-ciphers', remember: true },
    })
    // The rule is remembered with what its finding is called and the template's title.
    const sshDraft = drafts.find((d) => d.id === ssh)!
    const remembered = templateMappingFromDocument(
      'ssh',
      (await admin.db.doc(templateMappingPath(await templateMappingId('network', sshDraft.ruleId))).get()).data(),
    )
    expect(remembered).toMatchObject({ ruleTitle: sshDraft.title, templateSlug: 'ssh-weak-ciphers', templateTitle: 'Weak SSH ciphers' })
    await call(senior, 'reviewDraftFindings', {
      company: SLUG,
      scanId: draft.scanId,
      findingIds: [ftp],
      review: { kind: 'false_positive', value: true },
    })
    await call(senior, 'reviewDraftFindings', {
      company: SLUG,
      scanId: draft.scanId,
      findingIds: [low],
      review: { kind: 'severity', severity: 'medium' },
    })
    await expectCallableError(
      call(senior, 'reviewDraftFindings', { company: SLUG, scanId: draft.scanId, findingIds: [ssh], review: { kind: 'merge', into: ssh } }),
      'invalid-argument',
    )

    const published = await call(senior, 'publishScan', { company: SLUG, scanId: draft.scanId })
    expect(published).toEqual({
      published: true,
      previousScanId: null,
      counts: { total: 3, new: 3, persisting: 0, notDetected: 0, reopened: 0 },
      progress: null,
    })
    const scan = scanFromDocument(draft.scanId, (await admin.db.doc(scanPath(SLUG, draft.scanId)).get()).data())!
    expect(scan).toMatchObject({ state: 'published', publishing: null, counts: { new: 3, bySeverity: { critical: 1, medium: 2 } } })
    expect(scan.stats).toMatchObject({ service: 'network', hostsUp: 1, openPorts: 1 })
    // Now the client reads it, and the finding has the template's text and its raw fields in the occurrence.
    expect((await getDoc(doc(managerDb, scanPath(SLUG, draft.scanId)))).exists()).toBe(true)
    const sshFinding = findingFromDocument(ssh, (await admin.db.doc(findingPath(SLUG, ssh)).get()).data())!
    expect(sshFinding).toMatchObject({
      status: 'open',
      templateSlug: 'ssh-weak-ciphers',
      description: 'From the template.',
      remediation: 'Template fix.',
    })
    const occurrence = (await admin.db.doc(occurrencePath(SLUG, ssh, draft.scanId)).get()).data()
    expect(occurrence).toMatchObject({ instances: 2, raw: JSON.stringify({ script: 'vulners', extra: 'kept' }) })
    expect((await admin.db.doc(findingPath(SLUG, ftp)).get()).exists).toBe(false)
    expect((await admin.db.doc(`${scanMembersPath(SLUG, draft.scanId)}/0`).get()).data()?.findings).toHaveLength(3)

    // Publishing again, and importing the same file again, change nothing.
    const before = (await findingsNow()).map((f) => [f.id, f.seenCount, f.status])
    expect(await call(senior, 'publishScan', { company: SLUG, scanId: draft.scanId })).toMatchObject({ published: false })
    expect(await importFile(senior, 'jan', first, january)).toEqual({ scanId: draft.scanId, created: false, state: 'published' })
    expect((await findingsNow()).map((f) => [f.id, f.seenCount, f.status])).toEqual(before)

    // The critical one is fixed by a retest before February's scan.
    const critical = await parsedFingerprint('network', first[2]!)
    const fixedAt = Date.UTC(2026, 0, 20)
    await admin.db.runTransaction(async (tx) => {
      const found = findingFromDocument(critical, (await tx.get(admin.db.doc(findingPath(SLUG, critical)))).data())!
      await applyFindingChanges(admin.db, tx, {
        company: SLUG,
        updatedBy: 'analyst@sectest.example',
        findings: [{ id: critical, before: found, patch: { status: 'fixed', fixedAt, closedAt: fixedAt }, change: null }],
      })
    })

    // February: SSH persists, the fixed critical is back (reopened, a regression), the low one is gone, a new one.
    const february = Date.UTC(2026, 1, 10)
    const second = [first[0]!, first[2]!, hostFinding('10.0.0.8', 3389, 'CVE-2019-0708', 'critical')]
    const next = await importFile(senior, 'feb', second, february)
    const drafted = draftFindingFromDocument(ssh, (await admin.db.doc(`${draftFindingsPath(SLUG, next.scanId)}/${ssh}`).get()).data())!
    expect(drafted).toMatchObject({ templateSlug: 'ssh-weak-ciphers', templateSource: 'mapping' })
    const comparison = await call(senior, 'publishScan', { company: SLUG, scanId: next.scanId })
    expect(comparison).toEqual({
      published: true,
      previousScanId: draft.scanId,
      counts: { total: 3, new: 1, persisting: 1, notDetected: 1, reopened: 1 },
      progress: null,
    })
    const after = new Map((await findingsNow()).map((f) => [f.id, f]))
    expect(after.get(critical)).toMatchObject({ status: 'reopened', regression: true, seenCount: 2 })
    expect(after.get(low)).toMatchObject({ status: 'not_detected', severity: 'medium' })
    expect(after.get(ssh)).toMatchObject({ status: 'open', seenCount: 2 })

    const stats = readServiceStats((await admin.db.doc(serviceStatsPath(SLUG, 'network')).get()).data())
    expect(stats).toEqual(sumContributions([...after.values()].map((f) => findingContribution(f))))
  })

  it('adjusts severity and CVSS, marks false positives, merges and splits a merged group', async () => {
    const findings = [
      hostFinding('10.1.0.5', 22, 'review-ssh', 'low'),
      hostFinding('10.1.0.6', 22, 'review-ssh', 'low'),
      hostFinding('10.1.0.7', 22, 'review-ssh', 'low'),
      hostFinding('10.1.0.8', 80, 'review-http', 'info'),
    ]
    const draft = await importFile(senior, `review-${unique()}`, findings, Date.UTC(2026, 2, 1))
    const [a, b, c, d] = await Promise.all(findings.map((f) => parsedFingerprint('network', f)))
    const review = (findingIds: string[], change: CallableRequest<'reviewDraftFindings'>['review']) =>
      call(senior, 'reviewDraftFindings', { company: SLUG, scanId: draft.scanId, findingIds, review: change })
    const read = async (id: string) =>
      draftFindingFromDocument(id, (await admin.db.doc(`${draftFindingsPath(SLUG, draft.scanId)}/${id}`).get()).data())!

    // CVSS: the server scores the vector and keeps it normalised; a broken one is refused.
    await review([a!], { kind: 'cvss', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' })
    expect((await read(a!)).cvss).toEqual({ version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 })
    await expectCallableError(review([a!], { kind: 'cvss', vector: 'CVSS:3.1/AV:N' }), 'invalid-argument')
    await review([a!], { kind: 'severity', severity: 'critical' })
    expect(await read(a!)).toMatchObject({ severity: 'critical', scannerSeverity: 'low' })
    await review([d!], { kind: 'false_positive', value: true })
    expect((await read(d!)).falsePositive).toBe(true)

    // Merge b and c into a; a finding merged elsewhere cannot take merges.
    expect(await review([b!, c!], { kind: 'merge', into: a! })).toEqual({ changed: 2 })
    expect([(await read(b!)).mergedInto, (await read(c!)).mergedInto]).toEqual([a, a])
    await expectCallableError(review([d!], { kind: 'merge', into: b! }), 'failed-precondition')
    // Split one member: it stands alone again.
    expect(await review([c!], { kind: 'split' })).toEqual({ changed: 1 })
    expect((await read(c!)).mergedInto).toBeNull()
    // Split the group's finding: everything merged into it is freed as well.
    await review([c!], { kind: 'merge', into: a! })
    expect(await review([a!], { kind: 'split' })).toEqual({ changed: 3 })
    for (const id of [a!, b!, c!]) expect((await read(id)).mergedInto).toBeNull()
    // The analyst's CVSS can be dropped again.
    await review([a!], { kind: 'cvss', vector: null })
    expect((await read(a!)).cvss).toBeNull()
    // A client may not review.
    await expectCallableError(
      call(manager, 'reviewDraftFindings', { company: SLUG, scanId: draft.scanId, findingIds: [a!], review: { kind: 'split' } }),
      'permission-denied',
    )
    await call(senior, 'discardDraftScan', { company: SLUG, scanId: draft.scanId })
  })
})
