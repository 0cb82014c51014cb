import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceEnabledFor } from '#domain/access.ts'
import { assetFromDocument } from '#domain/assets.ts'
import { commentFromDocument } from '#domain/finding-comments.ts'
import { historyFromDocument } from '#domain/finding-history.ts'
import { findingFromDocument, FINDING_STATUSES, isOpenStatus, type Finding } from '#domain/findings.ts'
import { companyActivityFromDocument } from '#domain/company-activity.ts'
import { retestFromDocument, type Retest } from '#domain/retests.ts'
import { scanFromDocument, scanMembersFromDocument } from '#domain/scans.ts'
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
import { seedReports, type ReportsSummary } from '../../emulators/seed/reports/seed-reports.ts'
import { clearEmulators } from './emulator-data.ts'

const SLOW = 240_000

// Every report document of the demo companies, as one digest: two runs agree when it does.
async function reportsDigest(clients: AdminClients): Promise<{ digest: string; count: number }> {
  const names = [
    'findings',
    'history',
    'occurrences',
    'comments',
    'scans',
    'members',
    'retests',
    'assets',
    'service_stats',
    'months',
    'activity',
  ]
  const rows: string[] = []
  for (const name of names)
    for (const doc of (await clients.db.collectionGroup(name).get()).docs)
      if (doc.ref.path.startsWith('companies/')) rows.push(`${doc.ref.path}\t${JSON.stringify(doc.data())}`)
  rows.sort()
  return { digest: createHash('sha256').update(rows.join('\n')).digest('hex'), count: rows.length }
}

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
      for (const doc of (await clients.db.collectionGroup('history').get()).docs)
        expect(historyFromDocument(doc.id, doc.data()), doc.ref.path).not.toBeNull()
      const comments = (await clients.db.collectionGroup('comments').get()).docs
      expect(comments.map((d) => d.get('visibility'))).toEqual(expect.arrayContaining(['client', 'internal']))
      expect(comments.some((d) => (d.get('mentions') as string[]).length > 0)).toBe(true)
      for (const doc of comments) expect(commentFromDocument(doc.id, doc.data()), doc.ref.path).not.toBeNull()
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
          expect(months.length).toBeGreaterThanOrEqual(12)
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
    'writes the same documents on every run, and puts back or removes what was changed in between',
    async () => {
      const before = await reportsDigest(clients)
      expect(before.count).toBe(summary.documents)
      const finding = findingsOf.get('acme')![0]!
      await clients.db.doc(`companies/acme/findings/${finding.id}`).update({ status: 'fixed', title: 'Edited' })
      await clients.db.doc('companies/acme/findings/left-behind').set({ service: 'dast', title: 'Not from the seed' })
      await clients.db.doc('companies/globex/scans/network-2026-03').delete()
      const rerun = await seedReports(clients.db)
      expect(rerun.removed).toBe(1)
      expect(await reportsDigest(clients)).toEqual(before)
    },
    SLOW * 2,
  )
})
