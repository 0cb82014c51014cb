import { expect, type Page } from '@playwright/test'

/**
 * Waits until a page has what it loads in the browser (Firebase SDK, search). It is read to its
 * end first, so that sections that load as they come near the screen (a report's findings) load
 * too, then brought back to its top.
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  // Polled as texts, so that a page still loading says where and what.
  const loading = page.getByText(/^(Searching|Loading)\b.*…$/)
  await expect.poll(() => loading.allInnerTexts(), { timeout: 15_000, message: `${page.url()} settles` }).toEqual([])
  await page.evaluate(() => window.scrollTo(0, 0))
}
