import { pageTitle } from '#domain/brand.ts'
import { exampleUrl, sitePages } from '#domain/site-map.ts'
import { expect, test } from './fixtures'

/** A concrete address for each page of the site map (the vault page stands for every /vault/… path). */
const addresses = sitePages.map((page) => ({ page, url: exampleUrl(page) }))

/**
 * The pages not built yet, which show the placeholder. A page turned live leaves this list and
 * says 'live' in the site map, so this list is what is left to build (nothing, today).
 */
const planned: string[] = []

/** The placeholder of a planned page is a region under this name. */
const placeholderName = 'Coming soon'

test('the site map marks exactly the planned pages planned, every other page live', () => {
  expect(sitePages.filter((p) => p.status === 'planned').map((p) => p.path)).toEqual(planned)
  expect(sitePages.filter((p) => p.status === 'live').map((p) => p.path)).toEqual(
    sitePages.map((p) => p.path).filter((path) => !planned.includes(path)),
  )
})

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
        await expect(page.getByRole('region', { name: placeholderName })).toHaveCount(planned.includes(sitePage.path) ? 1 : 0)
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

  test('planned pages show the placeholder under their site-map heading, live pages their own content, and navigation marks planned pages', async ({
    page,
    shell,
  }) => {
    test.setTimeout(120_000)
    await shell.open('/')

    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all()
    expect(links.length).toBeGreaterThan(1)
    for (const link of links) {
      const href = (await link.getAttribute('href')) ?? ''
      await expect(link, href).toHaveAccessibleName(planned.includes(href) ? / \(coming soon\)$/ : /^[^()]+$/)
    }

    for (const { page: sitePage, url } of addresses) {
      await page.goto(url)
      const main = page.getByRole('main')
      const placeholder = main.getByRole('region', { name: placeholderName })
      await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible()
      await expect(main.getByRole('heading', { name: /You don't have access|You must be signed in/ })).toHaveCount(0)
      if (planned.includes(sitePage.path)) {
        await expect(main.getByRole('heading', { level: 1 })).toHaveText(sitePage.title)
        await expect(main.getByText(sitePage.summary)).toBeVisible()
        await expect(placeholder).toContainText('is being built and is not available yet')
        await expect(placeholder.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/')
      } else {
        await expect(placeholder).toHaveCount(0)
      }
    }
  })
})
