import { readFile } from 'node:fs/promises'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { documentOf } from './support/admin'
import { createFinding, deleteFindings } from './support/findings'
import { isIndexed } from './support/search'

const senior = demoAccount('senior@sectest.example')

test.describe('finding templates', () => {
  test.use({ signedInAs: senior.email })

  test('search as you type with highlights, facets and orders', async ({ page, templates }) => {
    const { searchBox, results } = templates
    await templates.open()
    await searchBox.fill('smb signing')
    const hit = results.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'SMB signing not required' }) })
    await expect(hit).toBeVisible()
    await expect(hit.locator('mark').first()).toHaveText(/smb/i)

    const severity = page.getByRole('group', { name: 'Severity' })
    await searchBox.fill('')
    // The whole library: hundreds of templates.
    await expect(results.getByRole('status')).toHaveText(/^\d{3,}[\d,]* templates$/)
    const total = Number((await results.getByRole('status').textContent())?.replace(/\D/g, ''))
    const high = severity.getByRole('checkbox', { name: /^High/ })
    const highCount = Number(await high.locator('xpath=..').locator('.count').textContent())
    await high.check()
    await expect(results.getByRole('status')).toHaveText(`${highCount} templates`)
    expect(highCount).toBeLessThan(total)
    await expect(page).toHaveURL(/severity=/)
    // Every hit now is high.
    await expect(results.getByRole('listitem').first()).toContainText('High')

    await page.getByRole('combobox', { name: 'Order' }).selectOption('title')
    // The list is re-ordered once the new search answers: read it until it is.
    const byTitle = (titles: string[]) => [...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
    await expect
      .poll(async () => {
        const titles = await results.getByRole('listitem').getByRole('link').allTextContents()
        return titles.length > 1 && byTitle(titles).every((title, index) => title === titles[index])
      })
      .toBe(true)
  })

  test('create, edit with autosave, tag, find by search, and delete a template', async ({ page, templates }) => {
    const { searchBox, results } = templates
    await templates.open()
    const title = `Verbose error pages ${Date.now()}`
    await templates.create(title, 'low')
    const slug = templates.openSlug()
    expect(slug).toMatch(/^verbose-error-pages-\d+$/)

    // A Markdown field saves itself, stamped with the editor.
    const description = page.getByRole('textbox', { name: 'Description' })
    await description.fill('Stack traces show **framework versions** and file paths.')
    await expect(templates.status('Description')).toHaveAttribute('data-autosave-status', 'synced')
    await expect
      .poll(async () => (await documentOf(`finding_templates/${slug}`))?.description)
      .toBe('Stack traces show **framework versions** and file paths.')
    expect((await documentOf(`finding_templates/${slug}`))?.updatedBy).toBe(senior.email)
    await page.getByRole('tab', { name: 'Preview' }).first().click()
    await expect(page.locator('strong', { hasText: 'framework versions' })).toBeVisible()

    // A pasted CVSS vector fills the builder and gives the score; an invalid one is refused.
    const vector = page.getByRole('textbox', { name: 'CVSS vector' })
    await vector.fill('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N')
    await vector.press('Enter')
    await expect(page.getByText('5.3', { exact: true })).toBeVisible()
    await expect.poll(async () => (await documentOf(`finding_templates/${slug}`))?.cvss).toMatchObject({ version: '3.1', score: 5.3 })
    await vector.fill('CVSS:3.1/AV:N/AC:Q')
    await vector.press('Enter')
    await expect(page.getByRole('alert').filter({ hasText: /AC/ })).toBeVisible()
    await vector.fill('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N')
    await vector.press('Enter')

    // Tags: one batched write each, the counter follows.
    const tags = page.getByRole('combobox', { name: 'Tags' })
    await tags.fill('information-disc')
    await page.getByRole('option', { name: /information-disclosure/ }).click()
    await tags.fill('e2e-verbose')
    await tags.press('Enter')
    await expect.poll(async () => (await documentOf(`finding_templates/${slug}`))?.tags).toEqual(['information-disclosure', 'e2e-verbose'])
    await expect.poll(async () => (await documentOf('finding_tags/e2e-verbose'))?.tagCount).toBe(1)
    expect(await documentOf(`finding_tags/e2e-verbose/tags/${slug}`)).toEqual({ slug })

    // The index trigger makes it findable.
    await expect.poll(() => isIndexed(slug), { timeout: 20_000 }).toBe(true)
    await page.getByRole('link', { name: 'All templates' }).click()
    await searchBox.fill(title)
    await expect(templates.resultLink(title)).toBeVisible({ timeout: 20_000 })

    // Delete, after a confirmation; its tags are released and search forgets it.
    await templates.searchBox.fill(title)
    await templates.resultLink(title).click()
    await templates.deleteOpen()
    await expect(page.getByText('Template deleted').first()).toBeVisible()
    await expect.poll(async () => documentOf(`finding_templates/${slug}`)).toBeNull()
    expect((await documentOf('finding_tags/e2e-verbose'))?.tagCount ?? 0).toBe(0)
    await expect.poll(() => isIndexed(slug), { timeout: 20_000 }).toBe(false)
    await searchBox.fill(title)
    await expect(results.getByRole('status')).toHaveText('0 templates', { timeout: 20_000 })
  })

  test('a template that findings use cannot be deleted', async ({ templates }) => {
    // A finding of its own that uses the template, whatever share of the demo year was seeded.
    const finding = await createFinding('acme', 'dast', { templateSlug: 'exposed-git-directory' })
    try {
      await templates.goto('?template=exposed-git-directory')
      const dialog = await templates.openDelete()
      await expect(dialog.getByRole('alert')).toContainText(/finding/i)
      await expect(dialog.getByRole('button', { name: 'Delete template' })).toBeDisabled()
      expect(await documentOf('finding_templates/exposed-git-directory')).not.toBeNull()
    } finally {
      await deleteFindings('acme', [finding])
    }
  })

  test('the library exports to JSON and CSV and each file re-imports unchanged', async ({ page, templates }) => {
    test.setTimeout(120_000)
    await templates.open()
    for (const format of ['JSON', 'CSV'] as const) {
      const downloading = page.waitForEvent('download')
      await page.getByRole('button', { name: `Export all (${format})` }).click()
      const file = await downloading
      const path = await file.path()
      const text = await readFile(path, 'utf8')
      expect(text.length).toBeGreaterThan(10_000)

      await page.getByLabel('Template file to import').setInputFiles({
        name: file.suggestedFilename(),
        mimeType: format === 'JSON' ? 'application/json' : 'text/csv',
        buffer: Buffer.from(text),
      })
      const report = page.getByRole('dialog', { name: 'Import report' })
      await expect(report).toBeVisible({ timeout: 60_000 })
      await expect(report).toContainText(/0 created, 0 updated, \d+ unchanged, 0 refused/)
      await page.keyboard.press('Escape')
    }
  })

  test('an export made offline says it failed and downloads nothing, and goes once back online', async ({
    page,
    templates,
    browserConsole,
  }) => {
    test.setTimeout(120_000)
    // The SDK says in the console that it cannot reach the backend, and the failed requests are logged.
    browserConsole.allow(/Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR/)
    await templates.open()
    const exportJson = page.getByRole('button', { name: 'Export all (JSON)' })
    const exported = async () => {
      const downloading = page.waitForEvent('download', { timeout: 60_000 })
      await exportJson.click()
      return (await readFile(await (await downloading).path(), 'utf8')).length
    }
    // Once online: the export's code is in the page, so what follows is the database read alone.
    const whole = await exported()
    expect(whole).toBeGreaterThan(10_000)

    const downloads: string[] = []
    page.on('download', (download) => downloads.push(download.suggestedFilename()))
    await page.context().setOffline(true)
    await exportJson.click()
    // Not the part of the library a cache holds: nothing, and a message.
    await expect(page.getByRole('status').filter({ hasText: 'Export failed' })).toBeVisible({ timeout: 30_000 })
    await expect(exportJson).toBeEnabled()
    expect(downloads).toEqual([])

    // Once the page says it is online again (the database answers): a click before that may fail too.
    await page.context().setOffline(false)
    await expect(page.getByTestId('connection-notice')).toHaveCount(0, { timeout: 60_000 })
    expect(await exported()).toBe(whole)
  })

  test('a filtered export holds what the list shows, and an imported template shows in the list at once', async ({
    page,
    shell,
    templates,
  }) => {
    test.setTimeout(120_000)
    await shell.open('/templates/finding?severity=critical')
    await expect(templates.count).toHaveText(/^\d[\d,]* templates$/)
    const shown = Number((await templates.count.textContent())?.replace(/\D/g, ''))
    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export filtered (JSON)' }).click()
    const exported = JSON.parse(await readFile(await (await downloading).path(), 'utf8')) as {
      templates: { slug: string; title: string; severity: string }[]
    }
    expect(exported.templates).toHaveLength(shown)
    expect(exported.templates.every((t) => t.severity === 'critical')).toBe(true)

    // One of them under a new name comes back as a new template, and the list shows it unasked.
    const title = `E2E imported ${Date.now()}`
    const copy = { ...exported, templates: [{ ...exported.templates[0]!, slug: undefined, title }] }
    await page.getByLabel('Template file to import').setInputFiles({
      name: 'one.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(copy)),
    })
    const report = page.getByRole('dialog', { name: 'Import report' })
    await expect(report).toContainText(/1 created, 0 updated, 0 unchanged, 0 refused/, { timeout: 60_000 })
    await report.getByRole('button', { name: 'Close' }).click()
    await expect(templates.count).toHaveText(`${shown + 1} templates`, { timeout: 20_000 })
    await templates.searchBox.fill(title)
    await templates.resultLink(title).click()
    await templates.deleteOpen()
    await expect(templates.count).toHaveText(/^\d[\d,]* templates$/)
  })

  test('when search is unreachable the list says so, lists the library from the database and retries', async ({
    page,
    browserConsole,
    shell,
    templates,
  }) => {
    const { results } = templates
    browserConsole.allow(/Template search failed|Failed to load resource|ERR_FAILED/)
    // The first page comes with the server's HTML; the browser's next search is the one that fails.
    await shell.open('/templates/finding')
    await page.route('http://127.0.0.1:7700/**', (route) => route.abort())
    await page.getByRole('combobox', { name: 'Order' }).selectOption('title')
    await expect(page.getByRole('alert')).toContainText('Search is unreachable')
    await expect(results.getByRole('listitem').first()).toBeVisible()
    await page.unroute('http://127.0.0.1:7700/**')
    await page.getByRole('button', { name: 'Retry search' }).click()
    await expect(results.getByRole('status')).toHaveText(/^\d[\d,]* templates$/, { timeout: 15_000 })
  })
})

for (const email of ['analyst@sectest.example', 'admin@acme.example']) {
  test.describe(() => {
    test.use({ signedInAs: email })

    test(`${email} cannot open the templates, and the browser is told 403`, async ({ page, shell, templates, browserConsole }) => {
      browserConsole.allow(/status of 403/)
      const response = await page.goto('/templates/finding')
      expect(response?.status()).toBe(403)
      await expect(shell.accessDenied).toBeVisible()
      await expect(templates.searchBox).toHaveCount(0)
    })
  })
}
