import type { BrowserContext } from '@playwright/test'
import { signInMessages } from '#domain/sign-in.ts'
import { OTHER_ADDRESS_MESSAGE } from '../../app/features/auth/sign-in-texts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { revokeSignIns } from './support/admin'
import { mailsTo } from './support/inbox'

const sessionCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === '__Host-session')

test.describe('sign-in by emailed link', () => {
  test('the link from the inbox signs in on the same browser, and the server renders signed in afterwards', async ({
    page,
    signInPanel,
  }) => {
    const email = demoAccount('viewer@acme.example').email
    await signInPanel.signIn(email)
    expect(await page.evaluate(() => localStorage.getItem('emailForSignIn'))).toBeNull()

    const cookie = await sessionCookie(page.context())
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' })

    // A reload is server-rendered signed in: the HTML already has the user, not the sign-in panel.
    const html = await (await page.request.get('/reports')).text()
    expect(html).toContain(email)
    expect(html).not.toContain('You must be signed in')
    await page.goto('/reports')
    await expect(page.getByText('You must be signed in')).toHaveCount(0)
  })

  test('a link opened in another browser asks for the email in the Welcome dialog, then signs in', async ({
    browser,
    browserConsole,
    signInPanel,
  }) => {
    const email = demoAccount('manager@acme.example').email
    const link = await signInPanel.requestLink(email)

    const other = await browser.newContext()
    browserConsole.watch(other)
    const otherPage = await other.newPage()
    await otherPage.goto(link)
    const dialog = otherPage.getByRole('dialog', { name: /Welcome/ })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByText('Please provide your email to sign in')).toBeVisible()
    await dialog.getByRole('button', { name: 'Why we ask for your email' }).focus()
    await expect(otherPage.getByRole('tooltip')).toContainText('session fixation')

    await dialog.getByRole('textbox', { name: 'Email' }).fill('not-an-email')
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Invalid email')

    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(otherPage).toHaveURL('/')
    await expect(otherPage.getByRole('banner').getByText(email)).toBeVisible()
    await other.close()
  })

  test('a used link is refused with its fixed message, and another email is told apart', async ({
    page,
    browser,
    browserConsole,
    signInPanel,
  }) => {
    // Auth answers the refused sign-ins with 400s, which the browser logs.
    browserConsole.allow(/Failed to load resource: the server responded with a status of 400/)
    const email = demoAccount('admin@acme.example').email
    const link = await signInPanel.requestLink(email)

    const mismatch = await browser.newContext()
    browserConsole.watch(mismatch)
    const mismatchPage = await mismatch.newPage()
    await mismatchPage.goto(link)
    const dialog = mismatchPage.getByRole('dialog', { name: /Welcome/ })
    // Another address is a typo to correct (newcomer.spec.ts): the link is refused only once used.
    await dialog.getByRole('textbox', { name: 'Email' }).fill('someone-else@acme.example')
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(OTHER_ADDRESS_MESSAGE)
    await mismatch.close()

    await page.goto(link)
    await expect(page).toHaveURL('/')
    // Used once: opening it again (the stored address is gone by now) is refused.
    await page.goto(link)
    const again = page.getByRole('dialog', { name: /Welcome/ })
    await again.getByRole('textbox', { name: 'Email' }).fill(email)
    await again.getByRole('button', { name: 'Login with Link' }).click()
    await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible()
    await expect(page.getByText(signInMessages.linkInvalid).first()).toBeVisible()
  })

  test('an address allowed by an email key signs in the first time and gets its access', async ({ page, signInPanel, browserConsole }) => {
    // The seed's email key lets anyone at initech.example in, as a level-1 client of Initech.
    await signInPanel.signIn('newcomer@initech.example')
    // No service is theirs yet: the server knows them and refuses the reports (403), rather than
    // asking them to sign in.
    browserConsole.allow(/status of 403/)
    const response = await page.goto('/reports')
    expect(response?.status()).toBe(403)
    await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible()
    await expect(page.getByText('You must be signed in')).toHaveCount(0)
  })

  test('an address that may not sign in is answered as one that may (no mail), an invalid one is told so', async ({ signInPanel }) => {
    await signInPanel.goto()
    await signInPanel.submit.click()
    await expect(signInPanel.alert).toHaveText('Invalid email')
    const stranger = `nobody-${Date.now()}@nowhere.example`
    await signInPanel.email.fill(stranger)
    await signInPanel.submit.click()
    await expect(signInPanel.page.getByRole('status').filter({ hasText: signInMessages.sent })).toBeVisible()
    expect(await mailsTo(stranger)).toEqual([])
  })

  test('a refused token is answered with one plain message: no reason, stack or cause', async ({ page, signInPanel }) => {
    const calls: { url: string; body: string; idToken: string; headers: Record<string, string> }[] = []
    page.on('request', (request) => {
      const body = request.postData() ?? ''
      // The server function's payload (Start's serialisation) holds the ID token as a string.
      const idToken = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*/.exec(body)?.[0]
      if (request.url().includes('/_serverFn/') && idToken) calls.push({ url: request.url(), body, idToken, headers: request.headers() })
    })
    await signInPanel.signIn(demoAccount('viewer@acme.example').email)
    await expect.poll(() => calls.length).toBeGreaterThan(0)
    const { url, body, idToken, headers } = calls[0]!
    delete headers['content-length']
    const response = await page.request.post(url, {
      headers: { ...headers, 'Sec-Fetch-Site': 'same-origin', Origin: new URL(url).origin },
      data: body.replace(idToken, `${idToken.split('.')[0]}.e30.`),
    })
    const text = await response.text()
    expect(text).toContain('The sign-in could not be verified')
    for (const leak of ['stack', 'cause', 'IdTokenError', 'rejected:', '.js:']) expect(text).not.toContain(leak)
  })

  test('an expired ID token is refreshed at the edge, and the page still renders signed in', async ({ page, signInPanel }) => {
    const email = demoAccount('analyst@sectest.example').email
    await signInPanel.signIn(email)
    const cookie = (await sessionCookie(page.context()))!
    // Emulator tokens are unsigned, so an expired copy of the user's token can be made here.
    const [header, payload] = cookie.value.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const expired = { ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600, auth_time: claims.auth_time - 7200 }
    const expiredToken = `${header}.${Buffer.from(JSON.stringify(expired)).toString('base64url')}.`
    await page.context().addCookies([{ ...cookie, value: expiredToken }])

    const response = await page.request.get('/reports')
    const html = await response.text()
    expect(html).toContain(email)
    expect(html).not.toContain('You must be signed in')
    const renewed = (await sessionCookie(page.context()))!
    expect(renewed.value).not.toBe(expiredToken)
    expect(JSON.parse(Buffer.from(renewed.value.split('.')[1]!, 'base64url').toString()).exp).toBeGreaterThan(Date.now() / 1000)
  })

  test('a revoked user is signed out live, without reload', async ({ page, browserConsole, demoSessions, signInPanel }) => {
    // The SDK's token refresh is refused once the sign-in is revoked.
    browserConsole.allow(/Failed to load resource: the server responded with a status of 400/)
    const account = demoAccount('senior@sectest.example')
    await signInPanel.signIn(account.email)
    await page.goto('/reports')
    await expect(page.getByText('You must be signed in')).toHaveCount(0)
    await page.evaluate(() => ((window as { __stayed?: boolean }).__stayed = true))

    await revokeSignIns(account.uid)
    // Browser states saved for this user hold a revoked sign-in from now on.
    demoSessions.forget(account.email)

    await expect(page.getByRole('heading', { name: 'You must be signed in' })).toBeVisible({ timeout: 10_000 })
    await expect(page.getByRole('banner').getByText(account.email)).toHaveCount(0)
    expect(await page.evaluate(() => (window as { __stayed?: boolean }).__stayed)).toBe(true)
    await expect.poll(() => sessionCookie(page.context())).toBeUndefined()
    const html = await (await page.request.get('/reports')).text()
    expect(html).toContain('You must be signed in')
  })

  test('sign-out ends the session on this browser, cookies included', async ({ page, shell, signInPanel }) => {
    const email = demoAccount('platform@sectest.example').email
    await signInPanel.signIn(email)
    await shell.signOut()
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    // The page turns signed out at once; the edge's answer clearing the cookies follows.
    await expect
      .poll(async () => (await page.context().cookies()).map((c) => c.name).filter((name) => name.startsWith('__Host-')))
      .toEqual([])
    // A session hand-over still under way at sign-out must not bring them back.
    await expect(page.getByRole('banner').getByRole('button', { name: 'User menu' })).toHaveCount(0)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await expect(shell.nav.getByRole('link')).toHaveText(['Home'])
  })

  test('a copy of the cookies taken before sign-out no longer renews the session', async ({
    page,
    browser,
    browserConsole,
    shell,
    signInPanel,
  }) => {
    // Signing out right after signing in can cut off the home page's record of the visit.
    browserConsole.allow(/The visit could not be recorded FirebaseError: PERMISSION_DENIED/)
    const email = demoAccount('platform@sectest.example').email
    await signInPanel.signIn(email)
    const copied = await page.context().cookies()
    await shell.signOut()
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()

    // The copy, with its ID token expired, so the edge has to renew it with the sealed cookie.
    const session = copied.find((c) => c.name === '__Host-session')!
    const [header, payload] = session.value.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const expired = { ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600, auth_time: claims.auth_time - 7200 }
    const other = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    await other.addCookies(
      copied.map((c) =>
        c.name === '__Host-session' ? { ...c, value: `${header}.${Buffer.from(JSON.stringify(expired)).toString('base64url')}.` } : c,
      ),
    )
    const html = await (await other.request.get('/reports')).text()
    expect(html).toContain('You must be signed in')
    expect(html).not.toContain(email)
    await other.close()
  })
})

test.describe('home, signed in, with a page to return to', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('the server sends on to a page of this site, and never to a path that leaves it once normalised or decoded', async ({ page }) => {
    const own = await page.request.get('/?next=%2Freports%2Fnetwork', { maxRedirects: 0 })
    expect(own.status()).toBe(307)
    expect(own.headers().location).toBe('/reports/network')
    for (const next of [
      '/..//evil.example/login',
      '/.//evil.example',
      '/%2e%2e//evil.example',
      '/%5c%5cevil.example',
      '/%09/evil.example',
    ]) {
      const response = await page.request.get(`/?next=${encodeURIComponent(next)}`, { maxRedirects: 0 })
      expect(response.status(), next).toBe(200)
      expect(response.headers().location, next).toBeUndefined()
    }
  })
})
