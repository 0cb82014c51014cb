// The analyst's side of a service, end to end: real scanner files imported in the browser for
// Acme, reviewed (a finding mapped to a template, another opened with its request and response and
// retitled), published, and seen live by the client in
// another browser; a retest the client asked for completed from the queue; and a password audit
// whose clear-text passwords never leave the analyst's browser.
import { createHash, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { AnalystServicePage } from './pages/analyst'
import { FindingPage } from './pages/findings'
import { setPreferences, preferencesOf } from './support/admin'
import { callAs, createFinding, deleteFindings } from './support/findings'

const SENIOR = demoAccount('senior@sectest.example')
const MANAGER = demoAccount('manager@acme.example')
const fixture = (path: string) => `tests/fixtures/scans/${path}`
const created: string[] = []

// Both people work in Acme here; their own choices are put back after.
let before: Record<string, unknown> = {}
test.beforeAll(async () => {
  before = {
    [SENIOR.uid]: (await preferencesOf(SENIOR.uid)).defaultCompany,
    [MANAGER.uid]: (await preferencesOf(MANAGER.uid)).defaultCompany,
  }
  await setPreferences(SENIOR.uid, { defaultCompany: 'acme' })
  await setPreferences(MANAGER.uid, { defaultCompany: 'acme' })
})
test.afterAll(async () => {
  for (const [uid, company] of Object.entries(before)) await setPreferences(uid, { defaultCompany: company ?? null })
  await deleteFindings('acme', created.splice(0))
})

test.describe('as a senior analyst', () => {
  test.use({ signedInAs: SENIOR.email })

  test('imports an Nmap file and ZAP files, maps a finding to a template, retitles another, publishes, and the client sees it live', async ({
    page,
    browser,
    demoSessions,
    browserConsole,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    const client = await browser.newContext({ baseURL, storageState: await demoSessions.stateOf(MANAGER.email) })
    browserConsole.watch(client)
    try {
      const clientPage = await client.newPage()
      await clientPage.goto('/reports/dast')
      const picker = clientPage.getByRole('main').getByLabel('Scan', { exact: true })
      await expect(picker).toBeVisible()

      const analyst = new AnalystServicePage(page)
      const network = `Network import ${randomUUID().slice(0, 8)}`
      await analyst.open('network')
      await analyst.importFiles([fixture('nmap_xml/issue4406.xml')], network)
      await expect(analyst.row('CVE-2019-6111 in OpenSSH 7.4')).toHaveCount(1)
      // The raw file is kept with the scan and comes back byte for byte.
      const raw = analyst.review.getByRole('list', { name: 'Imported files' }).getByRole('link', { name: 'issue4406.xml' })
      const download = page.waitForEvent('download')
      await raw.click()
      const kept = await readFile((await (await download).path())!)
      expect(createHash('sha256').update(kept).digest('hex')).toBe(
        createHash('sha256')
          .update(readFileSync(fixture('nmap_xml/issue4406.xml')))
          .digest('hex'),
      )
      await expect(analyst.review).toContainText('8 findings')
      await analyst.publish()
      await expect(analyst.scans.getByRole('row').filter({ hasText: network })).toContainText('Published')
      // "All companies" lists every company's scans, this one under Acme.
      await analyst.shell.main.getByLabel('Company', { exact: true }).selectOption({ label: 'All companies' })
      await expect(analyst.scans.getByRole('row').filter({ hasText: network })).toContainText('Acme')

      const dast = `DAST import ${randomUUID().slice(0, 8)}`
      await analyst.open('dast')
      // ZAP's XML report, and its JSON "plus" report, which keeps each request and response.
      await analyst.importFiles([fixture('zap_xml/5_zap_sample_one.xml'), fixture('zap_json/basic-traditional-json-plus.json')], dast)
      await analyst.select('Cookie Without Secure Flag')
      const template = analyst.review.getByRole('combobox', { name: 'Template' })
      await template.click()
      // Suggested first: a template of the service sharing the finding's CWE or words.
      const suggestion = analyst.review.getByRole('group', { name: 'Suggested for this finding' }).getByRole('option').first()
      const suggested = (await suggestion.locator('small').textContent())!
      await suggestion.click()
      await expect(analyst.row('Cookie Without Secure Flag').first()).toContainText(suggested)

      // Triage: the XSS finding's detail shows ZAP's request and response as text; the analyst retitles it.
      const open = analyst.draftFindings.getByRole('button', { name: 'Open XSS on http://example.com/example_3' }).first()
      await open.focus()
      await page.keyboard.press('Enter')
      const detail = page.getByRole('dialog')
      await expect(detail.getByRole('region', { name: 'Request' }).locator('pre')).toContainText(
        'GET http://example.com/example_3 HTTP/1.1',
      )
      await expect(detail.getByRole('region', { name: 'Response' }).locator('pre')).toContainText('Test Response Body')
      const fingerprint = (await detail.locator('dt', { hasText: 'Fingerprint' }).locator('+ dd').textContent())!
      const retitled = `Reflected XSS in example_3 ${randomUUID().slice(0, 8)}`
      await detail.getByLabel('Title').fill(retitled)
      await detail.getByRole('button', { name: 'Save text' }).click()
      await expect(detail.getByText('Saved', { exact: true })).toBeVisible({ timeout: 20_000 })
      await expect(detail.getByRole('heading', { name: retitled })).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(detail).toHaveCount(0)
      await expect(analyst.draftFindings.getByRole('button', { name: `Open ${retitled} on http://example.com/example_3` })).toBeFocused()
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await page.screenshot({ path: `.local/screenshots/analyst-review-${scheme}.png`, fullPage: true })
      }
      await analyst.publish()

      // The choice is remembered for the rule: listed among the mappings by the rule's name and the
      // template's title (each with its id), and removable.
      const mappings = analyst.shell.main.getByRole('table', { name: 'Rule mappings' })
      const mapped = mappings.getByRole('row').filter({ hasText: suggested })
      await expect(mapped).toHaveCount(1)
      await expect(mapped.getByRole('cell').first()).toContainText('Cookie Without Secure Flag')
      await expect(mapped.getByRole('link')).not.toHaveText(suggested)
      await expect(mapped.getByRole('button', { name: 'Remove the mapping of Cookie Without Secure Flag' })).toBeVisible()

      // The client's report, open all along, lists the new scan without a reload.
      await expect(picker.locator('option').filter({ hasText: dast })).toHaveCount(1, { timeout: 30_000 })
      // And the finding the analyst retitled reads as they wrote it.
      const finding = new FindingPage(clientPage)
      await finding.open('dast', fingerprint)
      await expect(finding.main.locator('article h1')).toHaveText(retitled)
    } finally {
      await client.close()
    }
  })

  test('imports a Nessus file and a Burp Suite file, each recognised by its content, and publishes both', async ({ page }) => {
    test.setTimeout(180_000)
    const analyst = new AnalystServicePage(page)

    const network = `Nessus import ${randomUUID().slice(0, 8)}`
    await analyst.open('network')
    await analyst.importFiles([fixture('nessus_xml/nessus_with_cvssv3.nessus')], network)
    // The critical finding heads the draft's list.
    await expect(analyst.row('PHP Unsupported Version Detection')).toHaveCount(1)
    await expect(analyst.review).toContainText('46 findings')
    await analyst.publish()
    await expect(analyst.scans.getByRole('row').filter({ hasText: network })).toContainText('Published')

    const dast = `Burp import ${randomUUID().slice(0, 8)}`
    await analyst.open('dast')
    await analyst.importFiles([fixture('burp_xml/one_finding.xml')], dast)
    await expect(analyst.row('SQL injection')).toHaveCount(3)
    await expect(analyst.review).toContainText('3 findings')
    await analyst.publish()
    await expect(analyst.scans.getByRole('row').filter({ hasText: dast })).toContainText('Published')
  })

  test('completes from the queue a retest the client asked for, live on the client screen', async ({
    page,
    browser,
    demoSessions,
    browserConsole,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const title = `Queued retest ${randomUUID().slice(0, 8)}`
    const id = await createFinding('acme', 'dast', { title })
    created.push(id)
    expect(
      (
        await callAs(MANAGER.uid, 'requestRetest', {
          requestId: randomUUID(),
          company: 'acme',
          findingIds: [id],
          note: `Patched: ${title}`,
        })
      ).status,
    ).toBe(200)

    const client = await browser.newContext({ baseURL, storageState: await demoSessions.stateOf(MANAGER.email) })
    browserConsole.watch(client)
    try {
      const manager = new FindingPage(await client.newPage())
      await manager.open('dast', id)
      await expect(manager.status()).toHaveText('Retest requested')

      const analyst = new AnalystServicePage(page)
      await analyst.open('dast')
      const request = analyst.retests
        .getByRole('listitem')
        .filter({ hasText: `Patched: ${title}` })
        .first()
      await request
        .getByRole('group', { name: `Outcome of ${title}` })
        .getByRole('button', { name: 'Fixed', exact: true })
        .click()
      // The outcome goes through a callable and comes back through both pages' listeners.
      await expect(request.getByRole('group', { name: `Outcome of ${title}` })).toHaveCount(0, { timeout: 20_000 })
      await expect(manager.status()).toHaveText('Fixed', { timeout: 20_000 })
    } finally {
      await client.close()
    }
  })

  test('a password audit is derived in the browser: no request carries a clear-text password', async ({ page }) => {
    test.setTimeout(120_000)
    const passwords = readFileSync(fixture('ntds_potfile/hashcat.potfile'), 'utf8')
      .split('\n')
      .map((line) => line.slice(line.lastIndexOf(':') + 1).trim())
      .filter((p) => p.length >= 6 && !p.startsWith('$HEX'))
    expect(passwords).toContain('Winter2024!')
    const bodies: string[] = []
    page.on('request', (request) => {
      const body = request.postData()
      if (body) bodies.push(body)
    })

    const analyst = new AnalystServicePage(page)
    await analyst.open('password-cracking')
    const audit = analyst.shell.main.getByRole('region', { name: 'Import a password audit' })
    await audit
      .getByLabel('Choose files')
      .setInputFiles([fixture('ntds_potfile/acme.ntds'), fixture('ntds_potfile/hashcat.potfile'), fixture('ntds_potfile/john.pot')])
    await audit.getByRole('button', { name: 'Analyse in this browser' }).click()
    await expect(audit.getByRole('list', { name: 'Audit summary' }).or(audit.getByLabel('Audit summary'))).toBeVisible()
    await audit.getByRole('button', { name: 'Use this audit' }).click()
    await expect(audit.getByRole('status')).toHaveText(/draft is ready|imported before/, { timeout: 30_000 })
    await expect(analyst.review).toBeVisible()

    expect(bodies.some((body) => body.includes('addDraftFindings') || body.includes('"findings"'))).toBe(true)
    for (const body of bodies) for (const password of passwords) expect(body, 'a request body').not.toContain(password)
  })
})
