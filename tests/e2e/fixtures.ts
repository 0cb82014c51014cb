import { test as base, expect } from '@playwright/test'

/**
 * Every test fails if the browser logged an error or a warning (a hydration mismatch is one) or
 * threw an uncaught exception while it ran.
 */
export const test = base.extend<{ consoleProblems: string[] }>({
  consoleProblems: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
      })
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
      await use(problems)
      expect(problems, 'browser console').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
