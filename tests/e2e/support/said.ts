// What a page said at any moment, not only when a test looked: a MutationObserver in the page tests
// its main region's text after every change against the patterns given, so a state shown for a
// moment (a cache's empty answer replaced by the server's) is caught as surely as one that stays.
import type { Page } from '@playwright/test'

/**
 * From now on, records which of `patterns` the page's main region ever matched, until the page
 * navigates away by a full load. The function returned gives their sources, in the order first seen.
 */
export async function recordSayings(page: Page, patterns: RegExp[]): Promise<() => Promise<string[]>> {
  const key = `__said_${Math.random().toString(36).slice(2)}`
  await page.evaluate(
    ({ key, sources }) => {
      const tests = sources.map((source) => new RegExp(source))
      const seen: string[] = []
      ;(window as unknown as Record<string, string[]>)[key] = seen
      const check = () => {
        const text = document.querySelector('main')?.textContent ?? ''
        tests.forEach((test, i) => {
          if (test.test(text) && !seen.includes(sources[i]!)) seen.push(sources[i]!)
        })
      }
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true, characterData: true })
      check()
    },
    { key, sources: patterns.map((p) => p.source) },
  )
  return () => page.evaluate((key) => [...(window as unknown as Record<string, string[]>)[key]!], key)
}
