// Screenshots of the pages a newcomer meets, to look at (light, dark, phone): each page is waited
// for before its shots, and each shot must be written.
import { statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from './fixtures'

const OUT = path.resolve('.local/screenshots/newcomer')
const shots = async (page: import('@playwright/test').Page, name: string) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const [size, viewport] of Object.entries({ desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 812 } })) {
      await page.setViewportSize(viewport)
      const file = path.join(OUT, `${name}-${scheme}-${size}.png`)
      await page.screenshot({ path: file, fullPage: true })
      expect(statSync(file).size, file).toBeGreaterThan(5_000)
    }
  }
}

test('visitor pages', async ({ page, browserConsole }) => {
  browserConsole.allow(/status of 404/)
  await page.goto('/')
  await page.getByRole('textbox', { name: 'Email' }).fill('not-an-address')
  await page.getByRole('button', { name: 'Login with Link' }).click()
  await expect(page.getByRole('alert')).toBeVisible()
  await shots(page, 'home-refused')
  await page.goto('/?next=%2Freports%2Fdast')
  await expect(page.getByRole('button', { name: 'Login with Link' })).toBeEnabled()
  await page.getByRole('contentinfo').getByRole('button', { name: 'Contact' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await shots(page, 'contact-signed-out')
  await page.keyboard.press('Escape')
  await page.goto('/reports/dast')
  await expect(page.getByRole('heading', { name: 'You must be signed in' })).toBeVisible()
  await shots(page, 'sign-in-required')
  await page.goto('/auth/redirect')
  await expect(page.getByRole('heading', { name: 'This is not a sign-in link' })).toBeVisible()
  await shots(page, 'not-a-sign-in-link')
  await page.goto('/no-such-page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await shots(page, 'not-found')
})

test.describe(() => {
  test.use({ signedInAs: 'manager@acme.example' })
  test('manager', async ({ page, shell }) => {
    await shell.open('/')
    // The home as it is once its live parts have loaded.
    // The dashboard loads after first paint; its heading depends on whether the manager was here before.
    await expect(page.getByRole('heading', { name: /^(Latest in|Since your last visit)/ })).toBeVisible({ timeout: 15_000 })
    await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 15_000 })
    await shots(page, 'manager-home')
    await shell.banner.getByRole('button', { name: /^Company: / }).click()
    await shots(page, 'manager-switcher')
  })
})

test.describe(() => {
  test.use({ signedInAs: 'senior@sectest.example' })
  test('senior', async ({ page, shell }) => {
    await shell.open('/analyst')
    await expect(page.getByRole('navigation', { name: 'Analyst pages' })).toBeVisible()
    await expect(page.getByText('Loading the desk…')).toHaveCount(0, { timeout: 15_000 })
    await shots(page, 'senior-analyst-hub')
    await shell.open('/templates')
    await expect(page.getByTestId('template-count')).toBeVisible()
    await shots(page, 'senior-templates-hub')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page
      .getByRole('contentinfo')
      .getByRole('button', { name: /^Version/ })
      .click()
    // The popover itself: a full-page shot of a page scrolled to its footer draws the sticky header
    // where the page was scrolled to.
    const popover = page.getByRole('dialog', { name: 'About this version' })
    // Its facts load with the popover.
    await expect(popover.getByText('Last updated').first()).toBeVisible({ timeout: 15_000 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const file = path.join(OUT, `version-popover-${scheme}.png`)
      await popover.screenshot({ path: file })
      expect(statSync(file).size, file).toBeGreaterThan(2_000)
    }
  })
})
