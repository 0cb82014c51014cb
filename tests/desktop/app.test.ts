// The desktop app as a person uses it: a real window under Xvfb, driven through WebKit's WebDriver,
// showing the local stack. One app instance runs through the file, as a person's would.
import { chromium } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInMessages, SIGN_IN_PATH } from '#domain/sign-in.ts'
import { resetSignInRateLimits } from '../e2e/support/admin'
import { nextMail, signInLink } from '../e2e/support/inbox'
import { chromiumArgs, chromiumExecutable } from '../support/chromium'
import { DesktopHarness, PRODUCT_URL } from './support/desktop'
import { waitFor, type WebDriverSession } from './support/webdriver'

const harness = new DesktopHarness()
let app: WebDriverSession

const exists = (css: string) => app.execute<boolean>('return !!document.querySelector(arguments[0])', css)
const scheme = () => app.execute<string>('return document.documentElement.dataset.colorScheme ?? "auto"')
const menuOpen = () =>
  app.execute<string | null>('return document.querySelector("[aria-controls=navbar]")?.getAttribute("aria-expanded") ?? null')
const dialogTitle = () => app.execute<string | null>('return document.querySelector("[role=dialog]")?.textContent ?? null')
/** An app command called from the page, as the web app calls it; resolves to 'ok' or the refusal. */
const tryCommand = (command: string, args: Record<string, unknown>) =>
  app.run<string>(
    `try { await window.__TAURI_INTERNALS__.invoke(args[0], args[1]); return 'ok' } catch (error) { return 'refused: ' + String(error) }`,
    command,
    args,
  )

/** The address the browser's sign-in page opens for `link` ("Open in Bulwark"), in Chromium. */
async function appLinkFromTheBrowser(link: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs })
  try {
    const page = await browser.newPage()
    // The page opens the address itself; here it goes to the app below, not to this machine's handler.
    await page.addInitScript(() =>
      window.addEventListener(
        'click',
        (event) => (event.target as Element).closest?.('a[href^="bulwark:"]') && event.preventDefault(),
        true,
      ),
    )
    await page.goto(link)
    const open = page.getByRole('link', { name: 'Open in Bulwark' })
    await open.waitFor()
    return (await open.getAttribute('href'))!
  } finally {
    await browser.close()
  }
}

beforeAll(async () => {
  await harness.start()
  app = await harness.launch()
})

afterAll(async () => {
  await harness.stop()
})

describe('the desktop app', () => {
  it('starts and shows Home from the configured address', async () => {
    await waitFor('Home', async () => (await app.url()) === PRODUCT_URL && (await exists('input[type=email]')))
    expect(await app.title()).toContain('Bulwark')
    expect(harness.windowId()).toMatch(/^\d+$/)
    // The whole screen (WebDriver's own screenshot of the webview can stall for minutes on a busy machine).
    harness.screen('home')
  })

  it('completes sign-in when the emailed link is handed to the running app, landing on /', async () => {
    const email = 'viewer@acme.example'
    await resetSignInRateLimits()
    const before = Date.now()
    await app.type(await app.find('input[type=email]'), email)
    await app.click(await app.findByXPath('//button[normalize-space()="Login with Link"]'))
    await waitFor('the link sent', async () => (await app.execute<string>('return document.body.innerText')).includes(signInMessages.sent))
    const link = new URL(signInLink(await nextMail(email, before)))
    // The app asks for links that continue to the sign-in page itself (SIGN_IN_PATH), marked as the app's.
    expect(new URL(link.searchParams.get('continueUrl')!).href).toBe(new URL(`${SIGN_IN_PATH}?via=desktop`, PRODUCT_URL).href)

    // The person opens the emailed link from their mail client: it opens in the browser, whose
    // sign-in page hands it on as a bulwark:// address.
    const handed = await appLinkFromTheBrowser(link.href)
    expect(handed).toMatch(/^bulwark:\/\/auth\/redirect\?mode=signIn&oobCode=[\w-]+&/)
    // What the desktop's URL handler runs for a bulwark:// address: the app again, with it.
    expect(await harness.launchAgain([handed])).toBe(0)
    await waitFor(
      'signed in on /',
      async () => (await app.url()) === PRODUCT_URL && (await exists('button[aria-label="User menu"]')),
      30_000,
    )
    expect(await app.windowHandles()).toHaveLength(1)
    harness.screen('signed-in')
  })

  it('runs the shortcuts through the native menu, and signs out from it', async () => {
    const before = await scheme()
    harness.keys('ctrl+j')
    await waitFor('the other colour scheme', async () => (await scheme()) !== before)
    const after = await scheme()
    harness.keys('ctrl+j')
    await waitFor('the colour scheme back', async () => (await scheme()) !== after)

    const wasOpen = await menuOpen()
    harness.keys('ctrl+m')
    await waitFor('the menu toggled', async () => (await menuOpen()) !== wasOpen)
    harness.keys('ctrl+m')
    await waitFor('the menu back', async () => (await menuOpen()) === wasOpen)

    harness.keys('ctrl+h')
    await waitFor('the shortcuts help', async () => (await dialogTitle())?.includes('Keyboard shortcuts'))
    harness.screen('shortcuts-help')
    harness.keys('Escape')
    await waitFor('the help closed', async () => (await dialogTitle()) === null)

    // The menu bar itself, opened from the keyboard: View, then its first item (Light/dark).
    const current = await scheme()
    harness.keys('alt+v')
    harness.screen('view-menu')
    harness.keys('Return')
    await waitFor('the scheme switched from the View menu', async () => (await scheme()) !== current)

    harness.keys('alt+b')
    harness.screen('bulwark-menu')
    harness.keys('Return')
    await waitFor('signed out on Home', async () => (await app.url()) === PRODUCT_URL && (await exists('input[type=email]')), 20_000)
  })

  it('a second launch brings the first window to the front, focused, instead of opening another', async () => {
    const window = harness.windowId()
    const hasFocus = () => app.execute<boolean>('return document.hasFocus()')
    const visibility = () => app.execute<string>('return document.visibilityState')
    await harness.startWindowManager()
    // The person is in another program, with the app minimised.
    const other = await harness.otherWindow()
    try {
      harness.xdotool(['windowminimize', '--sync', window])
      await waitFor('the app in the background', async () => harness.activeWindow() === other.id && !(await hasFocus()))
      await waitFor('the app minimised', async () => (await visibility()) === 'hidden')

      expect(await harness.launchAgain([])).toBe(0)
      await waitFor('the app in front and focused', async () => harness.activeWindow() === window && (await hasFocus()))
      expect(await visibility()).toBe('visible')
      expect(harness.windowId()).toBe(window)
      expect(await app.windowHandles()).toHaveLength(1)
      harness.screen('second-launch')
    } finally {
      other.close()
      await harness.stopWindowManager()
    }
  })

  it('only the product can use the app, and other addresses open in the browser', async () => {
    expect(await tryCommand('open_external', { url: 'https://example.com/advisory' })).toBe('ok')
    expect(await tryCommand('open_external', { url: 'file:///bin/sh' })).toMatch(/^refused/)
    await waitFor('the browser opened', async () => harness.browserOpened().includes('https://example.com/advisory'))

    // A link to another site leaves the window where it is and goes to the browser.
    await app.execute('window.location.href = "https://example.com/elsewhere"')
    await waitFor('handed to the browser', async () => harness.browserOpened().includes('https://example.com/elsewhere'))
    expect(await app.url()).toBe(PRODUCT_URL)

    // The app's own offline page is not the product: none of the app's commands answer it.
    await app.navigate('tauri://localhost/')
    await waitFor('the local page', async () => (await app.url()).startsWith('tauri://localhost'))
    expect(await tryCommand('open_external', { url: 'https://example.com/from-elsewhere' })).toMatch(/refused.*not allowed/i)
    expect(await tryCommand('notify', { title: 'x', body: 'y' })).toMatch(/refused.*not allowed/i)
    expect(await tryCommand('plugin:deep-link|get_current', {})).toMatch(/refused.*not allowed/i)
    expect(harness.browserOpened()).not.toContain('https://example.com/from-elsewhere')
    await app.navigate(PRODUCT_URL)
  })

  it('remembers the window size and place', async () => {
    await app.setWindowRect({ x: 40, y: 30, width: 1024, height: 700 })
    const rect = await app.windowRect()
    await app.end()
    app = await harness.launch()
    await waitFor('Home again', async () => (await app.url()) === PRODUCT_URL)
    expect(await app.windowRect()).toEqual(rect)
  })
})
