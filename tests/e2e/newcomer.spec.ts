// The workspace as a newcomer finds it: the page asked for survives sign-in, every area has a hub
// and sub-items, the company is in the header, and someone who cannot sign in can still write.
import { signInMessages } from '#domain/sign-in.ts'
import { supportMessages } from '#domain/support.ts'
import { OTHER_ADDRESS_MESSAGE } from '../../app/features/auth/sign-in-texts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { Shell } from './pages/shell'
import { resetSignInRateLimits } from './support/admin'
import { nextMail, signInLink } from './support/inbox'

test.describe('a deep link opened signed out', () => {
  test('leads back to the page asked for after the emailed link, and only to pages of this site', async ({ page, signInPanel }) => {
    test.setTimeout(90_000)
    const email = demoAccount('viewer@acme.example').email
    await page.goto('/reports/dast?severity=high&severity=critical')
    await expect(page.getByRole('heading', { name: 'You must be signed in' })).toBeVisible()
    await page.getByRole('link', { name: 'Go to home to sign in' }).click()
    await expect(page.getByTestId('return-after-sign-in')).toContainText('/reports/dast?severity=high&severity=critical')
    // Home stays marked as the page shown, with the page to return to in its address.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page')

    await resetSignInRateLimits()
    const before = Date.now()
    await signInPanel.email.fill(email)
    await signInPanel.submit.click()
    await expect(page.getByRole('status').filter({ hasText: signInMessages.sent })).toBeVisible({ timeout: 20_000 })
    await page.goto(signInLink(await nextMail(email, before)))
    await expect(page).toHaveURL('/reports/dast?severity=high&severity=critical', { timeout: 20_000 })
    await expect(page.getByRole('heading', { level: 1, name: /DAST/ })).toBeVisible()

    // Signed in, a `next` of this site is followed at once; one leaving the site is not.
    await page.goto('/?next=%2Freports%2Fnetwork')
    await expect(page).toHaveURL('/reports/network')
    await page.goto('/?next=%2F%2Fevil.example%2F')
    await expect(page).toHaveURL('/?next=%2F%2Fevil.example%2F')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Welcome/)
  })
})

test.describe('a deep link, its emailed link opened in another browser', () => {
  test('the Welcome dialog leads to the page asked for: the link itself carries it', async ({ browser, browserConsole, signInPanel }) => {
    test.setTimeout(90_000)
    const deep = '/reports/dast?severity=high&severity=critical'
    const email = demoAccount('viewer@acme.example').email
    const link = await signInPanel.requestLink(email, `/?next=${encodeURIComponent(deep)}`)
    // The page rides in the link's continue URL, not in this browser's storage.
    expect(new URL(new URL(link).searchParams.get('continueUrl') ?? '').searchParams.get('next')).toBe(deep)

    const other = await browser.newContext()
    browserConsole.watch(other)
    const otherPage = await other.newPage()
    await otherPage.goto(link)
    const dialog = otherPage.getByRole('dialog', { name: /Welcome/ })
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(otherPage).toHaveURL(deep, { timeout: 20_000 })
    await expect(otherPage.getByRole('heading', { level: 1, name: /DAST/ })).toBeVisible()
    await other.close()
  })

  test('a link whose page leaves the site leads home', async ({ browser, browserConsole, signInPanel }) => {
    test.setTimeout(90_000)
    const email = demoAccount('viewer@acme.example').email
    const link = new URL(await signInPanel.requestLink(email))
    // Someone edits the link: the continue URL now names another site's page.
    const continueUrl = new URL(link.searchParams.get('continueUrl') ?? '')
    continueUrl.searchParams.set('next', '//evil.example/')
    link.searchParams.set('continueUrl', continueUrl.toString())

    const other = await browser.newContext()
    browserConsole.watch(other)
    const otherPage = await other.newPage()
    await otherPage.goto(link.toString())
    const dialog = otherPage.getByRole('dialog', { name: /Welcome/ })
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(otherPage).toHaveURL('/', { timeout: 20_000 })
    await expect(otherPage.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeVisible()
    await other.close()
  })
})

test.describe('sign-in messages', () => {
  test('each outcome has its own look and role, and a new request clears the last one', async ({ page, signInPanel }) => {
    await signInPanel.goto()
    await signInPanel.email.fill('not-an-address')
    await signInPanel.submit.click()
    const refusal = page.getByRole('alert')
    await expect(refusal).toHaveText('Invalid email')
    await expect(refusal).toHaveAttribute('data-tone', 'error')

    await signInPanel.email.fill(demoAccount('viewer@acme.example').email)
    await resetSignInRateLimits()
    await signInPanel.submit.click()
    // While the request is on its way, the refusal is gone.
    await expect(refusal).toHaveCount(0)
    const sent = page.getByRole('status').filter({ hasText: signInMessages.sent })
    await expect(sent).toBeVisible({ timeout: 20_000 })
    await expect(sent).toHaveAttribute('data-tone', 'success')
  })

  test('a mistyped address in the Welcome dialog can be corrected: the link still works', async ({
    page,
    browser,
    browserConsole,
    signInPanel,
  }) => {
    // Auth answers the mistyped address with a 400, which the browser logs.
    browserConsole.allow(/Failed to load resource: the server responded with a status of 400/)
    const email = demoAccount('admin@acme.example').email
    const link = await signInPanel.requestLink(email)
    const other = await browser.newContext()
    browserConsole.watch(other)
    const otherPage = await other.newPage()
    await otherPage.goto(link)
    const dialog = otherPage.getByRole('dialog', { name: /Welcome/ })
    await dialog.getByRole('textbox', { name: 'Email' }).fill('admim@acme.example')
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(OTHER_ADDRESS_MESSAGE)
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(otherPage).toHaveURL('/', { timeout: 20_000 })
    await expect(otherPage.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeVisible()
    await other.close()
    await page.close()
  })
})

test.describe('signed out', () => {
  test('an unknown page stands alone with the logo; an unknown report says not found, not "no access"', async ({
    page,
    browserConsole,
  }) => {
    // The browser logs the 404 document loads themselves.
    browserConsole.allow(/status of 404/)
    await page.goto('/no-such-page')
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(page.getByRole('img', { name: 'Bulwark' })).toBeVisible()
    await page.goto('/reports/bogus')
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(page.getByRole('heading', { name: /You don't have access|You must be signed in/ })).toHaveCount(0)
  })

  test('a shortcut pressed before the page is interactive still works', async ({ page }) => {
    // The app's code is held back until the key is pressed: the page is painted, not yet hydrated.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/', { waitUntil: 'domcontentloaded' })
    await expect(page.getByRole('button', { name: 'Login with Link' })).toBeDisabled()
    await page.keyboard.press('Control+J')
    release()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorScheme)).toBe('dark')
    await page.keyboard.press('Control+J')
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorScheme)).toBe('light')
  })

  test('the shell: a skip link first, dialogs with a close button, the version popover says what each time is', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Login with Link' })).toBeEnabled()
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(page.locator('main#main')).toBeFocused()

    await page.keyboard.press('Control+H')
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await help.getByRole('button', { name: 'Close' }).click()
    await expect(help).toBeHidden()

    await page
      .getByRole('contentinfo')
      .getByRole('button', { name: /^Version/ })
      .click()
    const about = page.getByRole('dialog', { name: 'About this version' })
    await expect(about.getByRole('term')).toContainText(['Release', 'Last updated'])
    await expect(about).toContainText('when this copy of it was built')
  })

  test('the sign-in form comes first on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    await page.goto('/')
    const form = page.getByRole('region', { name: 'Sign in' })
    await expect(form).toBeInViewport()
    const formTop = (await form.boundingBox())!.y
    const heroTop = (await page.getByRole('heading', { level: 1 }).boundingBox())!.y
    expect(formTop).toBeLessThan(heroTop)
  })

  test('a person who cannot sign in can write to support, with their address', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Login with Link' })).toBeEnabled()
    const before = Date.now()
    await page.getByRole('contentinfo').getByRole('button', { name: 'Contact' }).click()
    const dialog = page.getByRole('dialog', { name: 'Contact support' })
    await dialog.getByRole('textbox', { name: 'Message' }).fill('My sign-in link never arrives.')
    await dialog.getByRole('textbox', { name: 'Your email' }).fill('locked-out')
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Invalid email')
    const address = `locked-out-${Date.now()}@nowhere.example`
    await dialog.getByRole('textbox', { name: 'Your email' }).fill(address)
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByText(supportMessages.sent, { exact: true })).toBeVisible({ timeout: 20_000 })
    const mail = await nextMail('support@bulwark.example', before)
    expect(mail.text).toContain('My sign-in link never arrives.')
    expect(mail.text).toContain(address)
    expect(mail.text).toContain('not signed in')
  })
})

test.describe('the manager, in three companies', () => {
  test.use({ signedInAs: 'manager@acme.example' })

  test('sees the active company in the header and switches from there', async ({ page, shell }) => {
    await shell.open('/')
    const switcher = shell.banner.getByRole('button', { name: /^Company: / })
    const name = shell.banner.getByTestId('company-name')
    const before = (await name.textContent()) ?? ''
    expect(before).not.toBe('')
    const other = before.startsWith('Initech') ? 'Acme Corporation' : 'Initech'
    await switcher.click()
    const menu = page.getByRole('menu')
    await expect(menu.getByRole('menuitemradio')).toHaveCount(3)
    await menu.getByRole('menuitemradio', { name: new RegExp(`^${other}`) }).click()
    await expect(name).toHaveText(new RegExp(`^${other}`))
    await expect(switcher).toHaveAccessibleName(new RegExp(`Company: ${other}`))
    // Back as it was for the other tests.
    await switcher.click()
    await page.getByRole('menu').getByRole('menuitemradio', { name: before }).click()
    await expect(name).toHaveText(before)
  })

  test('their name in the header, cut when long, has the whole of it as a tooltip', async ({ page, shell }) => {
    await page.setViewportSize({ width: 1024, height: 800 })
    await shell.open('/')
    const name = shell.userMenuButton.locator('[title]').first()
    await expect(name).toBeVisible()
    const whole = await name.getAttribute('title')
    expect(whole).toBeTruthy()
    expect(await name.textContent()).toBe(whole)
  })

  test('an unknown report says not found to a signed-in person too', async ({ shell, browserConsole }) => {
    browserConsole.allow(/status of 404/)
    await shell.page.goto('/reports/bogus')
    await expect(shell.page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(shell.accessDenied).toHaveCount(0)
  })

  test('home lists only the areas the person may open, as links', async ({ page, shell }) => {
    await shell.open('/')
    const areas = page.getByRole('navigation', { name: 'Your areas' })
    await expect(areas.getByRole('link')).toHaveCount(1)
    await expect(areas.getByRole('link', { name: /^Reports/ })).toHaveAttribute('href', '/reports')
  })
})

test.describe('the senior analyst', () => {
  test.use({ signedInAs: 'senior@sectest.example' })

  test('every area has its sub-items in navigation, folded and unfolded, remembered', async ({ page, shell }) => {
    await shell.open('/')
    await expect(shell.navLink('Finding templates')).toBeVisible()
    await expect(shell.navLink('Vault share link')).toBeVisible()
    await expect(shell.navLink('Password cracking service')).toBeVisible()

    const fold = shell.nav.getByRole('button', { name: 'Hide the pages of Analyst' })
    await fold.click()
    await expect(shell.navLink('Vault share link')).toBeHidden()
    await expect(shell.nav.getByRole('button', { name: 'Show the pages of Analyst' })).toHaveAttribute('aria-expanded', 'false')
    await page.reload()
    await expect(shell.userMenuButton).toBeEnabled()
    await expect(shell.navLink('Vault share link')).toBeHidden()
    await expect(shell.navLink('Finding templates')).toBeVisible()
    await shell.nav.getByRole('button', { name: 'Show the pages of Analyst' }).click()
    await expect(shell.navLink('Vault share link')).toBeVisible()
  })

  test('the Analyst and Templates hubs list their pages with a line each, and the library its count', async ({ page, shell }) => {
    await shell.open('/analyst')
    const analyst = page.getByRole('navigation', { name: 'Analyst pages' })
    await expect(analyst.getByRole('link', { name: /^Vault request link/ })).toContainText('Ask a client for a secret')
    await expect(analyst.getByRole('link', { name: /^DAST service/ })).toHaveAttribute('href', '/analyst/services/dast')

    await shell.open('/templates')
    const templates = page.getByRole('navigation', { name: 'Templates pages' })
    await expect(templates.getByRole('link', { name: /^Finding templates/ })).toContainText(/\d[\d,]* templates/)
  })
})

test.describe('two tabs of the viewer', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('signing out in one tab ends the other quietly: its listeners stop before they can be refused', async ({ page, context, shell }) => {
    await shell.open('/')
    const other = await context.newPage()
    const otherShell = new Shell(other)
    await otherShell.open('/reports/dast')
    await expect(other.getByRole('heading', { level: 1, name: /DAST/ })).toBeVisible()
    await shell.signOut()
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await expect(other.getByRole('heading', { name: 'You must be signed in' })).toBeVisible()
    // The fixture fails the test on any console error in either tab (a refused listener logs one).
  })
})

test.describe('the analyst (level 5)', () => {
  test.use({ signedInAs: 'analyst@sectest.example' })

  test('the Analyst hub offers only the pages their access opens', async ({ page, shell }) => {
    await shell.open('/analyst')
    const analyst = page.getByRole('navigation', { name: 'Analyst pages' })
    await expect(analyst.getByRole('link', { name: /^Password cracking service/ })).toBeVisible()
    await expect(analyst.getByRole('link', { name: /^DAST service/ })).toHaveCount(0)
  })
})

test.describe('the platform admin', () => {
  test.use({ signedInAs: 'platform@sectest.example' })

  test('the Administration hub lists its areas with a line each and live counts', async ({ page, shell }) => {
    await shell.open('/admin')
    const areas = page.getByRole('list', { name: 'Administration areas' })
    expect(await areas.getByRole('link').count()).toBeGreaterThan(2)
    for (const item of await areas.getByRole('listitem').all()) await expect(item.locator('p').first()).not.toBeEmpty()
    await expect(areas.locator('[data-count="companies"]')).toHaveText(/^\d+ companies$/)
    await expect(areas.locator('[data-count]').filter({ hasText: /people can sign in|person can sign in/ })).toBeVisible()
    await expect(shell.nav.getByRole('button', { name: 'Hide the pages of Administration' })).toBeVisible()
  })
})
