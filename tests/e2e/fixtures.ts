import { test as base, expect, type BrowserContext, type Page } from '@playwright/test'

interface BrowserConsole {
  /** Accepts console lines matching `pattern` in this test (an expected failed request, say). */
  allow(pattern: RegExp): void
  /** Watches another browser context the test opened (a second device, say). */
  watch(context: BrowserContext): void
}

/**
 * Every test fails if a page logged an error or a warning (a hydration mismatch is one) or threw
 * an uncaught exception while it ran, unless the test said it expects that line.
 */
export const test = base.extend<{ browserConsole: BrowserConsole }>({
  browserConsole: [
    async ({ context }, use) => {
      const problems: string[] = []
      const allowed: RegExp[] = []
      const watchPage = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
        })
        page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
      }
      const watch = (watched: BrowserContext) => {
        watched.pages().forEach(watchPage)
        watched.on('page', watchPage)
      }
      watch(context)
      await use({ allow: (pattern) => allowed.push(pattern), watch })
      expect(
        problems.filter((line) => !allowed.some((pattern) => pattern.test(line))),
        'browser console',
      ).toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
