import { pageTitle } from '#domain/brand.ts'
import { exampleUrl, sitePages } from '#domain/site-map.ts'
import { expect, test } from './fixtures'

/** A concrete address for each page of the site map (the vault page stands for every /vault/… path). */
const addresses = sitePages.map((page) => ({ page, url: exampleUrl(page) }))

test.describe('every route of the product, signed out', () => {
  for (const { page: sitePage, url } of addresses) {
    test(`${url} answers with its title, styles in the server HTML and the right shell`, async ({ page, request }) => {
      const response = await request.get(url)
      expect(response.status()).toBe(200)
      const html = await response.text()
      const head = html.slice(0, html.indexOf('</head>'))
      expect(head).toContain('<style data-styled="true"')
      expect(head).toContain('rel="icon"')
      expect(head).toContain(`<title>${pageTitle(sitePage.path === '/' ? undefined : sitePage.title)}</title>`)

      await page.goto(url)
      await expect(page.getByRole('img', { name: 'Bulwark' })).toBeVisible()
      const nav = page.getByRole('navigation', { name: 'Main' })
      if (sitePage.shell === 'workspace') {
        await expect(nav).toBeVisible()
        // Signed out, navigation offers Home and nothing else.
        await expect(nav.getByRole('link')).toHaveText(['Home'])
      } else {
        await expect(nav).toHaveCount(0)
      }
      if (sitePage.signIn) {
        await expect(page.getByRole('heading', { name: 'You must be signed in' })).toBeVisible()
        // The way home keeps the page asked for, to come back to after sign-in.
        const home = await page.getByRole('link', { name: /home/i }).last().getAttribute('href')
        const back = new URL(home ?? '', 'http://x')
        expect(back.pathname).toBe('/')
        expect(back.searchParams.get('next')).toBe(url)
      } else {
        await expect(page.getByText('You must be signed in')).toHaveCount(0)
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      }
    })
  }

  test('an unknown address and an unknown service answer 404 with a way home', async ({ page, request, browserConsole }) => {
    for (const url of ['/no-such-page', '/reports/unknown-service', '/analyst/services/password_cracking']) {
      expect((await request.get(url)).status(), url).toBe(404)
    }
    // The browser logs the 404 document load itself; that is the expected outcome here.
    browserConsole.allow(/status of 404/)
    await page.goto('/no-such-page')
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/')
  })
})

test.describe('every route of the product, signed in as a platform administrator', () => {
  test.use({ signedInAs: 'platform@sectest.example' })

  test('every page opens with its heading, and none says access is missing', async ({ page, shell }) => {
    test.setTimeout(120_000)
    await shell.open('/')

    for (const { url } of addresses) {
      await page.goto(url)
      const main = page.getByRole('main')
      await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible()
      await expect(main.getByRole('heading', { name: /You don't have access|You must be signed in/ })).toHaveCount(0)
    }
  })
})
