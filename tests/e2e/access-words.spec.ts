// What a page says to a person about what they cannot see, and the tools that go with what they
// can: the newcomer with no report asks for access, another company's finding is not found, the
// hub names companies, and a new agent's token can be copied. Each test saves screenshots to look at.
import type { Page } from '@playwright/test'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'

const DESKTOP = { width: 1440, height: 900 }
const PHONE = { width: 375, height: 812 }

async function shots(page: Page, name: string, sizes: Record<string, { width: number; height: number }> = { desktop: DESKTOP }) {
  for (const [size, viewport] of Object.entries(sizes)) {
    await page.setViewportSize(viewport)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: test.info().outputPath(`${name}-${size}-${scheme}.png`), fullPage: true })
    }
  }
  await page.emulateMedia({ colorScheme: null })
}

test.describe('the newcomer, who may see no report yet', () => {
  test.use({ signedInAs: 'newcomer@initech.example' })

  test('lands on Home told so, and asks for access through the support form', async ({ page, shell }) => {
    await shell.open('/')
    const card = shell.main.getByRole('region', { name: 'No reports for you yet' })
    await expect(card).toContainText('You cannot see any of Initech')
    await shots(page, 'newcomer-home', { desktop: DESKTOP, phone: PHONE })
    await page.setViewportSize(DESKTOP)
    await card.getByRole('button', { name: 'Ask for access' }).click()
    const dialog = page.getByRole('dialog', { name: 'Contact support' })
    await expect(dialog.getByRole('textbox', { name: 'Message' })).toHaveValue(/^I signed in as newcomer@initech\.example .*Initech/)
    await shots(page, 'newcomer-ask')
  })
})

test.describe('a client viewer of Acme', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('opening the address of another company’s finding is told it is not found here, with no retry', async ({
    page,
    shell,
    browserConsole,
  }) => {
    // The rules refuse the read, which the SDK reports in the console.
    browserConsole.allow(/Missing or insufficient permissions|permission-denied/)
    // A finding of Globex, opened under Acme's DAST report (the address names no company).
    const id = (await sharedAdmin().db.collection('companies/globex/findings').limit(1).get()).docs[0]!.id
    await shell.open(`/reports/dast/${id}`)
    await expect(shell.main.getByRole('heading', { name: 'Finding not found' })).toBeVisible({ timeout: 15_000 })
    await expect(shell.main).toContainText('no such finding in Acme Corporation’s report, or it is not one you may open')
    await expect(shell.main.getByRole('button', { name: 'Retry' })).toHaveCount(0)
    await expect(shell.main.getByText(/Check your connection/)).toHaveCount(0)
    await shots(page, 'other-company-finding')
  })
})

test.describe('Acme’s company admin', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('reads the hub’s latest changes with the company named, not its id', async ({ page, shell }) => {
    await shell.open('/admin')
    const changes = shell.main.getByRole('list', { name: 'Latest changes' })
    await expect(changes.getByRole('listitem').first()).toBeVisible({ timeout: 15_000 })
    await expect(changes).toContainText('· Acme Corporation')
    expect(await changes.innerText()).not.toMatch(/· (acme|umbrella)\b/)
    await shots(page, 'admin-hub')
  })
})

test.describe('the senior analyst', () => {
  test.use({ signedInAs: 'senior@sectest.example' })

  test('copies a new agent’s enrolment token, or the commands that use it', async ({ page, shell, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await shell.open('/analyst/agents')
    await page.getByLabel('Agent name').fill(`copy-${Date.now()}`)
    await page.getByRole('button', { name: 'Create enrolment token' }).click()
    const shown = page.getByRole('status', { name: 'Enrolment token' })
    await shown.getByRole('button', { name: 'Copy token' }).click()
    await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible()
    const token = await page.evaluate(() => navigator.clipboard.readText())
    expect(await page.getByTestId('enrol-command').textContent()).toContain(`enrol ${token} --server`)
    await shots(page, 'enrolment-token')
  })
})
