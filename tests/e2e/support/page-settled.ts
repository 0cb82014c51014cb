import { expect, type Page } from '@playwright/test'

/**
 * Waits until a page has what it loads in the browser (Firebase SDK, search). It is read to its
 * end first, so that sections that load as they come near the screen (a report's findings) load
 * too, then brought back to its top. It is read to its end again at every look: a page that grew
 * below the reader after the first (charts drawn, lists filled) would leave such a section behind.
 */
export async function pageSettled(page: Page): Promise<void> {
  // Polled as texts, so that a page still loading says where and what.
  const loading = page.getByText(/^(Searching|Loading)\b.*…$/)
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
        return loading.allInnerTexts()
      },
      { timeout: 15_000, message: `${page.url()} settles` },
    )
    .toEqual([])
  await page.evaluate(() => window.scrollTo(0, 0))
}
