import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { preferencesOf, setPreferences } from './support/admin'

const account = demoAccount('admin@acme.example')

test.describe('settings', () => {
  test.use({ signedInAs: account.email })

  test.afterEach(async () => {
    await setPreferences(account.uid, { displayName: '', photoURL: '' })
  })

  test('the display name saves itself, with who and when, and follows changes made elsewhere (accept and reject)', async ({
    shell,
    settings,
  }) => {
    await shell.open('/')
    await shell.openSettings()
    const name = settings.displayName
    const status = settings.status('Display name')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')

    await name.fill('Avery Admin')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')
    await expect.poll(async () => (await preferencesOf(account.uid)).displayName).toBe('Avery Admin')
    const saved = await preferencesOf(account.uid)
    expect(saved.updatedBy).toBe(account.email)
    expect(saved.updatedAt).toBeDefined()
    // The user menu shows the new name at once.
    await expect(shell.banner.getByText('Avery Admin')).toBeVisible()

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
    // The red cross comes with its reason in words, not only in the accessible label.
    await expect(status.getByText('Your value is kept here but not saved', { exact: false })).toBeVisible()
    await expect(name).toHaveValue('Avery from the laptop')
    expect((await preferencesOf(account.uid)).displayName).toBe('Someone else')
    // Enter saves the kept value over the other one.
    await name.press('Enter')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')
    expect((await preferencesOf(account.uid)).displayName).toBe('Avery from the laptop')
  })

  test('an invalid photo address is kept in the field with the reason and not saved; a valid one is', async ({
    page,
    browserConsole,
    shell,
    settings,
  }) => {
    // The saved address points nowhere (there is no network here): the photo route answers 502 and
    // the avatar falls back to initials.
    browserConsole.allow(/status of 502/)
    await shell.open('/profile')
    const photo = settings.photo
    const status = settings.status('Photo address')
    await photo.fill('http://cdn.example/me.png')
    await expect(status).toHaveAttribute('data-autosave-status', 'failed')
    await expect(page.getByRole('alert').filter({ hasText: 'The address must start with https://.' })).toBeVisible()
    await expect(photo).toHaveValue('http://cdn.example/me.png')
    await expect(photo).toHaveAttribute('aria-invalid', 'true')
    expect((await preferencesOf(account.uid)).photoURL ?? '').toBe('')

    await photo.fill('https://cdn.example/me.png')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')
    expect((await preferencesOf(account.uid)).photoURL).toBe('https://cdn.example/me.png')
    await expect(shell.userMenuButton).toContainText('A')
  })

  test("a photo is drawn from the app's own origin at the served widths for its size, resized", async ({
    page,
    shell,
    playwright,
    baseURL,
  }) => {
    // A picture 300 by 200 on a loopback server of the test's own (local runs take loopback photos).
    const picture = readFileSync('tests/fixtures/images/photo-300x200.png')
    const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(picture))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const photoURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/me.png`
      await setPreferences(account.uid, { photoURL })
      await shell.open('/profile')
      const photo = page.getByRole('main').locator('img')
      const at = (width: number) => `/api/photos?${new URLSearchParams({ url: photoURL, w: String(width) })}`
      // Drawn 56 px: the served 64 once, 128 for screens of twice the density.
      await expect(photo).toHaveAttribute('src', at(64))
      await expect(photo).toHaveAttribute('srcset', `${at(64)} 1x, ${at(128)} 2x`)
      await expect
        .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && [img.naturalWidth, img.naturalHeight]))
        .toEqual([64, 64])
      // The user menu's avatar, drawn 32 px, the same way.
      await expect(shell.userMenuButton.locator('img')).toHaveAttribute('src', at(32))
      // The route serves only the product's widths, and only to someone signed in.
      expect((await page.request.get(at(65))).status()).toBe(400)
      const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
      expect((await anonymous.get(at(64))).status()).toBe(401)
      await anonymous.dispose()
    } finally {
      server.close()
    }
  })

  test('the colour scheme applies at once and is kept in the browser', async ({ page, shell, settings }) => {
    await shell.open('/profile')
    await settings.scheme('Dark').check()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorScheme)).toBe('dark')
    await page.reload()
    await expect(settings.scheme('Dark')).toBeChecked()
    await settings.scheme('Auto').check()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorScheme ?? 'auto')).toBe('auto')
  })

  test.describe(() => {
    test.use({ signedInAs: 'manager@acme.example' })

    test('the default company, a discrete choice, saves at once and switches the workspace', async ({ page, shell, settings }) => {
      const manager = demoAccount('manager@acme.example')
      await shell.open('/profile')
      const select = settings.defaultCompany
      const status = settings.status('Default company')
      const before = await select.inputValue()
      const other = before === 'initech' ? 'globex' : 'initech'
      const otherName = other === 'initech' ? 'Initech' : 'Globex'
      // The page notes when the choice changed and when the field began saving: the pause is read
      // from the page's own clock, so a slow machine cannot make it look shorter than it was.
      await status.evaluate(
        (indicator, field) => {
          const probe = window as unknown as { autosavePause?: number }
          let changedAt = 0
          field.addEventListener('change', () => (changedAt = performance.now()), { once: true })
          const watch = new MutationObserver(() => {
            if (changedAt && indicator.getAttribute('data-autosave-status') === 'saving') {
              watch.disconnect()
              probe.autosavePause = performance.now() - changedAt
            }
          })
          watch.observe(indicator, { attributes: true, attributeFilter: ['data-autosave-status'] })
        },
        await select.elementHandle(),
      )
      await select.selectOption(other)
      const pause = await page.waitForFunction(() => (window as unknown as { autosavePause?: number }).autosavePause)
      // No typing pause to wait for: saving starts with the change (the text fields' pause is 250 ms).
      expect(await pause.jsonValue()).toBeLessThan(250)
      await expect(status).toHaveAttribute('data-autosave-status', 'synced', { timeout: 5_000 })
      expect((await preferencesOf(manager.uid)).defaultCompany).toBe(other)
      await expect(await shell.company(otherName)).toHaveAttribute('aria-checked', 'true')
      await shell.closeUserMenu()
      await select.selectOption(before)
      await expect(status).toHaveAttribute('data-autosave-status', 'synced', { timeout: 5_000 })
    })
  })
})
