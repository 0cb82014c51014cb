// Triage of a draft's findings through reviewDraftFindings. The analyst's own title, description
// and remediation (kind 'text'): saved for those who may import the service only, one finding at a
// time, the same text again writing nothing, kept when a template is chosen afterwards, and what is
// published. The severity follows a CVSS score set by an analyst, unless one chose it by hand.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { findingFromDocument, findingPath } from '#domain/findings.ts'
import { parsedFingerprint } from '#domain/scan-import/observed.ts'
import type { ParsedFinding } from '#domain/scan-import/parsed-scan.ts'
import { draftFindingFromDocument, draftFindingPath } from '#domain/scan-drafts.ts'
import { templatePath } from '#domain/template-library.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `text-${unique()}`
const TEMPLATE = `text-template-${unique()}`

let admin: AdminClients
const clients: CallableClient[] = []
interface Person {
  client: CallableClient
}

async function person(name: string, level: number, companies: string[], servicesManaged: string[] = []): Promise<Person> {
  const client = connectCallableClient(`draft-text-${name}`)
  clients.push(client)
  const claims = tokenClaims(level)
  const { uid } = await signInWithClaims(client, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled: [], servicesManaged })
  return { client }
}

const call = async <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) =>
  (await callByName(who.client, name, data)) as CallableResponse<N>
const sha = (text: string) => createHash('sha256').update(text).digest('hex')

const finding = (ip: string, ruleId: string): ParsedFinding => ({
  ruleId,
  title: `${ruleId} on ${ip}`,
  severity: 'medium',
  target: { kind: 'host', host: ip, ip, port: 22, protocol: 'tcp' },
  description: 'What the scanner said.',
  remediation: 'What the scanner advised.',
  raw: {},
})

async function importDraft(who: Person, findings: ParsedFinding[]) {
  const file = `text-${unique()}`
  const created = await call(who, 'createDraftScan', {
    company: SLUG,
    service: 'network',
    title: 'Text review',
    files: [{ name: `${file}.xml`, sha256: sha(file), size: 1000, format: 'nmap_xml', tool: 'nmap', toolVersion: '7.94' }],
    startedAt: Date.UTC(2026, 3, 1),
    finishedAt: Date.UTC(2026, 3, 1, 1),
    targets: ['10.9.0.0/24'],
    report: { findings: findings.length, assets: 0, skipped: 0, warnings: 0, notes: [] },
  })
  await call(who, 'addDraftFindings', { company: SLUG, scanId: created.scanId, sourceFile: sha(file), findings, assets: [] })
  await call(who, 'finishDraftImport', { company: SLUG, scanId: created.scanId })
  return created.scanId
}

let senior: Person, analyst: Person, passwordAnalyst: Person, manager: Person

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db
    .doc(companyPath(SLUG))
    .set(companyDocument(SLUG, { enableViewResultsNetwork: true, enableViewResultsPasswordCracking: true }))
  await admin.db.doc(templatePath(TEMPLATE)).set({
    slug: TEMPLATE,
    title: 'Weak SSH configuration',
    severity: 'medium',
    description: 'From the template.',
    impact: 'Template impact.',
    remediation: 'Template fix.',
    references: [],
    cwe: [],
    tags: [],
    status: 'ready',
    createdAt: new Date(),
    updatedAt: new Date(),
    updatedBy: 'senior@sectest.example',
  })
  ;[senior, analyst, passwordAnalyst, manager] = await Promise.all([
    person('senior', LEVEL.seniorAnalyst, []),
    person('analyst', LEVEL.analyst, [SLUG]),
    person('password', LEVEL.analyst, [SLUG], ['password_cracking']),
    person('manager', LEVEL.clientManager, [SLUG]),
  ])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await disconnect(admin)
})

describe("an analyst's own text of a draft finding", () => {
  it('is saved once, survives a template chosen later and is what the client reads once published', async () => {
    const findings = [finding('10.9.0.5', 'text-ssh'), finding('10.9.0.6', 'text-ssh')]
    const scanId = await importDraft(senior, findings)
    const [a, b] = await Promise.all(findings.map((f) => parsedFingerprint('network', f)))
    const read = async (id: string) => draftFindingFromDocument(id, (await admin.db.doc(draftFindingPath(SLUG, scanId, id)).get()).data())!
    const text = (review: Omit<Extract<CallableRequest<'reviewDraftFindings'>['review'], { kind: 'text' }>, 'kind'>, who = senior) =>
      call(who, 'reviewDraftFindings', { company: SLUG, scanId, findingIds: [a!], review: { kind: 'text', ...review } })

    expect(await text({ title: '  SSH allows weak ciphers on the jump host  ', description: 'Our words for the client.' })).toEqual({
      changed: 1,
    })
    const saved = await read(a!)
    expect(saved).toMatchObject({
      title: 'SSH allows weak ciphers on the jump host',
      description: 'Our words for the client.',
      remediation: 'What the scanner advised.',
      edited: ['title', 'description'],
    })

    // The same text again (a save sent twice) writes nothing.
    expect(await text({ title: 'SSH allows weak ciphers on the jump host', description: 'Our words for the client.' })).toEqual({
      changed: 0,
    })
    expect((await read(a!)).updatedAt).toBe(saved.updatedAt)

    // A template chosen afterwards (and remembered for the rule) does not replace what the analyst wrote.
    await call(senior, 'reviewDraftFindings', {
      company: SLUG,
      scanId,
      findingIds: [a!, b!],
      review: { kind: 'template', templateSlug: TEMPLATE, remember: true },
    })
    expect(await read(a!)).toMatchObject({ title: 'SSH allows weak ciphers on the jump host', description: 'Our words for the client.' })

    await call(senior, 'publishScan', { company: SLUG, scanId })
    const published = async (id: string) => findingFromDocument(id, (await admin.db.doc(findingPath(SLUG, id)).get()).data())!
    // The analyst's title and description; the template's remediation where the analyst wrote none.
    expect(await published(a!)).toMatchObject({
      title: 'SSH allows weak ciphers on the jump host',
      description: 'Our words for the client.',
      remediation: 'Template fix.',
    })
    expect(await published(b!)).toMatchObject({
      title: 'text-ssh on 10.9.0.6',
      description: 'From the template.',
      remediation: 'Template fix.',
    })

    // A published scan is no draft: its text is no longer rewritten here.
    await expectCallableError(text({ description: 'Too late.' }), 'failed-precondition')
  })

  it('replaces the text of a finding published before, when the analyst rewrites it in a later scan', async () => {
    const issue = finding('10.9.3.5', 'text-again')
    await call(senior, 'publishScan', { company: SLUG, scanId: await importDraft(senior, [issue]) })
    const id = await parsedFingerprint('network', issue)
    const scanId = await importDraft(senior, [issue])
    await call(senior, 'reviewDraftFindings', {
      company: SLUG,
      scanId,
      findingIds: [id],
      review: { kind: 'text', title: 'SSH on the backup host', remediation: 'Turn off CBC ciphers.' },
    })
    expect(await call(senior, 'publishScan', { company: SLUG, scanId })).toMatchObject({ counts: { persisting: 1, new: 0 } })
    expect(findingFromDocument(id, (await admin.db.doc(findingPath(SLUG, id)).get()).data())).toMatchObject({
      title: 'SSH on the backup host',
      description: 'What the scanner said.',
      remediation: 'Turn off CBC ciphers.',
      seenCount: 2,
    })
  })

  it('is refused to those who may not review the service, for several findings at once, and when empty', async () => {
    const findings = [finding('10.9.1.5', 'text-refused'), finding('10.9.1.6', 'text-refused')]
    const scanId = await importDraft(senior, findings)
    const [a, b] = await Promise.all(findings.map((f) => parsedFingerprint('network', f)))
    const request = (findingIds: string[], review: CallableRequest<'reviewDraftFindings'>['review']) => ({
      company: SLUG,
      scanId,
      findingIds,
      review,
    })
    const rewrite = { kind: 'text', description: 'Not theirs to write.' } as const

    // A client, an analyst of the company without the service, an analyst of another service.
    await expectCallableError(call(manager, 'reviewDraftFindings', request([a!], rewrite)), 'permission-denied')
    await expectCallableError(call(analyst, 'reviewDraftFindings', request([a!], rewrite)), 'permission-denied')
    await expectCallableError(call(passwordAnalyst, 'reviewDraftFindings', request([a!], rewrite)), 'permission-denied')
    // One finding at a time, a title that is not blank, at least one field.
    await expectCallableError(call(senior, 'reviewDraftFindings', request([a!, b!], rewrite)), 'invalid-argument')
    await expectCallableError(call(senior, 'reviewDraftFindings', request([a!], { kind: 'text', title: '   ' })), 'invalid-argument')
    await expectCallableError(call(senior, 'reviewDraftFindings', request([a!], { kind: 'text' })), 'invalid-argument')
    await expectCallableError(call(senior, 'reviewDraftFindings', request(['no-such-finding'], rewrite)), 'not-found')

    const untouched = draftFindingFromDocument(a!, (await admin.db.doc(draftFindingPath(SLUG, scanId, a!)).get()).data())!
    expect(untouched).toMatchObject({ description: 'What the scanner said.', edited: [] })
    await call(senior, 'discardDraftScan', { company: SLUG, scanId })
  })
})

describe('the severity of a draft finding', () => {
  it('follows the CVSS score an analyst sets, unless an analyst chose it by hand, and can follow it again', async () => {
    const findings = [finding('10.9.2.5', 'cvss-follow'), finding('10.9.2.6', 'cvss-follow')]
    const scanId = await importDraft(senior, findings)
    const [a, b] = await Promise.all(findings.map((f) => parsedFingerprint('network', f)))
    const review = (findingIds: string[], change: CallableRequest<'reviewDraftFindings'>['review']) =>
      call(senior, 'reviewDraftFindings', { company: SLUG, scanId, findingIds, review: change })
    const read = async (id: string) => draftFindingFromDocument(id, (await admin.db.doc(draftFindingPath(SLUG, scanId, id)).get()).data())!

    // b's severity is chosen by hand; then both get a critical vector: a follows it, b keeps its own.
    await review([b!], { kind: 'severity', severity: 'low' })
    await review([a!, b!], { kind: 'cvss', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' })
    expect(await read(a!)).toMatchObject({ severity: 'critical', scannerSeverity: 'medium', severityByHand: false })
    expect(await read(b!)).toMatchObject({ severity: 'low', severityByHand: true, cvss: { score: 9.8 } })

    // A lower score moves a again; b follows the score once asked to.
    await review([a!, b!], { kind: 'cvss', vector: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:L/I:N/A:N' })
    expect((await read(a!)).severity).toBe('low')
    await review([b!], { kind: 'severity', severity: null })
    expect(await read(b!)).toMatchObject({ severity: 'low', severityByHand: false })
    await review([b!], { kind: 'cvss', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N' })
    expect((await read(b!)).severity).toBe('critical')

    // Without a score the severity is the scanner's again; a broken vector is refused in words.
    await review([a!], { kind: 'cvss', vector: null })
    expect(await read(a!)).toMatchObject({ severity: 'medium', cvss: null })
    await expect(review([a!], { kind: 'cvss', vector: 'CVSS:3.1/AV:N' })).rejects.toThrow(/Missing base metrics: AC \(Attack Complexity\)/)
    await call(senior, 'discardDraftScan', { company: SLUG, scanId })
  })
})
