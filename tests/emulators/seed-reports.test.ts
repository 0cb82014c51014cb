import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceEnabledFor } from '#domain/access.ts'
import { assetFromDocument } from '#domain/assets.ts'
import { commentFromDocument } from '#domain/finding-comments.ts'
import { historyFromDocument } from '#domain/finding-history.ts'
import { findingFromDocument, FINDING_STATUSES, isOpenStatus, type Finding } from '#domain/findings.ts'
import { companyActivityFromDocument } from '#domain/company-activity.ts'
import { retestFromDocument, type Retest } from '#domain/retests.ts'
import { scanFromDocument, scanMembersFromDocument } from '#domain/scans.ts'
import { draftAssetFromDocument, draftFindingFromDocument, type DraftFinding } from '#domain/scan-drafts.ts'
import { draftPublication, type TemplateText } from '#domain/scan-import/draft-publication.ts'
import { planScanPublication } from '#domain/scan-publication.ts'
import { slaPolicyFor } from '#domain/sla.ts'
import {
  findingContribution,
  openTotal,
  readServiceMonth,
  readServiceStats,
  retestContribution,
  sumContributions,
} from '#domain/service-stats.ts'
import { services } from '#domain/services.ts'
import { monthKey } from '#domain/sla.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import { DEMO_FINDING_TEMPLATES } from '../../emulators/seed/finding-templates.ts'
import { buildReportDocuments, seedReports, type ReportsSummary } from '../../emulators/seed/reports/seed-reports.ts'
import { clearEmulators } from './emulator-data.ts'

const SLOW = 240_000

describe('demo reports seed', () => {
  let clients: AdminClients
  let summary: ReportsSummary
  const findingsOf = new Map<string, Finding[]>()
  const retestsOf = new Map<string, Retest[]>()

  beforeAll(async () => {
    await clearEmulators()
    clients = connectToEmulators()
    summary = await seedReports(clients.db)
    console.log(`reports seed: ${summary.documents} documents in ${(summary.milliseconds / 1000).toFixed(1)} s`)
    for (const company of DEMO_COMPANIES) {
      const findings = (await clients.db.collection(`companies/${company.slug}/findings`).get()).docs.map((doc) => {
        const finding = findingFromDocument(doc.id, doc.data())
        if (!finding) throw new Error(`${doc.ref.path} is not a readable finding`)
        return finding
      })
      findingsOf.set(company.slug, findings)
      const retests = (await clients.db.collection(`companies/${company.slug}/retests`).get()).docs.map((doc) => {
        const retest = retestFromDocument(doc.id, doc.data())
        if (!retest) throw new Error(`${doc.ref.path} is not a readable retest`)
        return retest
      })
      retestsOf.set(company.slug, retests)
    }
  }, SLOW)

  afterAll(async () => {
    await disconnect(clients)
  })

  it('writes a year of findings for each company: acme over 20,000, mostly DAST and network, mostly closed', () => {
    const acme = findingsOf.get('acme')!
    expect(acme.length).toBeGreaterThanOrEqual(20_000)
    expect(acme.filter((f) => f.service === 'dast' || f.service === 'network').length).toBeGreaterThan(acme.length * 0.8)
    expect(acme.filter((f) => f.status === 'fixed').length).toBeGreaterThan(acme.length * 0.6)
    for (const company of DEMO_COMPANIES) {
      const findings = findingsOf.get(company.slug)!
      expect(findings.length, company.slug).toBe(summary.findings[company.slug])
      const enabled = services.filter((s) => serviceEnabledFor(company, s.id)).map((s) => s.id)
      expect(new Set(findings.map((f) => f.service)), company.slug).toEqual(new Set(enabled))
    }
    expect(findingsOf.get('umbrella')).toEqual([])
  })

  it('leaves findings of every company with services in every status', () => {
    for (const slug of ['acme', 'globex', 'initech']) {
      const statuses = new Set(findingsOf.get(slug)!.map((f) => f.status))
      expect([...statuses].sort(), slug).toEqual([...FINDING_STATUSES].sort())
    }
  })

  it('copies template text into findings that use a template, including one the template pages show as in use', () => {
    const bySlug = new Map(DEMO_FINDING_TEMPLATES.map((t) => [t.slug, t]))
    const acme = findingsOf.get('acme')!
    const templated = acme.filter((f) => f.templateSlug)
    expect(templated.length).toBeGreaterThan(acme.length / 2)
    for (const finding of templated.slice(0, 500)) {
      const template = bySlug.get(finding.templateSlug!)!
      expect(finding).toMatchObject({
        title: template.title,
        description: template.description,
        impact: template.impact,
        remediation: template.remediation,
      })
    }
    expect(acme.some((f) => f.templateSlug === 'exposed-git-directory')).toBe(true)
  })

  it(
    'stores every scan, member list, retest, asset, history entry, comment and activity entry in a form the product reads',
    async () => {
      for (const company of DEMO_COMPANIES) {
        const slug = company.slug
        const scans = (await clients.db.collection(`companies/${slug}/scans`).get()).docs
        const enabled = services.filter((s) => serviceEnabledFor(company, s.id))
        expect(scans.length, slug).toBe(enabled.length * 13)
        for (const doc of scans) {
          const scan = scanFromDocument(doc.id, doc.data())
          expect(scan, doc.ref.path).not.toBeNull()
          const members = (await doc.ref.collection('members').get()).docs.map((m) => scanMembersFromDocument(m.data()))
          expect(
            members.reduce((n, m) => n + m.findings.length, 0),
            doc.ref.path,
          ).toBe(scan!.counts.new + scan!.counts.persisting + scan!.counts.reopened)
        }
        for (const service of enabled) {
          const states = scans
            .map((d) => d.data())
            .filter((d) => d.service === service.id)
            .map((d) => d.state)
          expect(
            states.filter((s) => s === 'published'),
            `${slug} ${service.id}`,
          ).toHaveLength(12)
          expect(
            states.filter((s) => s === 'draft'),
            `${slug} ${service.id}`,
          ).toHaveLength(1)
        }
        for (const doc of (await clients.db.collection(`companies/${slug}/assets`).get()).docs)
          expect(assetFromDocument(doc.id, doc.data()), doc.ref.path).not.toBeNull()
        for (const doc of (await clients.db.collection(`companies/${slug}/activity`).get()).docs)
          expect(companyActivityFromDocument(doc.id, doc.data()), doc.ref.path).not.toBeNull()
      }
      // History and comments of a sample: the findings people talked about, and the first ones by id.
      const acme = findingsOf.get('acme')!
      const talked = acme.filter((f) => f.commentCount > 0)
      expect(talked.length).toBeGreaterThan(0)
      const comments = []
      for (const finding of talked) {
        const docs = (await clients.db.collection(`companies/acme/findings/${finding.id}/comments`).get()).docs
        expect(docs.length, finding.id).toBe(finding.commentCount)
        comments.push(...docs)
      }
      expect(comments.map((d) => d.get('visibility'))).toEqual(expect.arrayContaining(['client', 'internal']))
      expect(comments.some((d) => (d.get('mentions') as string[]).length > 0)).toBe(true)
      for (const doc of comments) expect(commentFromDocument(doc.id, doc.data()), doc.ref.path).not.toBeNull()
      for (const finding of [...talked, ...acme.slice(0, 40)]) {
        const history = (await clients.db.collection(`companies/acme/findings/${finding.id}/history`).get()).docs
        const entries = history.map((doc) => historyFromDocument(doc.id, doc.data()))
        expect(entries.every(Boolean), finding.id).toBe(true)
        // The trail starts when a scan first saw it and ends in the status it has.
        expect(entries[0]!.action, finding.id).toBe('first_seen')
        expect(entries.at(-1)!.to, finding.id).toBe(finding.status)
      }
    },
    SLOW,
  )

  it(
    'gives each draft scan the draft findings of what it observed, with a review under way, ready to publish',
    async () => {
      const templates = new Map<string, TemplateText>(DEMO_FINDING_TEMPLATES.map((t) => [t.slug, t]))
      const sources = new Set<string>()
      for (const company of DEMO_COMPANIES) {
        const slug = company.slug
        const drafts = (await clients.db.collection(`companies/${slug}/scans`).where('state', '==', 'draft').get()).docs
        expect(drafts.length, slug).toBe(services.filter((s) => serviceEnabledFor(company, s.id)).length)
        for (const doc of drafts) {
          const scan = scanFromDocument(doc.id, doc.data())!
          const members = (await doc.ref.collection('members').get()).docs.map((m) => scanMembersFromDocument(m.data()))
          const planned = members.flatMap((m) => m.findings.map((f) => f.id)).sort()
          const findings = (await doc.ref.collection('draft_findings').get()).docs.map((d) => draftFindingFromDocument(d.id, d.data()))
          expect(findings.every(Boolean), doc.ref.path).toBe(true)
          const drafted = findings as DraftFinding[]
          expect(drafted.map((d) => d.id).sort(), doc.ref.path).toEqual(planned)
          expect(scan.importReport?.findings, doc.ref.path).toBe(drafted.length)
          for (const draft of drafted) {
            expect(
              scan.files.map((f) => f.sha256),
              draft.id,
            ).toContain(draft.sourceFile)
            if (draft.templateSlug) expect(templates.has(draft.templateSlug), draft.templateSlug).toBe(true)
            sources.add(draft.templateSource)
          }
          expect(
            drafted.filter((d) => d.falsePositive),
            doc.ref.path,
          ).toHaveLength(1)
          expect(
            drafted.filter((d) => d.templateSource === 'analyst'),
            doc.ref.path,
          ).toHaveLength(1)
          expect(drafted.filter((d) => d.templateSource === 'none').length, doc.ref.path).toBeGreaterThan(0)
          const assets = (await doc.ref.collection('draft_assets').get()).docs
          expect(assets.length, doc.ref.path).toBe(members.reduce((n, m) => n + m.assets.length, 0))
          for (const asset of assets) expect(draftAssetFromDocument(asset.id, asset.data()), asset.ref.path).not.toBeNull()

          // Publishing compares with the year's findings: the draft's findings persist, none starts again.
          const { observed } = draftPublication(drafted, templates)
          const current = new Map(
            findingsOf
              .get(slug)!
              .filter((f) => f.service === scan.service)
              .map((f) => [f.id, f]),
          )
          const plan = planScanPublication({
            scan: { id: scan.id, service: scan.service, startedAt: scan.startedAt },
            observed,
            current,
            assets: [],
            policy: slaPolicyFor(null),
            now: Date.UTC(2026, 10, 21),
            by: 'test',
          })
          expect(observed, doc.ref.path).toHaveLength(drafted.length - 1)
          expect(plan.counts.new, doc.ref.path).toBe(0)
          expect(plan.counts.persisting + plan.counts.reopened, doc.ref.path).toBe(observed.length)
          expect(plan.counts.notDetected, doc.ref.path).toBeLessThan(observed.length)
        }
      }
      expect([...sources].sort()).toEqual(['analyst', 'mapping', 'none'])
    },
    SLOW,
  )

  it('has retests requested and completed, and risk acceptances pending, granted and about to end', () => {
    const retests = retestsOf.get('acme')!
    expect(new Set(retests.map((r) => r.state))).toEqual(new Set(['requested', 'completed']))
    const acme = findingsOf.get('acme')!
    const accepted = acme.filter((f) => f.status === 'risk_accepted')
    const now = Date.UTC(2026, 10, 20, 17)
    // Every granted acceptance still holds; one ends within the week.
    for (const finding of accepted) expect(finding.riskAcceptance!.expiresAt, finding.id).toBeGreaterThan(now)
    expect(accepted.some((f) => f.riskAcceptance!.expiresAt - now < 7 * 86_400_000)).toBe(true)
    expect(acme.some((f) => f.status === 'acceptance_requested' && f.riskAcceptance && !f.riskAcceptance.decidedAt)).toBe(true)
    expect(acme.some((f) => f.status === 'reopened' && f.regression)).toBe(true)
  })

  it(
    'keeps service_stats equal to a recount of the findings and retests, and each month’s openings to the findings published then',
    async () => {
      for (const company of DEMO_COMPANIES) {
        const slug = company.slug
        for (const { id: service } of services) {
          if (!serviceEnabledFor(company, service)) continue
          const findings = findingsOf.get(slug)!.filter((f) => f.service === service)
          const retests = retestsOf.get(slug)!.filter((r) => r.service === service)
          const recount = sumContributions([...findings.map(findingContribution), ...retests.map(retestContribution)])
          const stored = readServiceStats((await clients.db.doc(`companies/${slug}/service_stats/${service}`).get()).data())
          const { lastScanId, lastPublishedAt } = stored
          expect({ ...recount, lastScanId, lastPublishedAt }, `${slug} ${service}`).toEqual(stored)
          expect(openTotal(stored.open), `${slug} ${service}`).toBe(findings.filter((f) => isOpenStatus(f.status)).length)
          expect(lastScanId).toBe(`${service}-2026-11`)
          const months = (await clients.db.collection(`companies/${slug}/service_stats/${service}/months`).get()).docs.map((d) =>
            readServiceMonth(d.id, d.data()),
          )
          expect(months.length, `${slug} ${service}`).toBeGreaterThan(0)
          for (const month of months) expect(month.month >= '2025-12' && month.month <= '2026-11', month.month).toBe(true)
          for (const month of months)
            for (const severity of SEVERITIES)
              expect(month.opened[severity], `${slug} ${service} ${month.month} ${severity}`).toBe(
                findings.filter((f) => f.severity === severity && monthKey(f.publishedAt) === month.month).length,
              )
        }
      }
    },
    SLOW,
  )

  it(
    'draws the same documents on every run',
    async () => {
      const [first, second] = [await buildReportDocuments(), await buildReportDocuments()]
      expect(second.documents.size).toBe(summary.documents)
      expect(second).toEqual(first)
    },
    SLOW,
  )

  it(
    'puts back or removes what was changed since the last run',
    async () => {
      const finding = findingsOf.get('acme')![0]!
      const scanPath = 'companies/globex/scans/network-2026-03'
      const scan = (await clients.db.doc(scanPath).get()).data()
      await clients.db.doc(`companies/acme/findings/${finding.id}`).update({ status: 'fixed', title: 'Edited' })
      await clients.db.doc('companies/acme/findings/left-behind').set({ service: 'dast', title: 'Not from the seed' })
      await clients.db.doc(scanPath).delete()
      // A review and an import of another file into a seeded draft.
      const draftPath = 'companies/acme/scans/network-draft-2026-11'
      const reviewed = (await clients.db.collection(`${draftPath}/draft_findings`).limit(1).get()).docs[0]!
      await reviewed.ref.update({ falsePositive: !reviewed.get('falsePositive'), severity: 'critical' })
      await clients.db.doc(`${draftPath}/draft_findings/not-from-the-seed`).set({ ruleId: 'x', title: 'Imported later' })
      await clients.db.doc(`${draftPath}/draft_assets/not-from-the-seed`).set({ type: 'host', value: '192.0.2.1' })
      const rerun = await seedReports(clients.db)
      expect(rerun.removed).toBe(3)
      expect((await reviewed.ref.get()).data()).toEqual(reviewed.data())
      expect((await clients.db.doc(`${draftPath}/draft_findings/not-from-the-seed`).get()).exists).toBe(false)
      expect((await clients.db.doc(`${draftPath}/draft_assets/not-from-the-seed`).get()).exists).toBe(false)
      expect(rerun.documents).toBe(summary.documents)
      expect(findingFromDocument(finding.id, (await clients.db.doc(`companies/acme/findings/${finding.id}`).get()).data())).toEqual(finding)
      expect((await clients.db.doc('companies/acme/findings/left-behind').get()).exists).toBe(false)
      expect((await clients.db.doc(scanPath).get()).data()).toEqual(scan)
      const count = await clients.db.collection('companies/acme/findings').count().get()
      expect(count.data().count).toBe(summary.findings.acme)
    },
    SLOW * 2,
  )
})
