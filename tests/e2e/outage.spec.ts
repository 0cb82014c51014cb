// Parts of the stack going away for a while: the database (the page says so, what the person types is
// kept and saved when it returns, live parts of other pages resume without a reload) and mail.
import { supportMessages } from '#domain/support.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_PORTS } from '../../emulators/firebase/env'
import { expect, test } from './fixtures'
import { preferencesOf, setPreferences } from './support/admin'
import { nextMail, setMailAccepting } from './support/inbox'
import { pauseListener } from './support/outage'

const account = demoAccount('admin@acme.example')

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
    // The SDK says in the console that it cannot reach the backend, and a token handed to the edge
    // while the database is away is not taken: that is the point here.
    browserConsole.allow(
      /Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR|The session could not be handed to the server/,
    )
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
