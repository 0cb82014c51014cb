// Reads the database does not answer: while Firestore is held back a page says it is loading, or
// that it could not check, and never that there is nothing (zeros, "none yet") or that something
// does not exist; once the database is back it shows what is true.
import { randomUUID } from 'node:crypto'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_PORTS } from '../../emulators/firebase/env'
import { expect, test } from './fixtures'
import { AnalystDeskPage } from './pages/analyst-desk'
import { RevealPage, ShareLinkPage } from './pages/vault'
import { preferencesOf, setPreferences } from './support/admin'
import { firestoreGivesUp, functionsReadTheDatabase, pauseListener } from './support/outage'
import { recordSayings } from './support/said'

// While the database is away the SDK says in the console that it cannot reach the backend, failed
// requests are logged (a callable's 503 too): that is the point here.
const OUTAGE_CONSOLE =
  /Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR|The session could not be handed to the server|Our database cannot be reached/

const senior = demoAccount('senior@sectest.example')

test.describe('the analyst desk while the database is held back', () => {
  test.use({ signedInAs: senior.email })

  let before: unknown
  test.beforeEach(async () => {
    before = (await preferencesOf(senior.uid)).defaultCompany
    await setPreferences(senior.uid, { defaultCompany: 'umbrella' })
  })
  test.afterEach(async () => {
    await setPreferences(senior.uid, { defaultCompany: before })
    await functionsReadTheDatabase(senior.uid)
  })

  test('switched to Acme, it says it is loading, never zeros or "Nothing has been imported yet", and shows Acme’s drafts and imports once it is back', async ({
    page,
    shell,
    browserConsole,
  }) => {
    test.setTimeout(150_000)
    browserConsole.allow(OUTAGE_CONSOLE)
    const desk = new AnalystDeskPage(page)
    // Umbrella's desk (it uses no service): the desk's code is in the page, and none of Acme's lists
    // have been read.
    await shell.open('/analyst')
    await expect(desk.main.getByText('Umbrella Holdings uses no service whose scans you may import.')).toBeVisible()
    const said = await recordSayings(page, [/Nothing has been imported yet/, /No drafts are waiting/, /Drafts to publish0(?!\d)/])
    // The database stops answering, and the browser's connection drops for a moment: the SDK gives
    // the server up and answers from its cache alone, as after any stream it could not restart in time.
    const sdkOffline = firestoreGivesUp(page)
    const resume = pauseListener(EMULATOR_PORTS.firestore)
    try {
      await page.context().setOffline(true)
      await sdkOffline
      // The choice is kept on the page and saved when the database is back (a click that met the SDK
      // restarting its streams is made again).
      const acme = shell.banner.getByRole('button', { name: /^Company: Acme Corporation/ })
      await expect(async () => {
        if (!(await acme.isVisible())) await shell.chooseCompany('Acme Corporation')
        await expect(acme).toBeVisible({ timeout: 5_000 })
      }).toPass({ timeout: 30_000 })
      const loading = desk.main.getByRole('status').filter({ hasText: 'Loading the desk…' })
      await expect(loading).toBeVisible()
      await page.context().setOffline(false)
      await expect(loading).toBeVisible()
      await expect(desk.tile('dast')).toHaveCount(0)
    } finally {
      await page.context().setOffline(false)
      resume()
    }

    // Back: the truth, which was never preceded by an empty desk.
    await expect(desk.drafts.getByRole('link').first()).toBeVisible({ timeout: 60_000 })
    await expect(desk.imports.getByRole('link').first()).toBeVisible()
    await expect(desk.tile('dast')).toContainText('Drafts to publish')
    expect(await said()).toEqual([])
  })
})

test.describe('a vault link while the database is held back', () => {
  test.use({ signedInAs: 'analyst@sectest.example' })

  test('its recipient is told the link could not be checked, with a retry, never that it does not exist; once it is back it opens', async ({
    page,
    browser,
    browserConsole,
  }, testInfo) => {
    test.setTimeout(150_000)
    browserConsole.allow(OUTAGE_CONSOLE)
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `Outage VPN ${randomUUID().slice(0, 6)}`
    const url = await analyst.share({ secret: `vpn-${randomUUID()}`, label })

    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    const checkFailed = reveal.page.getByRole('alert').filter({ hasText: 'The link could not be checked' })
    const resume = pauseListener(EMULATOR_PORTS.firestore)
    try {
      await reveal.open(url)
      const said = await recordSayings(reveal.page, [/does not exist/, /has been deleted/, /not complete/])
      await expect(checkFailed).toBeVisible({ timeout: 60_000 })
      await expect(reveal.page.getByRole('button', { name: 'Retry' })).toBeVisible()
      expect(await said()).toEqual([])
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [375, 1440]) {
          await reveal.page.setViewportSize({ width, height: 720 })
          await reveal.page.emulateMedia({ colorScheme })
          await reveal.page.screenshot({ path: testInfo.outputPath(`vault-link-unchecked-${colorScheme}-${width}.png`) })
        }
      }
    } finally {
      resume()
    }

    // Retried once the database answers again (the first tries may still meet it waking up).
    await expect(async () => {
      if (await checkFailed.isVisible()) await reveal.page.getByRole('button', { name: 'Retry' }).click()
      await expect(reveal.revealButton()).toBeVisible({ timeout: 10_000 })
    }).toPass({ timeout: 60_000 })
    await expect(reveal.page.getByRole('heading', { name: label })).toBeVisible()
    await recipient.close()
  })
})
