import { supportMessages } from '../../app/domain/support'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { nextMail } from './support/inbox'
import { signIn } from './support/sign-in'

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

test('the contact button sends a support message that reaches the support inbox', async ({ page }) => {
  const email = demoAccount('viewer@acme.example').email
  await signIn(page, email)
  const before = Date.now()
  await page.getByRole('contentinfo').getByRole('button', { name: 'Contact' }).click()
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
