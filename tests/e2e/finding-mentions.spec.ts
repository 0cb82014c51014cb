// Mentions in a finding's comments: "@" in the comment box lists the people who may see the
// finding, a pick is made with the keyboard, and the person picked is told in their bell.
import type { Browser, BrowserContext } from '@playwright/test'
import { expect, test } from './fixtures'
import { DashboardPage } from './pages/dashboard'
import { FindingPage } from './pages/findings'
import { Shell } from './pages/shell'
import { SignInPanel } from './pages/sign-in-panel'
import { createFinding, deleteFindings } from './support/findings'

/** A wait sized for a callable and the listener that shows its outcome, on a busy machine. */
const ROUND_TRIP = { timeout: 20_000 }

const created: string[] = []
test.afterEach(async () => {
  await deleteFindings('acme', created.splice(0))
})

async function freshBrowser(browser: Browser, baseURL: string | undefined, watch: (context: BrowserContext) => void) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
  watch(context)
  const page = await context.newPage()
  return { context, page, shell: new Shell(page) }
}

test.describe('a client viewer of Acme', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('types "@" in a comment, picks a colleague with the keyboard, posts, and the colleague is told', async ({
    page,
    browser,
    browserConsole,
    baseURL,
  }) => {
    test.setTimeout(90_000)
    const title = `Session cookie without Secure ${Date.now()}`
    const id = await createFinding('acme', 'dast', { title })
    created.push(id)
    const finding = new FindingPage(page)
    await finding.open('dast', id)

    const box = finding.main.getByRole('textbox', { name: 'Add a comment' })
    await expect(box).toHaveAccessibleDescription(/Type @ and the start of an address to mention someone who can see this finding/)
    await box.click()
    await box.pressSequentially('@ma')
    const list = finding.main.getByRole('listbox', { name: 'People to mention' })
    // Mario manages Acme's reports; nobody outside the company or without DAST is offered.
    await expect(list.getByRole('option', { name: /Mario Manager/ })).toBeVisible(ROUND_TRIP)
    await expect(box).toHaveAttribute('aria-activedescendant', /.+/)

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await finding.main.getByRole('region', { name: 'Comments' }).screenshot({ path: `.local/screenshots/comment-mention-${scheme}.png` })
    }
    await page.emulateMedia({ colorScheme: 'light' })
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 })
      await finding.main.getByRole('region', { name: 'Comments' }).screenshot({ path: `.local/screenshots/comment-mention-${width}.png` })
    }

    // Escape closes the list and keeps what was typed; a new "@" opens it again.
    await box.press('Escape')
    await expect(list).toHaveCount(0)
    await expect(box).toHaveValue('@ma')
    await box.press('Backspace')
    await box.press('Backspace')
    await box.press('Backspace')
    await box.pressSequentially('Thanks @ma')
    await expect(list.getByRole('option', { name: /Mario Manager/ })).toBeVisible(ROUND_TRIP)
    // Down and up again lands where it started, on Mario; Enter picks.
    await box.press('ArrowDown')
    await box.press('ArrowUp')
    await expect(list.getByRole('option', { name: /Mario Manager/ })).toHaveAttribute('aria-selected', 'true')
    await box.press('Enter')
    await expect(box).toHaveValue('Thanks @Mario Manager ')
    await expect(list).toHaveCount(0)
    await box.pressSequentially('can you confirm the fix is deployed?')
    await finding.main.getByRole('button', { name: 'Comment' }).click()
    await expect(finding.main.getByRole('region', { name: 'Comments' })).toContainText(
      'Thanks @Mario Manager can you confirm the fix is deployed?',
      ROUND_TRIP,
    )

    const manager = await freshBrowser(browser, baseURL, browserConsole.watch)
    await new SignInPanel(manager.page).signIn('manager@acme.example')
    const home = new DashboardPage(manager.page)
    await expect(home.bell).toBeEnabled(ROUND_TRIP)
    await home.openNotifications()
    await expect(home.notifications.getByText(`Vera Viewer mentioned you on "${title}"`)).toBeVisible(ROUND_TRIP)
    await manager.context.close()
  })
})
