// Every page, as a visitor and as a platform administrator (level 9), in light and dark: no
// serious or critical accessibility violation (axe-core), and a screenshot of each at desktop and
// phone width in .local/screenshots/ to look at.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import path from 'node:path'
import { sitePages } from '../../app/domain/site-map'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { signIn } from './support/sign-in'

const SCREENSHOTS = path.resolve('.local/screenshots')
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 812 } } as const

const urlOf = (pagePath: string) => pagePath.replace('/vault/$', '/vault/demo-share')
const fileName = (pagePath: string) => (pagePath === '/' ? 'home' : pagePath.slice(1).replace(/[/$]+/g, '-').replace(/-$/, ''))

/** Seriousness that fails the survey; "minor" and "moderate" are reported by axe but allowed. */
const failing = new Set(['serious', 'critical'])

async function survey(page: Page, who: string, scheme: 'light' | 'dark'): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme })
  const problems: string[] = []
  for (const sitePage of sitePages) {
    await page.setViewportSize(viewports.desktop)
    await page.goto(urlOf(sitePage.path))
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    for (const violation of results.violations.filter((v) => failing.has(v.impact ?? ''))) {
      const targets = violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')
      problems.push(`${sitePage.path} [${violation.impact}] ${violation.id}: ${violation.help} (${targets})`)
    }
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport)
      await page.screenshot({ path: path.join(SCREENSHOTS, `${who}-${scheme}-${size}-${fileName(sitePage.path)}.png`), fullPage: true })
    }
  }
  return problems
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every page signed out, ${scheme}: no serious or critical accessibility violation`, async ({ page }) => {
    test.setTimeout(240_000)
    expect(await survey(page, 'visitor', scheme)).toEqual([])
  })

  test(`every page as a platform administrator, ${scheme}: no serious or critical accessibility violation`, async ({ page }) => {
    test.setTimeout(240_000)
    await signIn(page, demoAccount('platform@sectest.example').email)
    expect(await survey(page, 'platform', scheme)).toEqual([])
  })
}
