// Dates in the server's HTML: written in the reader's language and zone once their browser has
// told the server, empty before that (never a guess), and the same when the page hydrates.
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'

test.use({ signedInAs: 'viewer@acme.example', locale: 'en-GB', timezoneId: 'Asia/Tokyo' })

/** Every `<time>` of the server's HTML for `path`: its moment and its text. */
async function serverTimes(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text()
  return [...html.matchAll(/<time dateTime="([^"]+)">([^<]*)<\/time>/g)].map(([, at, text]) => ({ at: at!, text: text! }))
}

test('the server writes dates in the clock the browser left, and the page hydrates to the same text', async ({ page, context }) => {
  await context.clearCookies({ name: 'bulwark.clock' })
  const before = await serverTimes(page.request, '/reports')
  expect(before.length).toBeGreaterThan(0)
  expect(before.every(({ text }) => text === '')).toBe(true)

  await page.goto('/reports')
  await expect
    .poll(async () => (await context.cookies()).find((cookie) => cookie.name === 'bulwark.clock')?.value)
    .toBe(encodeURIComponent('en-GB|Asia/Tokyo'))

  const after = await serverTimes(page.request, '/reports')
  const tokyo = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'Asia/Tokyo' })
  expect(after.length).toBeGreaterThan(0)
  for (const { at, text } of after) expect(text).toBe(tokyo.format(new Date(at)))

  // The browser's own rendering says the same (a mismatch would also fail on the console).
  await page.reload()
  const first = page.locator('main time').first()
  await expect(first).toHaveText(tokyo.format(new Date((await first.getAttribute('datetime'))!)))
})
