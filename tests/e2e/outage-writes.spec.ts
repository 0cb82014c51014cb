// Writes whose answer never came while the database was held back (decision 0046): a vault link, a
// retest asked for and one completed, an import. The page says it may have been saved and checks,
// under the same request, and shows what is true once the database answers; nothing is made twice,
// and no draft is left without the file's findings. The answer is lost on its way to the browser
// after the server made the write, the way a slow database lost it: the page hears nothing from the
// database while the write is made (its listeners would otherwise show the write at once), and the
// database is held back before it does, so the page learns what is true only by checking.
import { createHash, randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import type { Locator, Page, Route } from '@playwright/test'
import { findingHistoryPath } from '#domain/finding-history.ts'
import { findingPath } from '#domain/findings.ts'
import { retestPath, retestsPath } from '#domain/retests.ts'
import { draftFindingsPath, draftScanId } from '#domain/scan-drafts.ts'
import { scanPath, scansPath } from '#domain/scans.ts'
import { VAULT_LINKS_COLLECTION } from '#domain/vault.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_PORTS } from '../../emulators/firebase/env'
import { expect, test } from './fixtures'
import { AnalystServicePage } from './pages/analyst'
import { FindingPage } from './pages/findings'
import { RevealPage, ShareLinkPage } from './pages/vault'
import { countIn, countWhere, documentOf, preferencesOf, setPreferences } from './support/admin'
import { callAs, createFinding, deleteFindings } from './support/findings'
import { deafenPage, functionsReadTheDatabase, pauseListener } from './support/outage'

const OUTAGE_CONSOLE =
  /Could not reach Cloud Firestore backend|WebChannelConnection|Failed to load resource|net::ERR|Our database cannot be reached/

const CHECKING = 'The service did not answer in time. It may have been saved: checking…'

/**
 * The first call of `callable` reaches the server, which answers while the page does not hear from
 * the database (its listeners learn nothing of the write); the database is then held back, and the
 * answer never reaches the page. `held` resolves with the resume of the database once that is so.
 */
async function loseFirstAnswer(page: Page, callable: string): Promise<{ held: Promise<() => void> }> {
  const held = Promise.withResolvers<() => void>()
  let first = true
  const pattern = `**/us-central1/${callable}`
  const lose = async (route: Route) => {
    if (route.request().method() !== 'POST' || !first) return route.fallback()
    first = false
    const hear = await deafenPage(page, EMULATOR_PORTS.firestore)
    try {
      const answer = await route.fetch()
      expect(answer.status()).toBe(200)
      held.resolve(pauseListener(EMULATOR_PORTS.firestore))
    } finally {
      await hear()
    }
    await route.abort('timedout')
    await page.unroute(pattern, lose)
  }
  await page.route(pattern, lose)
  return { held: held.promise }
}

/**
 * While the database is held back, `within` says the write may have been saved and goes on checking:
 * its checks meet the database away, and it never says "try again" or that the database cannot be
 * reached. Screenshots at a phone's and a desk's width, light and dark, named from `shots`.
 */
async function saysItIsChecking(page: Page, within: Locator, shots: string): Promise<void> {
  const checking = within.getByRole('status').filter({ hasText: CHECKING })
  await expect(checking).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Our database cannot be reached')).toHaveCount(0)
  await expect(page.getByText(/try again/)).toHaveCount(0)
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme })
      await page.screenshot({ path: `${shots}-${colorScheme}-${width}.png` })
    }
  }
  await expect(checking).toBeVisible()
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
      await expect(form.getByRole('button', { name: 'Checking…' })).toBeDisabled()
      await saysItIsChecking(page, form, testInfo.outputPath('vault-link-checking'))
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

const manager = demoAccount('manager@acme.example')

test.describe('a retest whose answer was lost while the database was held back', () => {
  const created: string[] = []
  const before: Record<string, unknown> = {}
  // Both people work in Acme here; their own choices are put back after.
  test.beforeAll(async () => {
    for (const { uid } of [manager, senior]) {
      before[uid] = (await preferencesOf(uid)).defaultCompany ?? null
      await setPreferences(uid, { defaultCompany: 'acme' })
    }
  })
  test.afterAll(async () => {
    for (const [uid, company] of Object.entries(before)) await setPreferences(uid, { defaultCompany: company })
    await deleteFindings('acme', created.splice(0))
  })
  test.afterEach(() => functionsReadTheDatabase(senior.uid))

  async function openFinding(title: string): Promise<string> {
    const id = await createFinding('acme', 'dast', { title })
    created.push(id)
    return id
  }

  test.describe('asked for by a client manager', () => {
    test.use({ signedInAs: manager.email })

    test('says it may have been saved and checks, then shows the finding waiting on its one retest', async ({
      page,
      browserConsole,
    }, testInfo) => {
      test.setTimeout(150_000)
      browserConsole.allow(OUTAGE_CONSOLE)
      const title = `Lost retest request ${randomUUID().slice(0, 6)}`
      const id = await openFinding(title)
      const finding = new FindingPage(page)
      await finding.open('dast', id)
      await expect(finding.status()).toHaveText('Open')
      const note = `Output encoding added: ${title}`

      const lost = await loseFirstAnswer(page, 'requestRetest')
      const dialog = await finding.startMove('Request retest', { note })
      const resume = await lost.held
      try {
        await expect(dialog.getByRole('button', { name: 'Checking…' })).toBeDisabled()
        await saysItIsChecking(page, dialog, testInfo.outputPath('retest-request-checking'))
      } finally {
        resume()
      }

      // Back: the check answers what the first try made; the dialog closes on it.
      await expect(dialog).toBeHidden({ timeout: 90_000 })
      await expect(finding.status()).toHaveText('Retest requested', { timeout: 60_000 })
      await expect(finding.history.getByRole('listitem').filter({ hasText: 'Request retest: Open → Retest requested' })).toHaveCount(1)
      await expect(finding.main.getByRole('region', { name: 'Retests' })).toContainText(note)
      expect(await countWhere(retestsPath('acme'), 'note', note)).toBe(1)
      expect(await countWhere(findingHistoryPath('acme', id), 'action', 'request_retest')).toBe(1)
    })
  })

  test.describe('completed by an analyst from the queue', () => {
    test.use({ signedInAs: senior.email })

    test('says it may have been saved and checks, then shows the retest done, its outcome written once', async ({
      page,
      browserConsole,
    }, testInfo) => {
      test.setTimeout(150_000)
      browserConsole.allow(OUTAGE_CONSOLE)
      const title = `Lost retest outcome ${randomUUID().slice(0, 6)}`
      const id = await openFinding(title)
      const asked = `Patched: ${title}`
      expect(
        (await callAs(manager.uid, 'requestRetest', { requestId: randomUUID(), company: 'acme', findingIds: [id], note: asked })).status,
      ).toBe(200)
      const retestId = String((await documentOf(findingPath('acme', id)))?.retestId)

      const analyst = new AnalystServicePage(page)
      await analyst.open('dast')
      const request = analyst.retests.getByRole('listitem').filter({ hasText: asked }).first()
      const outcome = request.getByRole('group', { name: `Outcome of ${title}` })
      await request.getByLabel(`Note for ${title}`).fill('The search page encodes its output now.')

      const lost = await loseFirstAnswer(page, 'completeRetest')
      await outcome.getByRole('button', { name: 'Fixed', exact: true }).click()
      const resume = await lost.held
      try {
        await expect(outcome.getByRole('button', { name: 'Fixed', exact: true })).toBeDisabled()
        await saysItIsChecking(page, request, testInfo.outputPath('retest-outcome-checking'))
      } finally {
        resume()
      }

      // Back: the request leaves the queue, done once.
      await expect(outcome).toHaveCount(0, { timeout: 90_000 })
      await expect(page.getByText(/try again/)).toHaveCount(0)
      expect(await documentOf(findingPath('acme', id))).toMatchObject({ status: 'fixed' })
      const retest = await documentOf(retestPath('acme', retestId))
      expect(retest).toMatchObject({ state: 'completed', results: [{ findingId: id, outcome: 'fixed' }] })
      expect(await countWhere(findingHistoryPath('acme', id), 'action', 'retest_fixed')).toBe(1)
    })
  })
})

test.describe('an import whose answer was lost while the database was held back', () => {
  test.use({ signedInAs: senior.email })

  const drafts: string[] = []
  let before: unknown
  test.beforeAll(async () => {
    before = (await preferencesOf(senior.uid)).defaultCompany ?? null
    await setPreferences(senior.uid, { defaultCompany: 'acme' })
  })
  test.afterAll(async () => {
    await setPreferences(senior.uid, { defaultCompany: before })
  })
  test.afterEach(async () => {
    await functionsReadTheDatabase(senior.uid)
    for (const scanId of drafts.splice(0))
      expect((await callAs(senior.uid, 'discardDraftScan', { company: 'acme', scanId })).status).toBe(200)
  })

  test('says it may have been saved and checks, then shows the one whole draft, which the same file imported again does not double', async ({
    page,
    browserConsole,
  }, testInfo) => {
    test.setTimeout(180_000)
    browserConsole.allow(OUTAGE_CONSOLE)
    // An Nmap file of 8 findings no run has imported before (a comment of its own).
    const file = testInfo.outputPath('lost-answer-nmap.xml')
    const bytes = readFileSync('tests/fixtures/scans/nmap_xml/issue4406.xml', 'utf8').replace(
      '<!DOCTYPE nmaprun>',
      `<!DOCTYPE nmaprun>\n<!-- ${randomUUID()} -->`,
    )
    writeFileSync(file, bytes)
    const scanId = await draftScanId('network', [createHash('sha256').update(bytes).digest('hex')])
    drafts.push(scanId)
    const title = `Lost import ${randomUUID().slice(0, 6)}`
    const analyst = new AnalystServicePage(page)
    await analyst.open('network')

    // The draft is created; its answer never comes, and the database is away for the checks.
    const lost = await loseFirstAnswer(page, 'createDraftScan')
    await analyst.startImport([file], title)
    const resume = await lost.held
    try {
      await expect(analyst.importPanel.getByRole('button', { name: 'Importing…' })).toBeDisabled()
      await saysItIsChecking(page, analyst.importPanel, testInfo.outputPath('import-checking'))
    } finally {
      resume()
    }

    // Back: the check finds the draft importing, the findings are sent and it is finished, whole.
    const ready = analyst.importPanel.getByRole('status').filter({ hasText: 'The draft is ready for review below.' })
    await expect(ready).toBeVisible({ timeout: 90_000 })
    await expect(analyst.review).toContainText(`Review: ${title}`)
    await expect(analyst.review).toContainText('8 findings')
    await expect(analyst.scans.getByRole('row').filter({ hasText: title })).toHaveCount(1)
    expect(await documentOf(scanPath('acme', scanId))).toMatchObject({ state: 'draft', title })
    expect(await countIn(draftFindingsPath('acme', scanId))).toBe(8)

    // The same file again: the draft it made stands, nothing is added.
    await analyst.startImport([file], title)
    await expect(analyst.importPanel.getByRole('status')).toHaveText(
      'These files were imported before: nothing changed. Their scan is shown below.',
      { timeout: 30_000 },
    )
    await expect(analyst.review).toContainText(`Review: ${title}`)
    await expect(analyst.scans.getByRole('row').filter({ hasText: title })).toHaveCount(1)
    expect(await countWhere(scansPath('acme'), 'title', title)).toBe(1)
    expect(await countIn(draftFindingsPath('acme', scanId))).toBe(8)
  })
})
