import { expect, test } from './fixtures'

test.describe('server rendering and hydration', () => {
  test('home is fully styled from the server HTML alone, before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/')
    const styles = await page.evaluate(() => {
      const header = document.querySelector('header')!
      return {
        bodyBackground: getComputedStyle(document.body).backgroundColor,
        headerHeight: header.getBoundingClientRect().height,
        navWidth: document.querySelector('aside')!.getBoundingClientRect().width,
      }
    })
    expect(styles.bodyBackground).toBe('rgb(246, 247, 249)')
    expect(styles.headerHeight).toBe(80)
    expect(styles.navWidth).toBe(300)
    await context.close()
  })

  test('dark system scheme is applied by the server HTML too', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' })
    const page = await context.newPage()
    await page.goto('/')
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(14, 17, 22)')
    await context.close()
  })

  test('pages hydrate, and client navigation to lazily loaded routes keeps the page and brings their styles', async ({ page }) => {
    type Probe = Window & { __TSR_ROUTER__?: { navigate: (o: { to: string }) => Promise<void> }; __stayed?: boolean }
    await page.goto('/reports')
    await page.waitForFunction(() => (window as Probe).__TSR_ROUTER__ !== undefined)
    // The router exists before React hydrates: a click before the link is hydrated is a plain
    // page load. React marks the nodes it hydrated with its props.
    await page.waitForFunction(() => {
      // The sign-in notice's way home, which keeps the page asked for (/?next=…).
      const link = document.querySelector('main a[href^="/?next="]')
      return link !== null && Object.keys(link).some((key) => key.startsWith('__reactProps'))
    })
    // A marker on window survives client-side navigation but not a full page load.
    await page.evaluate(() => ((window as Probe).__stayed = true))

    await page.getByRole('link', { name: 'Go to home to sign in' }).click()
    await expect(page).toHaveURL((url) => url.pathname === '/' && url.searchParams.get('next') === '/reports')
    await expect(page.getByRole('heading', { name: 'Security testing workspace' })).toBeVisible()
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('main li')!).borderRadius)).toBe('12px')

    // A page whose code the browser has not loaded yet.
    await page.evaluate(() => (window as Probe).__TSR_ROUTER__!.navigate({ to: '/admin/dast' }))
    await expect(page).toHaveTitle('DAST keys · Bulwark')
    const card = page.getByRole('heading', { name: 'You must be signed in' }).locator('..')
    await expect(card).toBeVisible()
    expect(await card.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('12px')
    expect(await page.evaluate(() => (window as Probe).__stayed)).toBe(true)
  })
})

test('on a 375 px wide phone no page scrolls sideways', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } })
  const page = await context.newPage()
  for (const url of ['/', '/reports', '/auth/redirect', '/vault/share/1']) {
    await page.goto(url)
    expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBe(375)
  }
  await context.close()
})

test('the primary colours set by the deployment reach the server HTML and the page', async ({ page, request }) => {
  // wrangler.toml sets them locally (to the default blues).
  const html = await (await request.get('/')).text()
  expect(html).toContain(':root{--brand-primary: #2563c9;--brand-primary-dark: #6ea2ff;}')
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-primary-dark').trim())).toBe(
    '#6ea2ff',
  )
})
