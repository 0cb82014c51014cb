import { services } from '#domain/services.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { expect, test } from './fixtures'
import { AnalystDeskPage } from './pages/analyst-desk'
import { preferencesOf, setPreferences } from './support/admin'

const senior = demoAccount('senior@sectest.example')

test.describe('the analyst desk, as a senior analyst', () => {
  test.use({ signedInAs: senior.email })

  // The analyst's company is left as found.
  let before: unknown
  test.beforeEach(async () => {
    before = (await preferencesOf(senior.uid)).defaultCompany
  })
  test.afterEach(async () => {
    await setPreferences(senior.uid, { defaultCompany: before })
  })

  test('shows Acme’s seeded drafts and requested retests, each linking to its service page', async ({ page, shell }, testInfo) => {
    await setPreferences(senior.uid, { defaultCompany: 'acme' })
    await shell.open('/analyst')
    const desk = new AnalystDeskPage(page)
    for (const s of services) {
      await expect(desk.tile(s.id)).toContainText('Drafts to publish')
      // Other tests add drafts of their own (an agent's scan, say): the seeded one is listed among them.
      const seeded = desk.drafts
        .getByRole('row')
        .filter({ hasText: s.label })
        .locator(`a[href="/analyst/services/${s.analystSlug}?scan=${s.id}-draft-2026-11"]`)
      await expect(seeded).toHaveCount(1)
    }
    const retests = desk.retests.getByRole('row').filter({ has: page.getByRole('link', { name: /retest queue/ }) })
    await expect(retests.first()).toBeVisible()
    expect(await retests.count()).toBeGreaterThan(0)
    for (const link of await desk.retests.getByRole('link').all())
      await expect(link).toHaveAttribute('href', /^\/analyst\/services\/(projectmariana|password-cracking|dast|network|cloud)$/)
    await expect(desk.retests.getByRole('row').nth(1)).toContainText(/\d+ days? (left|overdue)|Overdue by \d+ days?/)
    await expect(desk.imports.getByRole('link').first()).toHaveAttribute('href', /\?scan=/)

    // The draft link opens the service's page with the scan named.
    await desk.drafts.getByRole('link').first().focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/analyst\/services\/[a-z-]+\?scan=[a-z_]+-draft-2026-11$/)

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await shell.open('/analyst')
      await expect(desk.drafts.getByRole('link').first()).toBeVisible()
      await testInfo.attach(`analyst-desk-${scheme}`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' })
    }
  })
})
