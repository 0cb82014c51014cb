import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext } from '@playwright/test'
import { emailKeyMessages } from '#domain/email-keys.ts'
import { signInMessages } from '#domain/sign-in.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'
import { Shell } from './pages/shell'
import { SignInPanel } from './pages/sign-in-panel'
import { nextMail, signInLink } from './support/inbox'

const unique = () => randomUUID().slice(0, 8)

/** A fresh browser with nobody signed in, watched for console problems like the test's own. */
async function freshBrowser(browser: Browser, baseURL: string | undefined, watch: (context: BrowserContext) => void) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
  watch(context)
  const page = await context.newPage()
  return { context, page, shell: new Shell(page) }
}

test.describe('a platform admin', () => {
  test.use({ signedInAs: 'platform@sectest.example' })

  test('invites a person, who receives the mail, signs in and sees exactly the access given', async ({
    page,
    shell,
    browser,
    browserConsole,
    baseURL,
  }) => {
    const email = `invitee-${unique()}@acme.example`
    await shell.open('/admin/app/users')
    await expect(page.getByRole('table', { name: 'People' })).toBeVisible()
    await page.getByRole('button', { name: 'Invite a person' }).click()
    const dialog = page.getByRole('dialog', { name: 'Invite a person' })
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('combobox', { name: 'Level' }).selectOption({ label: '1 · Client viewer' })
    await dialog.getByRole('group', { name: 'Companies' }).getByRole('checkbox', { name: 'Acme Corporation' }).check()
    await dialog.getByRole('group', { name: 'Services enabled' }).getByRole('checkbox', { name: 'Network' }).check()
    const sent = Date.now()
    await dialog.getByRole('button', { name: 'Invite' }).click()
    await expect(page.getByRole('status').filter({ hasText: `Invited ${email}` })).toBeVisible({ timeout: 20_000 })
    await page.getByRole('searchbox', { name: 'Search people' }).fill(email)
    await expect(page.getByRole('table', { name: 'People' }).getByText(email)).toBeVisible()

    const mail = await nextMail(email, sent)
    expect(mail.subject).toBe('You are invited to Bulwark')
    expect(mail.text).toContain('platform@sectest.example invited you')

    const invitee = await freshBrowser(browser, baseURL, browserConsole.watch)
    await invitee.page.goto(signInLink(mail))
    const welcome = invitee.page.getByRole('dialog', { name: /Welcome/ })
    await welcome.getByRole('textbox', { name: 'Email' }).fill(email)
    await welcome.getByRole('button', { name: 'Login with Link' }).click()
    await expect(invitee.page).toHaveURL('/', { timeout: 20_000 })
    await expect(invitee.shell.userMenuButton).toBeEnabled()
    // A level-1 client of Acme with network enabled: Home, Reports and its network report, nothing else.
    const links = invitee.shell.nav.getByRole('link')
    await expect(links).toHaveCount(3)
    await expect(invitee.shell.navLink('Home')).toBeVisible()
    await expect(invitee.shell.navLink('Reports')).toBeVisible()
    await expect(invitee.shell.navLink('Network')).toBeVisible()
    await invitee.shell.open('/admin')
    await expect(invitee.shell.accessDenied).toBeVisible()
    await invitee.context.close()
  })

  test('an email key lets in a newcomer of its domain, and a consumer domain gets none', async ({
    page,
    shell,
    browser,
    browserConsole,
    baseURL,
  }) => {
    const domain = `keyed-${unique()}.example`
    await shell.open('/admin/keys_email')
    const form = page.getByRole('form', { name: 'New email key' })
    await form.getByRole('textbox', { name: 'Address or domain' }).fill('@gmail.com')
    await form.getByRole('button', { name: 'Add key' }).click()
    await expect(page.getByRole('alert')).toHaveText(emailKeyMessages.consumer)

    await form.getByRole('textbox', { name: 'Address or domain' }).fill(`@${domain}`)
    await form.getByRole('combobox', { name: 'Company' }).selectOption({ label: 'Globex Industries' })
    // A client manager sees every service Globex has on.
    await form.getByRole('combobox', { name: 'Level' }).selectOption('2')
    await form.getByRole('button', { name: 'Add key' }).click()
    await expect(page.getByRole('status').filter({ hasText: `Key added for @${domain}.` })).toBeVisible({ timeout: 20_000 })
    const row = page
      .getByRole('table', { name: 'Email keys' })
      .getByRole('row')
      .filter({ hasText: `@${domain}` })
    await expect(row).toContainText('Active')
    await expect(row.getByRole('cell').nth(5)).toHaveText('0')

    const newcomer = await freshBrowser(browser, baseURL, browserConsole.watch)
    await new SignInPanel(newcomer.page).signIn(`newcomer@${domain}`)
    await expect(newcomer.shell.navLink('Reports')).toBeVisible()
    await newcomer.shell.open('/reports/network')
    await expect(newcomer.shell.main.getByRole('heading', { level: 1 })).toContainText('Network')
    await newcomer.context.close()
    // The use is counted, live.
    await expect(row.getByRole('cell').nth(5)).toHaveText('1')

    const stranger = await freshBrowser(browser, baseURL, browserConsole.watch)
    const panel = new SignInPanel(stranger.page)
    await panel.goto()
    await panel.email.fill(`someone-${unique()}@gmail.com`)
    await panel.submit.click()
    await expect(panel.alert).toHaveText(signInMessages.notAuthorized)
    await stranger.context.close()
  })
})

test.describe('a company admin', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test("lowers a colleague's level, and the colleague's navigation follows without a reload", async ({
    page,
    shell,
    browser,
    browserConsole,
    baseURL,
  }) => {
    const email = `colleague-${unique()}@acme.example`
    const { auth, db } = sharedAdmin()
    const user = await auth.createUser({ email, emailVerified: true })
    await auth.setCustomUserClaims(user.uid, { userType: 'client', accessLevel: 2 })
    await db
      .doc(userAccessPath(user.uid))
      .set({ claims: { userType: 'client', accessLevel: 2 }, companies: ['acme'], servicesEnabled: [], servicesManaged: [] })
    await db.doc(userPreferencesPath(user.uid)).set({ defaultCompany: 'acme' })

    const colleague = await freshBrowser(browser, baseURL, browserConsole.watch)
    await new SignInPanel(colleague.page).signIn(email)
    await expect(colleague.shell.navLink('Reports')).toBeVisible()
    await expect(colleague.shell.navLink('DAST')).toBeVisible()

    await shell.open('/admin/company/manage-users')
    const table = page.getByRole('table', { name: 'People' })
    await page.getByRole('searchbox', { name: 'Search people' }).fill(email)
    await expect(table.getByText(email)).toBeVisible()
    await table.getByRole('button', { name: `Change ${email}` }).click()
    const dialog = page.getByRole('dialog', { name: `Change ${email}` })
    await expect(
      dialog.getByRole('combobox', { name: 'Level' }).getByRole('option', { name: /Senior analyst|Platform admin/ }),
    ).toHaveCount(0)
    await dialog.getByRole('combobox', { name: 'Level' }).selectOption({ label: '1 · Client viewer' })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('status').filter({ hasText: `${email} now has the access shown.` })).toBeVisible({ timeout: 20_000 })

    // A level-1 client without services sees no report: the Reports area leaves the menu.
    await expect(colleague.shell.navLink('Reports')).toHaveCount(0)
    await expect(colleague.shell.navLink('DAST')).toHaveCount(0)
    await expect(colleague.shell.navLink('Home')).toBeVisible()
    await colleague.context.close()
  })
})
