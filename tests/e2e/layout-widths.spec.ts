// What a person sees at a desktop (1440 px) and a phone (375 px) window on the pages that were
// wider than the window, cut words without a way to read them, or wrote labels over each other.
// Each test saves its screenshots, light and dark, under its output folder, to look at.
import type { Locator, Page } from '@playwright/test'
import { AnalystServicePage } from './pages/analyst'
import { FindingsTable } from './pages/findings'
import { expect, test } from './fixtures'

const DESKTOP = { width: 1440, height: 900 }
const PHONE = { width: 375, height: 812 }

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

/** Screenshots of the page as it is now, light and dark, named after `name`. */
async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}.png`), fullPage: true })
  }
  await page.emulateMedia({ colorScheme: null })
}

/** Opens a service report and brings its findings in, as a reader scrolling down does. */
async function openReport(page: Page, service: string) {
  const findings = new FindingsTable(page)
  await findings.open(service)
  await expect(findings.count).toBeVisible({ timeout: 20_000 })
  return findings
}

/** Whether any two of the chart's x-axis labels, as drawn (turned or not), overlap on screen. */
function overlappingLabels(chart: Locator): Promise<string[]> {
  return chart.evaluate((figure) => {
    type Point = [number, number]
    const corners = (text: SVGTextElement): Point[] => {
      const box = text.getBBox()
      const matrix = text.getScreenCTM()!
      return (
        [
          [box.x, box.y],
          [box.x + box.width, box.y],
          [box.x + box.width, box.y + box.height],
          [box.x, box.y + box.height],
        ] as Point[]
      ).map(([x, y]) => {
        const p = new DOMPoint(x, y).matrixTransform(matrix)
        return [p.x, p.y] as Point
      })
    }
    // Two convex shapes overlap unless some edge's normal separates them.
    const apart = (a: Point[], b: Point[]) =>
      [a, b].some((shape) =>
        shape.some((p, i) => {
          const q = shape[(i + 1) % shape.length]!
          const normal: Point = [q[1] - p[1], p[0] - q[0]]
          const project = (s: Point[]) => s.map(([x, y]) => x * normal[0] + y * normal[1])
          const [ma, mb] = [project(a), project(b)]
          return Math.max(...ma) <= Math.min(...mb) + 0.5 || Math.max(...mb) <= Math.min(...ma) + 0.5
        }),
      )
    const labels = [...figure.querySelectorAll<SVGTextElement>('.recharts-xAxis .chart-tick')].filter((t) => t.textContent)
    const shapes = labels.map(corners)
    const clashes: string[] = []
    for (let i = 0; i + 1 < shapes.length; i += 1)
      if (!apart(shapes[i]!, shapes[i + 1]!)) clashes.push(`${labels[i]!.textContent} / ${labels[i + 1]!.textContent}`)
    return clashes
  })
}

test.describe('the reports, as Acme’s company admin', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('no report page is wider than a 375 px phone', async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize(PHONE)
    await page.goto('/reports')
    await expect(page.getByRole('button', { name: 'User menu' })).toBeEnabled()
    expect(await pageWidth(page), '/reports').toBeLessThanOrEqual(PHONE.width)
    for (const service of ['projectmariana', 'password_cracking', 'dast', 'network', 'cloud']) {
      await openReport(page, service)
      expect(await pageWidth(page), service).toBeLessThanOrEqual(PHONE.width)
    }
    await openReport(page, 'dast')
    await shots(page, 'dast-report-phone')
  })

  test('the findings table writes a finding’s title, asset and SLA on up to two lines at 1440 px, and what is cut on hover', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP)
    const findings = await openReport(page, 'dast')
    await expect(findings.table.locator('tbody tr').first().getByRole('cell').nth(2)).toHaveAttribute('title', /\S/)
    const rows = await findings.table.locator('tbody tr').evaluateAll((trs) =>
      trs.slice(0, 12).map((tr) => {
        const [title, asset, status, sla] = [2, 3, 4, 5].map((i) => tr.children[i] as HTMLElement)
        const whole = (cell: HTMLElement) => cell.scrollHeight <= cell.clientHeight + 1 && cell.scrollWidth <= cell.clientWidth + 1
        const link = title!.querySelector('a')!
        return {
          title: title!.textContent,
          cut: [title!, asset!, sla!].filter((cell) => !whole(cell) && cell.title !== cell.textContent).map((cell) => cell.textContent),
          status: whole(status!) ? null : status!.textContent,
          // The lines drawn (a clamped third line has boxes too, below the cell).
          lines: new Set(
            [...link.getClientRects()].filter((r) => r.bottom <= title!.getBoundingClientRect().bottom + 1).map((r) => Math.round(r.top)),
          ).size,
        }
      }),
    )
    // Nothing is cut without its cell holding the whole text on hover; every status is whole.
    expect(rows.flatMap((row) => row.cut)).toEqual([])
    expect(rows.flatMap((row) => row.status ?? [])).toEqual([])
    // A long title takes a second line rather than an ellipsis after a few words.
    const long = rows.find((row) => (row.title ?? '').length > 45)
    expect(long, 'a long title among the first rows').toBeDefined()
    expect(long!.lines).toBe(2)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await findings.section.screenshot({ path: test.info().outputPath(`findings-table-${scheme}.png`) })
    }
  })

  test('the severity per scan chart writes its twelve dates apart, at 1440 and at 375 px', async ({ page, reports }) => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport)
      await page.goto('/reports/dast')
      const chart = reports.chart('Findings by severity per scan')
      await chart.scrollIntoViewIfNeeded()
      await expect(chart.locator('.recharts-xAxis .chart-tick').first()).toBeVisible()
      expect(await chart.locator('.recharts-xAxis .chart-tick').count()).toBeGreaterThanOrEqual(12)
      expect(await overlappingLabels(chart), name).toEqual([])
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await chart.screenshot({ path: test.info().outputPath(`severity-chart-${name}-${scheme}.png`) })
      }
      await page.emulateMedia({ colorScheme: null })
    }
  })

  test('the DAST keys table fits a 1440 px window: every Revoke is in view', async ({ page, shell }) => {
    await page.setViewportSize(DESKTOP)
    await shell.open('/admin/dast')
    const table = page.getByRole('table', { name: 'DAST keys' })
    await expect(table.getByRole('button', { name: /^Revoke / }).first()).toBeVisible()
    const outside = await table.evaluate((element) => {
      const box = element.parentElement!.getBoundingClientRect()
      return [...element.querySelectorAll('button')]
        .filter((button) => button.textContent === 'Revoke')
        .map((button) => button.getBoundingClientRect())
        .filter((r) => r.right > Math.min(box.right, window.innerWidth) || r.left < box.left)
        .map((r) => Math.round(r.right))
    })
    expect(outside).toEqual([])
    await shots(page, 'dast-keys-desktop')
  })

  test('the home page’s finding search lists each hit on its own line, at 1440 and at 375 px', async ({ page, shell }) => {
    await page.setViewportSize(DESKTOP)
    await shell.open('/')
    await page.getByRole('searchbox', { name: /^Search the findings of/ }).fill('xss')
    const hits = page.getByTestId('finding-hits').getByRole('link')
    await expect(hits.first()).toBeVisible({ timeout: 15_000 })
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport)
      const first = hits.first()
      const [line, badge] = await Promise.all([first.boundingBox(), first.locator('span').first().boundingBox()])
      // The severity badge is as wide as its word, and the line no wider than its card.
      expect(badge!.width, name).toBeLessThan(120)
      expect(line!.x + line!.width, name).toBeLessThanOrEqual(viewport.width)
      expect(await pageWidth(page), name).toBeLessThanOrEqual(viewport.width)
      await page.getByTestId('finding-hits').scrollIntoViewIfNeeded()
      await shots(page, `home-search-${name}`)
    }
  })
})

test.describe('a signed-in visit of home with a next that leaves the site once decoded', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('ignores the next and lands on Home', async ({ page }) => {
    for (const next of ['/%2e%2e%2f%2e%2e%2f%2fevil.example', '/%2e%2e%2f%2fevil.example', '/x/..%2f%2fevil.example']) {
      const response = await page.goto(`/?next=${encodeURIComponent(next)}`)
      expect(response?.status(), next).toBe(200)
      expect(new URL(page.url()).pathname, next).toBe('/')
      await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ }), next).toBeVisible()
    }
  })
})

test.describe('the analyst service page, as the senior analyst', () => {
  test.use({ signedInAs: 'senior@sectest.example' })

  test('is no wider than the window with a draft open, at 1440 and 375 px, and on the other services’ pages on a phone', async ({
    page,
  }) => {
    test.setTimeout(90_000)
    const analyst = new AnalystServicePage(page)
    await page.setViewportSize(DESKTOP)
    await analyst.open('dast')
    await analyst.scans.getByRole('button', { name: /\(second run\)$/ }).click()
    await expect(analyst.draftFindings.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    expect(await pageWidth(page)).toBeLessThanOrEqual(DESKTOP.width)
    await shots(page, 'analyst-draft-desktop')
    await page.setViewportSize(PHONE)
    await page.reload()
    await expect(analyst.draftFindings.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
    await shots(page, 'analyst-draft-phone')
    for (const service of ['projectmariana', 'network', 'cloud', 'password-cracking']) {
      await analyst.open(service)
      expect(await pageWidth(page), service).toBeLessThanOrEqual(PHONE.width)
    }
  })

  test('keeps the navigation in view while a long page scrolls, and the navigation scrolls on its own in a short window', async ({
    page,
    shell,
  }) => {
    const analyst = new AnalystServicePage(page)
    await page.setViewportSize(DESKTOP)
    await analyst.open('dast')
    await analyst.scans.getByRole('button', { name: /\(second run\)$/ }).click()
    await expect(analyst.draftFindings.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await expect(shell.navLink('Home', { exact: true })).toBeInViewport()
    await expect(shell.navLink('DAST service')).toBeInViewport()
    // Not under the header either: the link is what is drawn at its middle.
    const uncovered = await shell.navLink('Home', { exact: true }).evaluate((link) => {
      const r = link.getBoundingClientRect()
      return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest('a') === link
    })
    expect(uncovered).toBe(true)
    await page.screenshot({ path: test.info().outputPath('navbar-scrolled-light.png') })

    // A window shorter than the navigation: its own box scrolls to its last link.
    await page.setViewportSize({ width: DESKTOP.width, height: 420 })
    const box = page.locator('#navbar [data-scroll-panel]')
    const sizes = await box.evaluate((element) => ({ scroll: element.scrollHeight, client: element.clientHeight }))
    expect(sizes.scroll).toBeGreaterThan(sizes.client)
    expect(sizes.client).toBeLessThanOrEqual(420)
    await box.evaluate((element) => element.scrollTo(0, element.scrollHeight))
    await expect(shell.nav.getByRole('link').last()).toBeInViewport()
    await expect(shell.navLink('Home', { exact: true })).not.toBeInViewport()
    // Its bar shows while the pointer is over it, and hides once it has left (after the theme's delay).
    await box.hover()
    await expect(box).toHaveAttribute('data-bars')
    await page.screenshot({ path: test.info().outputPath('navbar-short-window-light.png') })
    await page.mouse.move(DESKTOP.width - 10, 300)
    await expect(box).not.toHaveAttribute('data-bars')
  })
})
