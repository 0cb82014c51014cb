// Every page, as a visitor and as a platform administrator (level 9), in light and dark: no
// serious or critical accessibility violation (axe-core), and a screenshot of each at desktop and
// phone width in .local/screenshots/ to look at. CI, where no one looks, takes none unless
// SURVEY_SCREENSHOTS=1 asks: full-page shots of long pages are a good part of the survey's time.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import path from 'node:path'
import { exampleUrl, sitePages } from '#domain/site-map.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { pageSettled } from './support/page-settled'

const SCREENSHOTS = path.resolve('.local/screenshots')
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 812 } } as const
const takeScreenshots = !process.env.CI || process.env.SURVEY_SCREENSHOTS === '1'

/** Every page of the site map, plus states of a page worth their own look (a template open for editing). */
const surveyed = [
  ...sitePages.map((sitePage) => ({ path: sitePage.path, url: sitePage.path === '/vault/$' ? '/vault/demo-share' : exampleUrl(sitePage) })),
  { path: '/templates/finding (editor)', url: '/templates/finding?template=smb-signing-not-required' },
  // A page asked for before sign-in, and addresses that name no page.
  { path: '/ (with a page to return to)', url: '/?next=%2Freports%2Fdast' },
  { path: '/no-such-page (not found)', url: '/no-such-page' },
  { path: '/reports/bogus (not found)', url: '/reports/bogus' },
]
const fileName = (pagePath: string) =>
  pagePath === '/'
    ? 'home'
    : pagePath
        .slice(1)
        .replace(/[^a-z0-9_]+/gi, '-')
        .replace(/-$/, '')

/** Seriousness that fails the survey; "minor" and "moderate" are reported by axe but allowed. */
const failing = new Set(['serious', 'critical'])

async function survey(page: Page, who: string, scheme: 'light' | 'dark'): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme })
  const problems: string[] = []
  for (const entry of surveyed) {
    await page.setViewportSize(viewports.desktop)
    await page.goto(entry.url)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await pageSettled(page)
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    for (const violation of results.violations.filter((v) => failing.has(v.impact ?? ''))) {
      const targets = violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 3)
        .join(', ')
      problems.push(`${entry.path} [${violation.impact}] ${violation.id}: ${violation.help} (${targets})`)
    }
    if (!takeScreenshots) continue
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport)
      await page.screenshot({ path: path.join(SCREENSHOTS, `${who}-${scheme}-${size}-${fileName(entry.path)}.png`), fullPage: true })
    }
  }
  return problems
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every page signed out, ${scheme}: no serious or critical accessibility violation`, async ({ page, browserConsole }) => {
    test.setTimeout(240_000)
    // The not-found addresses answer 404, which the browser logs.
    browserConsole.allow(/status of 404/)
    expect(await survey(page, 'visitor', scheme)).toEqual([])
  })

  test.describe(() => {
    test.use({ signedInAs: demoAccount('platform@sectest.example').email })

    test(`every page as a platform administrator, ${scheme}: no serious or critical accessibility violation`, async ({
      page,
      shell,
      browserConsole,
    }) => {
      test.setTimeout(240_000)
      browserConsole.allow(/status of 404/)
      await shell.open('/')
      expect(await survey(page, 'platform', scheme)).toEqual([])
    })
  })
}
