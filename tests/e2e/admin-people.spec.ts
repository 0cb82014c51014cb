import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext } from '@playwright/test'
import { peopleMessages } from '#domain/admin-people-calls.ts'
import { emailKeyMessages } from '#domain/email-keys.ts'
import { signInMessages } from '#domain/sign-in.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { slugFromName } from '#domain/company-admin.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'
import { CompaniesPage } from './pages/admin-org'
import { Shell } from './pages/shell'
import { SignInPanel } from './pages/sign-in-panel'
import { documentOf } from './support/admin'
import { nextMail, signInLink } from './support/inbox'

const INBOX = `http://127.0.0.1:${process.env.MAIL_HTTP_PORT ?? 1080}`

/** Every mail the inbox holds for `to`. */
const mailsTo = async (to: string): Promise<unknown[]> =>
  (await (await fetch(`${INBOX}/api/messages?to=${encodeURIComponent(to)}`)).json()) as unknown[]

const unique = () => randomUUID().slice(0, 8)

/** A wait sized for a callable or a sign-in and the listener that shows its outcome, on a busy machine. */
const ROUND_TRIP = { timeout: 20_000 }

/** A fresh browser with nobody signed in, watched for console problems like the test's own. */
async function freshBrowser(browser: Browser, baseURL: string | undefined, watch: (context: BrowserContext) => void) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
  watch(context)
  const page = await context.newPage()
  return { context, page, shell: new Shell(page) }
}

test.describe('a platform admin', () => {
  test.use({ signedInAs: 'platform@sectest.example' })

  test('creates a company, invites a person into it, who receives the mail, signs in and lands in that company with the access given', async ({
    page,
    browser,
    browserConsole,
    baseURL,
  }) => {
    // Two people, three callables, a mail and a sign-in with its claims: on a busy machine each
    // round trip may take seconds, so the test waits on each outcome, within a budget for all.
    test.setTimeout(120_000)
    const name = `Invited Co ${unique()}`
    const slug = slugFromName(name)
    const email = `invitee-${unique()}@invited.example`

    // The company first: the catalogue's defaults ticked, and network results too.
    const companies = new CompaniesPage(page)
    await companies.openCreate()
    await companies.service('Network results').check()
    await companies.create(name)
    await expect(page).toHaveURL(new RegExp(`/admin/company\\?company=${slug}$`), ROUND_TRIP)

    // Then the person, into that company: a client viewer with network enabled.
    await companies.shell.open('/admin/app/users')
    await expect(page.getByRole('table', { name: 'People' })).toBeVisible(ROUND_TRIP)
    await page.getByRole('button', { name: 'Invite a person' }).click()
    const dialog = page.getByRole('dialog', { name: 'Invite a person' })
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('combobox', { name: 'Level' }).selectOption({ label: '1 · Client viewer' })
    await dialog.getByRole('group', { name: 'Companies' }).getByRole('checkbox', { name }).check()
    await dialog.getByRole('group', { name: 'Services enabled' }).getByRole('checkbox', { name: 'Network' }).check()
    const sent = Date.now()
    await dialog.getByRole('button', { name: 'Invite' }).click()
    await expect(page.getByRole('status').filter({ hasText: `Invited ${email}` })).toBeVisible(ROUND_TRIP)
    await page.getByRole('searchbox', { name: 'Search people' }).fill(email)
    await expect(page.getByRole('table', { name: 'People' }).getByText(email)).toBeVisible(ROUND_TRIP)

    const mail = await nextMail(email, sent, ROUND_TRIP.timeout)
    expect(mail.subject).toBe('You are invited to Bulwark')
    expect(mail.text).toContain('platform@sectest.example invited you')

    const invitee = await freshBrowser(browser, baseURL, browserConsole.watch)
    await invitee.page.goto(signInLink(mail))
    const welcome = invitee.page.getByRole('dialog', { name: /Welcome/ })
    await welcome.getByRole('textbox', { name: 'Email' }).fill(email)
    await welcome.getByRole('button', { name: 'Login with Link' }).click()
    await expect(invitee.page).toHaveURL('/', ROUND_TRIP)
    await expect(invitee.shell.userMenuButton).toBeEnabled(ROUND_TRIP)
    // In the new company, at level 1 with network only: Home, Reports and its network report.
    await expect(invitee.shell.main.getByRole('heading', { name: `Latest in ${name}` })).toBeVisible(ROUND_TRIP)
    const links = invitee.shell.nav.getByRole('link')
    await expect(links).toHaveCount(3, ROUND_TRIP)
    await expect(invitee.shell.navLink('Home')).toBeVisible()
    await expect(invitee.shell.navLink('Reports')).toBeVisible()
    await expect(invitee.shell.navLink('Network')).toBeVisible()
    const { uid } = await sharedAdmin().auth.getUserByEmail(email)
    expect(await documentOf(userAccessPath(uid))).toMatchObject({
      claims: { accessLevel: 1, userType: 'client' },
      companies: [slug],
      servicesEnabled: ['network'],
    })
    // The page is refused as the card says, 403 to the browser.
    browserConsole.allow(/status of 403/)
    await invitee.shell.open('/admin')
    await expect(invitee.shell.accessDenied).toBeVisible()
    await invitee.context.close()

    // The invitation is in the new company's audit trail.
    await companies.shell.open(`/admin/company?company=${slug}`)
    await expect(companies.auditRows().filter({ hasText: 'Person invited' }).filter({ hasText: email })).toHaveCount(1, ROUND_TRIP)
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

    // A consumer address is answered exactly like any other (nothing tells which domains have
    // keys), but gets no account and no mail.
    const stranger = await freshBrowser(browser, baseURL, browserConsole.watch)
    const panel = new SignInPanel(stranger.page)
    const consumer = `someone-${unique()}@gmail.com`
    await panel.goto()
    await panel.email.fill(consumer)
    await panel.submit.click()
    await expect(stranger.page.getByRole('status').filter({ hasText: signInMessages.sent })).toBeVisible({ timeout: 20_000 })
    await expect(sharedAdmin().auth.getUserByEmail(consumer)).rejects.toMatchObject({ code: 'auth/user-not-found' })
    expect(await mailsTo(consumer)).toEqual([])
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

    // A demotion ends the colleague's sign-ins (decision 0019): their open page loses the reports
    // and signs out by itself. Which of its listeners hears first is a race; a refused company read
    // says so in the console before it signs out.
    browserConsole.allow(/Company acme could not be read/)
    await expect(colleague.shell.navLink('Reports')).toHaveCount(0)
    await expect(colleague.shell.navLink('DAST')).toHaveCount(0)
    await expect(colleague.shell.navLink('Home')).toBeVisible()
    await expect(colleague.page.getByRole('button', { name: 'Login with Link' })).toBeVisible()
    await colleague.context.close()
  })
})

test.describe('a company admin who removed someone', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('finds them under Removed people, is pointed there by a new invitation, restores them, and their open page gets the company back', async ({
    page,
    shell,
    browser,
    browserConsole,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const email = `removed-${unique()}@acme.example`
    const { auth, db } = sharedAdmin()
    const user = await auth.createUser({ email, emailVerified: true })
    await auth.setCustomUserClaims(user.uid, { userType: 'client', accessLevel: 2 })
    await db.doc(userAccessPath(user.uid)).set({
      claims: { userType: 'client', accessLevel: 2 },
      companies: ['acme'],
      servicesEnabled: [],
      servicesManaged: [],
      email,
    })
    await db.doc(userPreferencesPath(user.uid)).set({ defaultCompany: 'acme' })

    const colleague = await freshBrowser(browser, baseURL, browserConsole.watch)
    await new SignInPanel(colleague.page).signIn(email)
    await expect(colleague.shell.navLink('Reports')).toBeVisible(ROUND_TRIP)

    await shell.open('/admin/company/manage-users')
    const table = page.getByRole('table', { name: 'People' })
    await page.getByRole('searchbox', { name: 'Search people' }).fill(email)
    await table.getByRole('button', { name: `Remove ${email}` }).click(ROUND_TRIP)
    await page.getByRole('dialog', { name: 'Remove from company' }).getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByRole('status').filter({ hasText: `${email} is removed from Acme Corporation` })).toBeVisible(ROUND_TRIP)
    await expect(table.getByText(email)).toHaveCount(0, ROUND_TRIP)
    // Their open page loses the company's reports (its company read is refused on the way, and says so).
    browserConsole.allow(/Company acme could not be read/)
    await expect(colleague.shell.navLink('Reports')).toHaveCount(0, ROUND_TRIP)

    // Inviting them again says where they are instead of that the address has an account.
    browserConsole.allow(/409 \(Conflict\) @ .*\/inviteUser$/)
    await page.getByRole('button', { name: 'Invite a person' }).click()
    const dialog = page.getByRole('dialog', { name: 'Invite a person' })
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('button', { name: 'Invite' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(peopleMessages.removedHere, ROUND_TRIP)
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Removed people' })
    const row = table.getByRole('row').filter({ hasText: email })
    await expect(row).toContainText('removed', ROUND_TRIP)
    await expect(row).toContainText('Client manager')
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.getByRole('region', { name: 'People' }).screenshot({ path: `.local/screenshots/people-removed-${scheme}.png` })
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await row.getByRole('button', { name: `Restore ${email}` }).click()
    await expect(
      page.getByRole('status').filter({ hasText: `${email} is restored to Acme Corporation, with the access they had.` }),
    ).toBeVisible(ROUND_TRIP)
    await expect(table.getByText(email)).toHaveCount(0, ROUND_TRIP)
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'People in the company' })
    await expect(table.getByRole('row').filter({ hasText: email })).toContainText('Client manager', ROUND_TRIP)

    // Their page follows without a reload: the company and its reports are back.
    await expect(colleague.shell.navLink('Reports')).toBeVisible(ROUND_TRIP)
    expect(await documentOf(userAccessPath(user.uid))).toMatchObject({ companies: ['acme'], removedFrom: [] })
    await colleague.context.close()
  })
})

test.describe('a senior analyst', () => {
  test.use({ signedInAs: 'senior@sectest.example' })

  test("reads a company's people without being offered changes the server would refuse", async ({ page, shell }) => {
    await shell.open('/admin/company/manage-users')
    const table = page.getByRole('table', { name: 'People' })
    await expect(table.getByText('admin@acme.example')).toBeVisible()
    // A page of the company's people, with the number of them all.
    await expect(page.getByText(/^Showing \d+ of \d+ (people|person)\./)).toBeVisible()
    await expect(
      page.getByText('You can read this company’s people; its administrators and platform administrators change them.'),
    ).toBeVisible()
    await expect(table.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^(Change|Revoke sessions of|Remove) / })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Invite a person' })).toHaveCount(0)
  })
})
