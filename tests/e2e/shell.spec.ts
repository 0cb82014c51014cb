import { supportMessages } from '#domain/support.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { nextMail } from './support/inbox'

const scheme = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.dataset.colorScheme ?? 'auto')

test.describe('workspace shortcuts', () => {
  test('mod+J switches light and dark, and the choice is in the next server HTML', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Login with Link' })).toBeEnabled()
    await page.keyboard.press('Control+J')
    await expect.poll(() => scheme(page)).toBe('dark')
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(14, 17, 22)')

    const html = await (await page.request.get('/reports')).text()
    expect(html).toMatch(/<html[^>]*data-color-scheme="dark"/)
    await page.reload()
    expect(await scheme(page)).toBe('dark')
    await expect(page.getByRole('button', { name: 'Login with Link' })).toBeEnabled()

    await page.keyboard.press('Control+J')
    await expect.poll(() => scheme(page)).toBe('light')
  })

  test('shortcuts do nothing while typing in a field', async ({ page }) => {
    await page.goto('/')
    const before = await scheme(page)
    await page.getByRole('textbox', { name: 'Email' }).click()
    await page.keyboard.press('Control+J')
    await page.keyboard.press('Control+M')
    expect(await scheme(page)).toBe(before)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  })

  test('mod+M hides and shows the menu; mod+H opens the shortcut help', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Login with Link' })).toBeEnabled()
    const nav = page.getByRole('navigation', { name: 'Main' })
    await page.keyboard.press('Control+M')
    await expect(nav).toBeHidden()
    await page.keyboard.press('Control+M')
    await expect(nav).toBeVisible()

    await page.keyboard.press('Control+H')
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expect(help).toBeVisible()
    await expect(help.getByText('Switch between light and dark')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()
    await expect(page.getByRole('contentinfo')).toContainText('Shortcuts: Ctrl+H')
  })
})

test.describe('layout', () => {
  test.describe(() => {
    test.use({ signedInAs: 'viewer@acme.example' })

    test('on a 375 px wide phone the navbar is collapsed, opens from the menu button or mod+M, and closes on navigation', async ({
      page,
      shell,
    }) => {
      await page.setViewportSize({ width: 375, height: 812 })
      await shell.open('/')
      const nav = shell.nav
      const toggle = shell.menuToggle
      await expect(nav).toBeHidden()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')

      await toggle.click()
      await expect(nav).toBeVisible()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      // The open menu covers the page below the header, full width.
      const box = await nav.boundingBox()
      expect(box?.width).toBeGreaterThan(360)
      await shell.navLink(/^Reports\b/).click()
      await expect(page).toHaveURL('/reports')
      await expect(nav).toBeHidden()

      await page.keyboard.press('Control+M')
      await expect(nav).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(nav).toBeHidden()
    })

    test('a page that takes long to load shows the loading fallback with the logo variant of the scheme', async ({ page, shell }) => {
      await shell.open('/')
      // Hold back the code of the next page, as a slow network would, until the fallback was seen.
      const arrived = Promise.withResolvers<void>()
      await page.route('**/assets/*.js', async (route) => {
        await arrived.promise
        await route.continue()
      })
      await shell.navLink(/^Reports\b/).click()
      const fallback = page.getByRole('status').filter({ hasText: 'Loading Bulwark' })
      await expect(fallback).toBeVisible()
      await expect(page.getByTestId('logo-light')).toBeVisible()
      await expect(page.getByTestId('logo-dark')).toBeHidden()
      arrived.resolve()
      await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible({ timeout: 15_000 })
      await expect(fallback).toBeHidden()
    })
  })

  test('on a wide screen the navbar is 300 px wide, open by default, and the menu button hides it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav).toBeVisible()
    expect((await page.locator('#navbar').boundingBox())?.width).toBe(300)
    expect((await page.getByRole('banner').boundingBox())?.height).toBe(80)
    expect((await page.getByRole('contentinfo').boundingBox())?.height).toBe(60)
    await page.getByRole('button', { name: 'Hide menu' }).click()
    await expect(nav).toBeHidden()
    await page.getByRole('button', { name: 'Show menu' }).click()
    await expect(nav).toBeVisible()
  })

  test('the version popover shows the version and when it was last updated, and gives focus back', async ({ page }) => {
    await page.goto('/')
    const trigger = page.getByRole('contentinfo').getByRole('button', { name: 'Version 2025.10.01.1420' })
    await trigger.click()
    const popover = page.getByRole('dialog', { name: 'About this version' })
    await expect(popover).toBeVisible()
    await expect(popover.getByTestId('release-version')).toHaveText('2025.10.01.1420')
    // The build stamps the time; it is shown in the reader's zone.
    await expect(popover.getByTestId('release-updated').locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/)
    const popoverBox = await popover.boundingBox()
    const triggerBox = await trigger.boundingBox()
    // Opens below its trigger when there is room, else flips above it (the footer is at the bottom).
    expect(
      popoverBox && triggerBox && (popoverBox.y >= triggerBox.y + triggerBox.height || popoverBox.y + popoverBox.height <= triggerBox.y),
    ).toBe(true)
    await page.keyboard.press('Escape')
    await expect(popover).toBeHidden()
    await expect(trigger).toBeFocused()
  })
})

test.describe('support', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('the contact button sends a support message that reaches the support inbox', async ({ page, shell }) => {
    const email = demoAccount('viewer@acme.example').email
    await shell.open('/')
    const before = Date.now()
    await shell.footer.getByRole('button', { name: 'Contact' }).click()
    const dialog = page.getByRole('dialog', { name: 'Contact support' })
    await dialog.getByRole('radio', { name: 'Bug report' }).check()
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(dialog.getByRole('alert')).toBeVisible()
    await dialog.getByRole('textbox', { name: 'Message' }).fill('The DAST report does not load for Acme.')
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByText(supportMessages.sent, { exact: true })).toBeVisible()
    await expect(dialog).toBeHidden()

    const mail = await nextMail('support@bulwark.example', before)
    expect(mail.text).toContain('The DAST report does not load for Acme.')
    expect(mail.text).toContain(email)
  })
})
