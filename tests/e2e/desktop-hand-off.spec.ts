// A sign-in link asked for in the desktop app and opened in a browser (any mail client opens links
// there): the browser's sign-in page hands the whole link to the app through its URL scheme, and
// can still complete it itself. A link asked for in the browser completes there, as before.
import { SIGN_IN_PATH, signInMessages, VIA_DESKTOP, type SignInResponse } from '#domain/sign-in.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { expect, test } from './fixtures'
import { resetSignInRateLimits } from './support/admin'
import { nextMail, signInLink } from './support/inbox'

/** The desktop app's sign-in request (see the sign-in panel), sent to the callable; resolves with the emailed link. */
async function requestLinkAsTheDesktopApp(email: string, origin: string): Promise<string> {
  await resetSignInRateLimits()
  const before = Date.now()
  const data = { email, url: `${origin}${SIGN_IN_PATH}`, timeZone: 'Europe/London', via: VIA_DESKTOP }
  const response = await fetch(`http://${EMULATOR_HOST}:${EMULATOR_PORTS.functions}/${PROJECT_ID}/us-central1/sendSignInLink`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  })
  expect(((await response.json()) as { result: SignInResponse }).result).toEqual({ success: true, message: signInMessages.sent })
  return signInLink(await nextMail(email, before))
}

/** What the page opens through an `<a href="bulwark:…">`: recorded, and not handed on (no app here). */
const recordAppLinks = () => {
  const opened: string[] = []
  ;(window as unknown as { openedInApp: string[] }).openedInApp = opened
  window.addEventListener(
    'click',
    (event) => {
      const anchor = (event.target as Element | null)?.closest?.('a[href^="bulwark:"]')
      if (!anchor) return
      opened.push(anchor.getAttribute('href')!)
      event.preventDefault()
    },
    true,
  )
}

test.describe('a sign-in link from the desktop app, opened in a browser', () => {
  test('opens Bulwark with the whole link, and signs in here when the person chooses the browser', async ({ page, baseURL }) => {
    const email = demoAccount('viewer@acme.example').email
    const link = new URL(await requestLinkAsTheDesktopApp(email, baseURL!))
    expect(new URL(link.searchParams.get('continueUrl')!).searchParams.get('via')).toBe('desktop')

    await page.addInitScript(recordAppLinks)
    await page.goto(link.href)
    const open = page.getByRole('link', { name: 'Open in Bulwark' })
    await expect(open).toBeVisible()
    const expected = `bulwark://auth/redirect?${new URLSearchParams({
      mode: 'signIn',
      oobCode: link.searchParams.get('oobCode')!,
      apiKey: link.searchParams.get('apiKey')!,
      lang: link.searchParams.get('lang')!,
    })}`
    await expect(open).toHaveAttribute('href', expected)
    // Opened without a click, once.
    await expect.poll(() => page.evaluate(() => (window as unknown as { openedInApp: string[] }).openedInApp)).toEqual([expected])
    // Not completed here: the one-time code is the app's, and it has left the address bar.
    await expect(page).toHaveURL(SIGN_IN_PATH)
    await expect(page.getByRole('dialog', { name: /Welcome/ })).toHaveCount(0)

    await expect(page.getByText('Bulwark did not open?')).toBeVisible()
    await page.screenshot({ path: '.local/screenshots/desktop-hand-off.png' })
    await page.getByRole('button', { name: 'Sign in here in the browser instead' }).click()
    // This browser did not ask for the link, so it asks for the address (as for any other browser).
    const dialog = page.getByRole('dialog', { name: /Welcome/ })
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email)
    await dialog.getByRole('button', { name: 'Login with Link' }).click()
    await expect(page).toHaveURL('/', { timeout: 20_000 })
    await expect(page.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeVisible()
  })

  test('a link asked for in the browser completes in the browser, with no hand-off', async ({ page, signInPanel }) => {
    const email = demoAccount('manager@acme.example').email
    const link = new URL(await signInPanel.requestLink(email))
    expect(new URL(link.searchParams.get('continueUrl')!).searchParams.has('via')).toBe(false)
    await page.addInitScript(recordAppLinks)
    await page.goto(link.href)
    await expect(page).toHaveURL('/', { timeout: 20_000 })
    await expect(page.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { openedInApp: string[] }).openedInApp)).toEqual([])
  })
})
