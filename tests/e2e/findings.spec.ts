// Findings in a client's report: the workflow across people and screens (a retest requested by a
// client manager and completed by an analyst; a risk acceptance asked and approved with its
// expiry), a viewer who may only read, and the table's filters in the address bar.
import type { Browser, BrowserContext } from '@playwright/test'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { FindingPage, FindingsTable } from './pages/findings'
import { setPreferences } from './support/admin'
import { randomUUID } from 'node:crypto'
import { callAs, createFinding, createFindings, defaultCompanyOf, deleteFindings } from './support/findings'
import { followedTargets } from './support/followed'
import { indexedFindingsTagged } from './support/search'

const MANAGER = demoAccount('manager@acme.example')
const ANALYST = demoAccount('senior@sectest.example')
const created: string[] = []

test.afterAll(async () => {
  await deleteFindings('acme', created.splice(0))
})

/** The manager starts in Globex: these tests work in Acme, and put their choice back after. */
async function inAcme<T>(run: () => Promise<T>): Promise<T> {
  const before = await defaultCompanyOf(MANAGER.uid)
  await setPreferences(MANAGER.uid, { defaultCompany: 'acme' })
  try {
    return await run()
  } finally {
    await setPreferences(MANAGER.uid, { defaultCompany: before ?? MANAGER.defaultCompany })
  }
}

async function finding(title: string, overrides: Parameters<typeof createFinding>[2] = {}) {
  const id = await createFinding('acme', 'dast', { title, ...overrides })
  created.push(id)
  return id
}

/** A second person's browser, signed in, watched for console problems like the first. */
async function secondScreen(
  browser: Browser,
  demoSessions: { stateOf(email: string): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> },
  email: string,
  watch: (context: BrowserContext) => void,
  baseURL: string | undefined,
) {
  const context = await browser.newContext({ baseURL, storageState: await demoSessions.stateOf(email) })
  watch(context)
  return context
}

test.describe('as a client manager of Acme', () => {
  test.use({ signedInAs: 'manager@acme.example' })

  test('a retest requested with a note is completed by an analyst as fixed, live on both screens', async ({
    page,
    browser,
    demoSessions,
    browserConsole,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const id = await finding('Reflected XSS in search')
    await inAcme(async () => {
      const manager = new FindingPage(page)
      await manager.open('dast', id)
      await expect(manager.status()).toHaveText('Open')

      const analystContext = await secondScreen(browser, demoSessions, 'senior@sectest.example', browserConsole.watch, baseURL)
      try {
        const analyst = new FindingPage(await analystContext.newPage())
        await analyst.open('dast', id)
        await expect(analyst.status()).toHaveText('Open')
        await expect(analyst.workflow.getByRole('button', { name: 'Retest: fixed' })).toHaveCount(0)

        await manager.move('Request retest', { note: 'Output encoding added to the search page.' })
        await expect(manager.status()).toHaveText('Retest requested')
        await expect(manager.history).toContainText('Request retest: Open → Retest requested')
        await expect(manager.history).toContainText('Output encoding added to the search page.')

        // The analyst's screen follows without a reload and offers the outcomes.
        await expect(analyst.status()).toHaveText('Retest requested')
        await expect(analyst.main.getByRole('region', { name: 'Retests' })).toContainText('Output encoding added to the search page.')
        await analyst.move('Retest: fixed')

        await expect(analyst.status()).toHaveText('Fixed')
        await expect(manager.status()).toHaveText('Fixed')
        await expect(manager.history).toContainText('Retest: fixed: Retest requested → Fixed')
        await expect(manager.workflow).toHaveCount(0)
      } finally {
        await analystContext.close()
      }
    })
  })

  test('a risk acceptance asked by the manager is approved by the company admin, with its expiry shown', async ({
    page,
    browser,
    demoSessions,
    browserConsole,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const id = await finding('Outdated TLS configuration')
    const until = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10)
    // In the reader's own format (app/ui/local-time.tsx's 'date'), as the browser writes it.
    const untilText = await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(at), Date.parse(until))
    await inAcme(async () => {
      const manager = new FindingPage(page)
      await manager.open('dast', id)
      await manager.move('Ask to accept the risk', { note: 'Legacy clients need TLS 1.0 until the migration.', until })
      await expect(manager.status()).toHaveText('Risk acceptance requested')
      // A manager cannot decide it.
      await expect(manager.workflow.getByRole('button', { name: 'Approve risk acceptance' })).toHaveCount(0)

      const adminContext = await secondScreen(browser, demoSessions, 'admin@acme.example', browserConsole.watch, baseURL)
      try {
        const admin = new FindingPage(await adminContext.newPage())
        await admin.open('dast', id)
        await expect(admin.main.getByRole('region', { name: 'Risk acceptance' })).toContainText(`Asked until${untilText}`)
        await admin.move('Approve risk acceptance')
        await expect(admin.status()).toHaveText('Risk accepted')
        const acceptance = manager.main.getByRole('region', { name: 'Risk acceptance' })
        await expect(acceptance).toContainText(`Accepted until${untilText}`)
        await expect(acceptance).toContainText('Approved byAda Admin')
        await expect(manager.status()).toHaveText('Risk accepted')
      } finally {
        await adminContext.close()
      }
    })
  })

  test('filters live in a readable address and survive a reload', async ({ page }) => {
    test.setTimeout(90_000)
    await finding('Critical e2e filter finding', { severity: 'critical' })
    await finding('Low e2e filter finding', { severity: 'low' })
    await inAcme(async () => {
      const findings = new FindingsTable(page)
      await findings.open('dast')
      // The demo data has thousands of DAST findings: the search narrows the list to this test's.
      await findings.search.fill('e2e filter finding')
      await expect(findings.row('Low e2e filter finding')).toHaveCount(1)
      await findings.chip('Severity', 'Critical').click()
      await findings.chip('Severity', 'High').click()
      await expect(page).toHaveURL(/\?q=e2e\+filter\+finding&severity=critical&severity=high$/)
      await expect(findings.row('Critical e2e filter finding')).toHaveCount(1)
      await expect(findings.row('Low e2e filter finding')).toHaveCount(0)

      await page.reload()
      await expect(findings.table).toBeVisible({ timeout: 20_000 })
      await expect(findings.chip('Severity', 'Critical')).toHaveAttribute('aria-pressed', 'true')
      await expect(findings.chip('Severity', 'High')).toHaveAttribute('aria-pressed', 'true')
      await expect(findings.chip('Severity', 'Low')).toHaveAttribute('aria-pressed', 'false')
      await expect(findings.row('Critical e2e filter finding')).toHaveCount(1)
      await expect(findings.row('Low e2e filter finding')).toHaveCount(0)
    })
  })
})

test.describe('as a client manager of Acme, over more findings than a page holds', () => {
  test.use({ signedInAs: 'manager@acme.example' })

  test("the count is exact, the rows page in to the last, and an analyst's change reaches the open table", async ({ page }) => {
    test.setTimeout(180_000)
    // A tag of this test's own, so the count is this test's findings whatever else the service holds.
    const tag = `e2e-page-${randomUUID().slice(0, 8)}`
    const ids = await createFindings('acme', 'dast', 150, (n) => ({
      title: `Paged finding ${String(n).padStart(3, '0')}`,
      severity: n === 0 ? 'critical' : 'medium',
      tags: [tag],
    }))
    created.push(...ids)
    // Written behind the product's back (no publication moves the service's figures, which would
    // have the open table ask again): the page opens once the index trigger has run for each.
    await expect.poll(() => indexedFindingsTagged(tag), { timeout: 90_000 }).toBe(150)
    await inAcme(async () => {
      const findings = new FindingsTable(page)
      await findings.open('dast', `?tag=${tag}&sort=title`)
      await expect(findings.count).toHaveText('150 findings')
      await expect(findings.row('Paged finding 000')).toHaveCount(1)
      // Past the first page (100 rows): scrolled to the end, the last rows arrive.
      await findings.scroller.evaluate((box) => box.scrollTo(0, box.scrollHeight))
      await expect(findings.row('Paged finding 149')).toHaveCount(1, { timeout: 20_000 })
      await findings.scroller.evaluate((box) => box.scrollTo(0, 0))
      await expect(findings.row('Paged finding 000')).toHaveCount(1)

      // An analyst marks the first a duplicate: the open table counts it out without a reload.
      const duplicate = await callAs(ANALYST.uid, 'changeFindingStatus', {
        company: 'acme',
        findingIds: [ids[0]],
        action: 'mark_duplicate',
        note: 'Same as another finding.',
      })
      expect(duplicate.error).toBeUndefined()
      await expect(findings.count).toHaveText('149 findings', { timeout: 60_000 })
      await expect(findings.row('Paged finding 000')).toHaveCount(0)
      // A move that keeps a finding in the list shows on its row.
      const remediation = await callAs(MANAGER.uid, 'changeFindingStatus', {
        company: 'acme',
        findingIds: [ids[1]],
        action: 'start_remediation',
        note: '',
      })
      expect(remediation.error).toBeUndefined()
      await expect(findings.row('Paged finding 001').locator('[data-status]')).toHaveText('In remediation', { timeout: 60_000 })
      await expect(findings.count).toHaveText('149 findings')
    })
  })
})

test.describe('as a senior analyst, looked at in both schemes', () => {
  test.use({ signedInAs: 'senior@sectest.example' })

  test('the findings table and a finding page, light and dark, saved to look at', async ({ page }) => {
    test.setTimeout(90_000)
    const id = await finding('Stored XSS in comments', {
      severity: 'critical',
      cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:H/I:H/A:N', score: 9.3 },
      cwe: ['CWE-79'],
      tags: ['xss', 'owasp-a03'],
      description: 'User input in **comments** is stored and rendered without encoding.',
      evidence: '```http\nPOST /comments HTTP/1.1\n\nbody=<script>alert(1)</script>\n```',
    })
    await finding('Clickjacking on login', { severity: 'medium', status: 'in_remediation' })
    const findings = new FindingsTable(page)
    const one = new FindingPage(page)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width: 1280, height: 900 })
      await findings.open('dast', '?q=Stored+XSS+in+comments&group=title')
      await expect(findings.table.getByRole('button', { name: /Stored XSS in comments/ })).toBeVisible()
      // The wide table scrolls in its own box: the page itself is no wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
      await findings.section.screenshot({ path: `.local/screenshots/findings-table-${scheme}.png` })
      await one.open('dast', id)
      await expect(one.main.getByRole('region', { name: 'Evidence' })).toContainText('POST /comments')
      await page.screenshot({ path: `.local/screenshots/finding-page-${scheme}.png`, fullPage: true })
    }
  })
})

test.describe('as a client viewer of Acme', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('sees the finding and no move, and the callables refuse their moves', async ({ page }) => {
    const id = await finding('Directory listing enabled')
    const viewer = new FindingPage(page)
    await viewer.open('dast', id)
    await expect(viewer.status()).toHaveText('Open')
    await expect(viewer.main.getByRole('region', { name: 'Description' })).toContainText('What it is.')
    await expect(viewer.workflow).toHaveCount(0)

    const uid = demoAccount('viewer@acme.example').uid
    const move = await callAs(uid, 'changeFindingStatus', { company: 'acme', findingIds: [id], action: 'start_remediation', note: '' })
    expect(move.status).toBe(403)
    expect(move.error?.status).toBe('PERMISSION_DENIED')
    const retest = await callAs(uid, 'requestRetest', {
      requestId: randomUUID(),
      company: 'acme',
      findingIds: [id],
      note: 'Fixed, we think',
    })
    expect(retest.error?.status).toBe('PERMISSION_DENIED')
    // The finding did not move.
    await expect(viewer.status()).toHaveText('Open')
  })
})

test.describe('as a client viewer on a phone', () => {
  test.use({ signedInAs: 'viewer@acme.example', viewport: { width: 412, height: 823 } })

  test('the findings load when the reader scrolls to them, not before', async ({ page }) => {
    test.setTimeout(90_000)
    const followed = followedTargets(page).collections
    const findings = new FindingsTable(page)
    await page.goto('/reports/dast')
    await expect(page.getByRole('button', { name: /^Export/ })).toBeEnabled()
    // The report's own listeners start once the page is idle; the findings' would have with them.
    await expect.poll(() => followed.includes('scans')).toBe(true)
    await expect(findings.section.getByRole('status')).toHaveText('Loading findings…')
    expect(followed).not.toContain('findings')

    await findings.section.scrollIntoViewIfNeeded()
    await expect(findings.table.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
  })
})
