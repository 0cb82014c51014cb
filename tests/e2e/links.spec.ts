// Links land where they say, on the stack's seed as Acme's viewer sees it: a scan under "Latest
// published scans" opens the report at that scan (not the service's latest), the home dashboard's
// lines open the scan, the finding or the findings they name (activity written with the Admin SDK
// as the functions write it), and a notification opens its place and is read from then on.
import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { Timestamp } from 'firebase-admin/firestore'
import { companyActivityPath } from '#domain/company-activity.ts'
import { findingsPath } from '#domain/findings.ts'
import { NOTIFICATIONS_COLLECTION } from '#domain/notifications.ts'
import { findingLink, reportLink } from '#domain/report-links.ts'
import { scansPath } from '#domain/scans.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'
import { DashboardPage } from './pages/dashboard'
import { FindingsTable } from './pages/findings'

const viewer = demoAccount('viewer@acme.example')
const COMPANY = 'acme'
const run = `e2e-links-${randomUUID().slice(0, 8)}`
const db = () => sharedAdmin().db

interface SeededScan {
  id: string
  title: string
}

/** The service's published scans, newest first. */
async function publishedScans(service: string): Promise<SeededScan[]> {
  const docs = (await db().collection(scansPath(COMPANY)).where('service', '==', service).where('state', '==', 'published').get()).docs
  return docs
    .map((d) => ({ id: d.id, title: String(d.get('title')), at: (d.get('publishedAt') as Timestamp).toMillis() }))
    .sort((a, b) => b.at - a.at)
}

/** A seeded DAST finding the viewer may open. */
async function someFinding(): Promise<{ id: string; title: string }> {
  const doc = (await db().collection(findingsPath(COMPANY)).where('service', '==', 'dast').limit(1).get()).docs[0]!
  return { id: doc.id, title: String(doc.get('title')) }
}

/** The report shows `scan`: its picker holds it and the line under it names it. */
async function expectReportAt(page: Page, service: string, scan: SeededScan) {
  await expect(page).toHaveURL(new RegExp(`/reports/${service}\\?(.*&)?scan=${scan.id}(&|$)`))
  await expect(page.getByRole('combobox', { name: 'Scan' })).toHaveValue(scan.id)
  await expect(page.getByRole('main').getByText(`${scan.title}: published`)).toBeVisible()
}

/**
 * Home, with what came in since `since` as news: each visit is stamped once the dashboard has shown
 * it, so a later visit starts from there. Only this test's lines are news then: the dashboard puts
 * lines of one kind together, and another test's risk acceptance of the last minutes would join
 * this one's into a line that opens the list instead of the finding.
 */
async function openHome(shell: { open(path?: string): Promise<void> }, since: number) {
  await db()
    .doc(userPreferencesPath(viewer.uid))
    .set({ lastVisitAt: Timestamp.fromMillis(since) }, { merge: true })
  await shell.open('/')
}

async function writeActivity(key: string, fields: Record<string, unknown>) {
  await db()
    .doc(`${companyActivityPath(COMPANY)}/${run}-${key}`)
    .set({ count: 1, scanId: null, findingId: null, retestId: null, byName: 'Analyst', at: Timestamp.now(), ...fields })
}

test.describe('links land where they say', () => {
  test.describe.configure({ mode: 'serial' })
  test.use({ signedInAs: viewer.email })

  test.afterAll(async () => {
    const activity = await db().collection(companyActivityPath(COMPANY)).where('byName', '==', 'Analyst').get()
    await Promise.all(activity.docs.filter((d) => d.id.startsWith(run)).map((d) => d.ref.delete()))
    const mine = await db().collection(NOTIFICATIONS_COLLECTION).where('uid', '==', viewer.uid).get()
    await Promise.all(mine.docs.filter((d) => String(d.get('title')).includes(run)).map((d) => d.ref.delete()))
  })

  test('a scan under Latest published scans opens the report at that scan', async ({ shell, page }) => {
    await shell.open('/reports')
    const list = page.getByRole('region', { name: 'Latest published scans' })
    const links = list.getByRole('link')
    await expect(links.first()).toBeVisible()
    // One that is not its service's latest: landing on the latest would not be that scan.
    const candidates = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href') ?? ''))
    let chosen: { index: number; service: string; scan: SeededScan } | null = null
    for (const [index, href] of candidates.entries()) {
      const url = new URL(href, 'https://x.invalid')
      const service = url.pathname.split('/')[2]!
      const scans = await publishedScans(service)
      const at = scans.findIndex((s) => s.id === url.searchParams.get('scan'))
      if (at > 0) {
        chosen = { index, service, scan: scans[at]! }
        break
      }
    }
    expect(chosen, 'an older scan among the latest published').not.toBeNull()
    const link = links.nth(chosen!.index)
    await expect(link).toContainText(chosen!.scan.title)
    await link.click()
    await expectReportAt(page, chosen!.service, chosen!.scan)
  })

  test("the dashboard's lines open the scan, the finding and the findings they name", async ({ shell, page }) => {
    const [latestDast, olderDast] = await publishedScans('dast')
    expect(olderDast).toBeDefined()
    const finding = await someFinding()
    const since = Date.now() - 1
    await writeActivity('scan', {
      type: 'scan_published',
      service: 'dast',
      summary: `${olderDast!.title} published: 2 new, 1 not detected`,
      count: 8,
      scanId: olderDast!.id,
    })
    await writeActivity('accept', {
      type: 'acceptance_requested',
      service: 'dast',
      summary: 'Risk acceptance requested for 1 finding',
      findingId: finding.id,
    })
    await writeActivity('fixed', { type: 'findings_fixed', service: 'network', summary: 'Findings fixed', count: 3 })
    expect(latestDast!.id).not.toBe(olderDast!.id)

    const dashboard = new DashboardPage(page)
    await openHome(shell, since)
    const scanLine = dashboard.change(`DAST: ${olderDast!.title} published: 2 new, 1 not detected Opens the DAST report at this scan`)
    await expect(scanLine).toHaveAttribute('href', reportLink('dast', { scan: olderDast!.id }))
    await scanLine.click()
    await expectReportAt(page, 'dast', olderDast!)

    await openHome(shell, since)
    const findingLine = dashboard.change(/risk acceptance requested in DAST Opens the finding/)
    await expect(findingLine).toHaveAttribute('href', findingLink('dast', finding.id))
    await findingLine.click()
    await expect(page.getByRole('main').locator('article h1')).toHaveText(finding.title, { timeout: 20_000 })

    await openHome(shell, since)
    const fixedLine = dashboard.change(/findings? fixed in Network Opens the Network findings: fixed/)
    await fixedLine.click()
    await expect(page).toHaveURL(/\/reports\/network\?status=fixed$/)
    const findings = new FindingsTable(page)
    await findings.section.scrollIntoViewIfNeeded()
    await expect(findings.chip('Status', 'Fixed')).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 })
  })

  test('a notification opens the scan or finding it names, and is read once opened', async ({ shell, page }) => {
    const [, olderDast] = await publishedScans('dast')
    const finding = await someFinding()
    const notify = (key: string, title: string, link: string) =>
      db().collection(NOTIFICATIONS_COLLECTION).doc(`${run}-${key}`).set({
        uid: viewer.uid,
        type: 'scan_published',
        company: COMPANY,
        service: 'dast',
        title,
        body: '',
        link,
        read: false,
        createdAt: Timestamp.now(),
      })
    const readOf = async (key: string) => (await db().doc(`${NOTIFICATIONS_COLLECTION}/${run}-${key}`).get()).get('read') as boolean
    // As publishScan and a mention write them.
    await notify('scan', `DAST: ${olderDast!.title} published ${run}`, reportLink('dast', { scan: olderDast!.id }))
    await notify('finding', `Mentioned on ${finding.title} ${run}`, findingLink('dast', finding.id))

    const dashboard = new DashboardPage(page)
    await shell.open('/')
    await dashboard.openNotifications()
    await dashboard.notifications.getByRole('link', { name: new RegExp(`published ${run} \\(unread\\)`) }).click()
    await expectReportAt(page, 'dast', olderDast!)
    await expect.poll(() => readOf('scan')).toBe(true)
    expect(await readOf('finding')).toBe(false)

    await dashboard.openNotifications()
    await expect(dashboard.notifications.getByRole('link', { name: new RegExp(`published ${run}`) })).not.toContainText('(unread)')
    await dashboard.notifications.getByRole('link', { name: new RegExp(`Mentioned on .* ${run} \\(unread\\)`) }).click()
    await expect(page.getByRole('main').locator('article h1')).toHaveText(finding.title, { timeout: 20_000 })
    await expect.poll(() => readOf('finding')).toBe(true)
  })
})
