// Writes whose answer never came while the database was held back (decision 0046): the page says it
// may have been saved and checks, under the same request, and shows what is true once the database
// answers; nothing is made twice. The answer is lost on its way to the browser after the server
// made the write, the way a slow database lost it: the page meets the outage only on its checks.
import { randomUUID } from 'node:crypto'
import type { Page, Route } from '@playwright/test'
import { VAULT_LINKS_COLLECTION } from '#domain/vault.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_PORTS } from '../../emulators/firebase/env'
import { expect, test } from './fixtures'
import { RevealPage, ShareLinkPage } from './pages/vault'
import { countWhere } from './support/admin'
import { functionsReadTheDatabase, pauseListener } from './support/outage'

const OUTAGE_CONSOLE =
  /Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR|Our database cannot be reached/

const CHECKING = 'The service did not answer in time. It may have been saved: checking…'

/**
 * The first call of `callable` reaches the server, which answers; the database is then held back
 * and the answer never reaches the page. `held` resolves with the resume of the database once that is so.
 */
async function loseFirstAnswer(page: Page, callable: string): Promise<{ held: Promise<() => void> }> {
  const held = Promise.withResolvers<() => void>()
  let first = true
  const pattern = `**/us-central1/${callable}`
  const lose = async (route: Route) => {
    if (route.request().method() !== 'POST' || !first) return route.fallback()
    first = false
    const answer = await route.fetch()
    expect(answer.status()).toBe(200)
    held.resolve(pauseListener(EMULATOR_PORTS.firestore))
    await route.abort('timedout')
    await page.unroute(pattern, lose)
  }
  await page.route(pattern, lose)
  return { held: held.promise }
}

const analystAccount = demoAccount('analyst@sectest.example')
const senior = demoAccount('senior@sectest.example')

test.describe('a vault link whose answer was lost while the database was held back', () => {
  test.use({ signedInAs: analystAccount.email })

  test.afterEach(() => functionsReadTheDatabase(senior.uid))

  test('says it may have been saved and checks, then shows the key of the one link stored, which opens', async ({
    page,
    browser,
    browserConsole,
  }, testInfo) => {
    test.setTimeout(150_000)
    browserConsole.allow(OUTAGE_CONSOLE)
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `Lost answer ${randomUUID().slice(0, 6)}`
    const secret = `vpn-${randomUUID()}`
    const form = page.getByRole('form', { name: 'Share a secret' })
    await form.getByLabel('Secret', { exact: true }).fill(secret)
    await form.getByLabel('What it is').fill(label)

    const lost = await loseFirstAnswer(page, 'createVaultLink')
    await form.getByRole('button', { name: 'Create link' }).click()
    const resume = await lost.held
    try {
      const checking = form.getByRole('status').filter({ hasText: CHECKING })
      await expect(checking).toBeVisible({ timeout: 30_000 })
      await expect(form.getByRole('button', { name: 'Checking…' })).toBeDisabled()
      // Its checks meet the database held back: still checking, never "try again".
      await expect(page.getByText('Our database cannot be reached')).toHaveCount(0)
      await expect(page.getByText(/try again/)).toHaveCount(0)
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [375, 1440]) {
          await page.setViewportSize({ width, height: 900 })
          await page.emulateMedia({ colorScheme })
          await page.screenshot({ path: testInfo.outputPath(`vault-link-checking-${colorScheme}-${width}.png`) })
        }
      }
      await expect(checking).toBeVisible()
    } finally {
      resume()
    }

    // Back: the check answers what the first try stored, and its key is the one shown.
    const link = page.getByRole('textbox', { name: 'Share link' })
    await expect(link).toHaveValue(/\/vault\/s\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}$/, { timeout: 90_000 })
    expect(await countWhere(VAULT_LINKS_COLLECTION, 'label', label)).toBe(1)

    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    await reveal.open(await link.inputValue())
    await reveal.revealButton().click()
    await expect(reveal.secret()).toHaveValue(secret)
    await recipient.close()
  })
})
