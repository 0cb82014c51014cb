import type { Page } from '@playwright/test'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { preferencesOf, setPreferences } from './support/admin'
import { openUserMenu, signIn } from './support/sign-in'

const account = demoAccount('admin@acme.example')

/** The status icon beside the field labelled `label` (they share the label's row). */
const statusOf = (page: Page, label: string) =>
  page.locator('label', { hasText: label }).locator('xpath=..').locator('[data-autosave-status]')

test.describe('settings', () => {
  test.afterEach(async () => {
    await setPreferences(account.uid, { displayName: '', photoURL: '' })
  })

  test('the display name saves itself, with who and when, and follows changes made elsewhere (accept and reject)', async ({ page }) => {
    await signIn(page, account.email)
    await (await openUserMenu(page)).getByRole('menuitem', { name: 'Settings' }).click()
    const name = page.getByRole('textbox', { name: 'Display name' })
    const status = statusOf(page, 'Display name')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')

    await name.fill('Avery Admin')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')
    await expect.poll(async () => (await preferencesOf(account.uid)).displayName).toBe('Avery Admin')
    const saved = await preferencesOf(account.uid)
    expect(saved.updatedBy).toBe(account.email)
    expect(saved.updatedAt).toBeDefined()
    // The user menu shows the new name at once.
    await expect(page.getByRole('banner').getByText('Avery Admin')).toBeVisible()

    // Changed in another browser: the field asks before taking it.
    await setPreferences(account.uid, { displayName: 'Avery from the laptop' })
    await expect(status).toHaveAttribute('data-autosave-status', 'conflict')
    await expect(status.getByRole('alert')).toContainText('Avery from the laptop')
    await status.getByRole('button', { name: 'Accept' }).click()
    await expect(name).toHaveValue('Avery from the laptop')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')

    await setPreferences(account.uid, { displayName: 'Someone else' })
    await expect(status).toHaveAttribute('data-autosave-status', 'conflict')
    await status.getByRole('button', { name: 'Reject' }).click()
    await expect(status).toHaveAttribute('data-autosave-status', 'rejected')
    await expect(name).toHaveValue('Avery from the laptop')
    expect((await preferencesOf(account.uid)).displayName).toBe('Someone else')
    // Enter saves the kept value over the other one.
    await name.press('Enter')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')
    expect((await preferencesOf(account.uid)).displayName).toBe('Avery from the laptop')
  })

  test('an invalid photo address is kept in the field with the reason and not saved; a valid one is', async ({ page, browserConsole }) => {
    // The saved address points nowhere (there is no network here): the avatar falls back to initials.
    browserConsole.allow(/ERR_NAME_NOT_RESOLVED/)
    await signIn(page, account.email)
    await page.goto('/profile')
    const photo = page.getByRole('textbox', { name: 'Photo address' })
    const status = statusOf(page, 'Photo address')
    await photo.fill('http://cdn.example/me.png')
    await expect(status).toHaveAttribute('data-autosave-status', 'failed')
    await expect(page.getByRole('alert').filter({ hasText: 'The address must start with https://.' })).toBeVisible()
    await expect(photo).toHaveValue('http://cdn.example/me.png')
    await expect(photo).toHaveAttribute('aria-invalid', 'true')
    expect((await preferencesOf(account.uid)).photoURL ?? '').toBe('')

    await photo.fill('https://cdn.example/me.png')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')
    expect((await preferencesOf(account.uid)).photoURL).toBe('https://cdn.example/me.png')
    await expect(page.getByRole('banner').getByRole('button', { name: 'User menu' })).toContainText('A')
  })

  test('the colour scheme applies at once and is kept in the browser', async ({ page }) => {
    await signIn(page, account.email)
    await page.goto('/profile')
    await page.getByRole('radio', { name: 'Dark' }).check()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorScheme)).toBe('dark')
    await page.reload()
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked()
    await page.getByRole('radio', { name: 'Auto' }).check()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorScheme ?? 'auto')).toBe('auto')
  })

  test('the default company saves after the longer pause of the callback variant and switches the workspace', async ({ page }) => {
    const manager = demoAccount('manager@acme.example')
    await signIn(page, manager.email)
    await page.goto('/profile')
    const select = page.getByRole('combobox', { name: 'Default company' })
    const status = statusOf(page, 'Default company')
    const before = await select.inputValue()
    const other = before === 'initech' ? 'globex' : 'initech'
    const otherName = other === 'initech' ? 'Initech' : 'Globex'
    await select.selectOption(other)
    await expect(status).toHaveAttribute('data-autosave-status', 'pending')
    await page.waitForTimeout(1500)
    expect((await preferencesOf(manager.uid)).defaultCompany).toBe(before)
    await expect(status).toHaveAttribute('data-autosave-status', 'synced', { timeout: 5_000 })
    expect((await preferencesOf(manager.uid)).defaultCompany).toBe(other)
    await expect((await openUserMenu(page)).getByRole('menuitemradio', { name: otherName })).toHaveAttribute('aria-checked', 'true')
    await page.keyboard.press('Escape')
    await select.selectOption(before)
    await expect(status).toHaveAttribute('data-autosave-status', 'synced', { timeout: 5_000 })
  })
})
