// Reads the database does not answer: while Firestore is held back a page says it is loading, and
// never that there is nothing (zeros, "none yet"); once the database is back it shows what is true.
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_PORTS } from '../../emulators/firebase/env'
import { expect, test } from './fixtures'
import { AnalystDeskPage } from './pages/analyst-desk'
import { preferencesOf, setPreferences } from './support/admin'
import { firestoreGivesUp, pauseListener } from './support/outage'
import { recordSayings } from './support/said'

// While the database is away the SDK says in the console that it cannot reach the backend, failed
// requests are logged: that is the point here.
const OUTAGE_CONSOLE =
  /Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR|The session could not be handed to the server/

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
