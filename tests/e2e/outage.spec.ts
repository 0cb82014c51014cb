// Parts of the stack going away for a while: the database (the page says so, what the person types is
// kept and saved when it returns, live parts of other pages resume without a reload; a callable says
// so within seconds and changes nothing) and mail.
import { randomUUID } from 'node:crypto'
import { callableMessages } from '#domain/callables.ts'
import { DAST_KEYS_COLLECTION } from '#domain/dast-keys.ts'
import { supportMessages } from '#domain/support.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_PORTS } from '../../emulators/firebase/env'
import { expect, test } from './fixtures'
import { DastKeysPage } from './pages/admin-org'
import { countWhere, preferencesOf, setPreferences } from './support/admin'
import { nextMail, setMailAccepting } from './support/inbox'
import { pauseListener } from './support/outage'

const account = demoAccount('admin@acme.example')

// While the database is away the SDK says in the console that it cannot reach the backend, failed
// requests are logged, and a token handed to the edge is not taken: that is the point here.
const OUTAGE_CONSOLE =
  /Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR|The session could not be handed to the server/

test.describe('Firestore out of reach', () => {
  test.use({ signedInAs: account.email })

  test.afterEach(async () => {
    await setPreferences(account.uid, { displayName: '' })
  })

  // The SDK alone may take minutes to notice a stopped server; the page's probe of the database's
  // host notices within one interval and its timeout, and restarts the SDK's streams when it answers.
  test('the page says it is offline, an autosaved edit is kept and saved on return, and another page catches up live', async ({
    page,
    browserConsole,
    settings,
  }) => {
    test.setTimeout(120_000)
    browserConsole.allow(OUTAGE_CONSOLE)
    const report = await page.context().newPage()
    await report.goto('/reports')
    await expect(report.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeEnabled()
    await settings.goto()
    const status = settings.status('Display name')
    await expect(status).toHaveAttribute('data-autosave-status', 'synced')

    const resume = pauseListener(EMULATOR_PORTS.firestore)
    try {
      await expect(page.getByTestId('connection-notice')).toBeVisible({ timeout: 60_000 })
      await expect(report.getByTestId('connection-notice')).toBeVisible({ timeout: 60_000 })
      await settings.displayName.fill('Avery Offline')
      await expect(status).not.toHaveAttribute('data-autosave-status', 'synced')
      await expect(settings.displayName).toHaveValue('Avery Offline')
    } finally {
      resume()
    }

    await expect(page.getByTestId('connection-notice')).toHaveCount(0, { timeout: 60_000 })
    await expect(status).toHaveAttribute('data-autosave-status', 'synced', { timeout: 30_000 })
    await expect.poll(async () => (await preferencesOf(account.uid)).displayName).toBe('Avery Offline')
    // The other page's listeners resumed: the name arrives in its header without a reload.
    await expect(report.getByTestId('connection-notice')).toHaveCount(0, { timeout: 60_000 })
    await expect(report.getByRole('banner').getByText('Avery Offline')).toBeVisible()
  })
})

test.describe('Firestore out of reach for a callable', () => {
  test.use({ signedInAs: account.email })

  // The callable's answer must come from the server's check of its database, well before the 70 s
  // the browser waits for any call (whose own timeout would say something else).
  test('a DAST key asked for says the database cannot be reached, keeps what was typed, changes nothing, and is made once it is back', async ({
    page,
    browserConsole,
  }) => {
    test.setTimeout(120_000)
    browserConsole.allow(OUTAGE_CONSOLE)
    const keys = new DastKeysPage(page)
    await keys.open()
    const name = `Outage pipeline ${randomUUID().slice(0, 6)}`
    await keys.fill(name, ['app.acme.example'])
    // The form checks the targets against the scope it read: it must have read it before the database goes.
    await expect(keys.form.getByText(/within the company's scan scope: /)).toBeVisible()

    const resume = pauseListener(EMULATOR_PORTS.firestore)
    try {
      await keys.submit()
      await expect(keys.form.getByText(callableMessages.databaseUnreachable, { exact: true })).toBeVisible({ timeout: 30_000 })
      await expect(keys.nameField).toHaveValue(name)
      await expect(keys.targetsField).toHaveValue('app.acme.example')
    } finally {
      resume()
    }
    expect(await countWhere(DAST_KEYS_COLLECTION, 'name', name)).toBe(0)

    expect(await keys.takeKey({ timeout: 30_000 })).toMatch(/^bwk_dast_/)
    await expect(keys.form.getByText(callableMessages.databaseUnreachable, { exact: true })).toHaveCount(0)
    expect(await countWhere(DAST_KEYS_COLLECTION, 'name', name)).toBe(1)
  })
})

test.describe('the connection lost while a page loads', () => {
  test.use({ signedInAs: account.email })

  // The header's menus and the page's listeners load after the page: their code fetched while the
  // browser is offline fails, and must load once it is back instead of taking the page down.
  test('the parts that had not arrived load once the browser is back online, and the page stays whole', async ({
    page,
    browserConsole,
  }) => {
    browserConsole.allow(OUTAGE_CONSOLE)
    const menuChunk = /\/assets\/user-menu-[\w-]+\.js$/
    const lost = Promise.withResolvers<void>()
    await page.route(menuChunk, async (route) => {
      await lost.promise
      await route.abort('internetdisconnected')
    })
    const asked = page.waitForRequest(menuChunk)
    await page.goto('/')
    await asked
    await page.context().setOffline(true)
    lost.resolve()
    await expect(page.getByTestId('connection-notice')).toBeVisible()
    await page.unroute(menuChunk)

    await page.context().setOffline(false)
    const userMenu = page.getByRole('banner').getByRole('button', { name: 'User menu' })
    await expect(userMenu).toBeEnabled({ timeout: 20_000 })
    await userMenu.click()
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible()
    await expect(page.getByTestId('connection-notice')).toHaveCount(0, { timeout: 30_000 })
  })
})

test.describe('mail out of reach', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test.afterEach(async () => {
    await setMailAccepting(true)
  })

  test('a support message says it was not sent, keeps what was typed, and goes once mail is back', async ({ page, shell }) => {
    await shell.open('/')
    const message = 'Nothing loads on the DAST report while the mail server is down.'
    await setMailAccepting(false)
    await shell.footer.getByRole('button', { name: 'Contact' }).click()
    const dialog = page.getByRole('dialog', { name: 'Contact support' })
    await dialog.getByRole('radio', { name: 'Bug report' }).check()
    await dialog.getByRole('textbox', { name: 'Message' }).fill(message)
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByText(supportMessages.serverFailed, { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(dialog.getByRole('textbox', { name: 'Message' })).toHaveValue(message)

    await setMailAccepting(true)
    const before = Date.now()
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByText(supportMessages.sent, { exact: true })).toBeVisible({ timeout: 20_000 })
    expect((await nextMail('support@bulwark.example', before)).text).toContain(message)
  })
})
