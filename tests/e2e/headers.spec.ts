// The headers every server-rendered page carries, over every page of the site map, with the pages
// run in the browser: the fixture fails a test on any Content-Security-Policy violation.
import { request as httpRequest } from 'node:http'
import type { Page, Response } from '@playwright/test'
import { exampleUrl, sitePages } from '#domain/site-map.ts'
import { expect, test } from './fixtures'
import { pageSettled } from './support/page-settled'

const APP = new URL(`http://127.0.0.1:${process.env.APP_PORT ?? 3000}`)

function expectPageHeaders(path: string, response: Response | null): string {
  const headers = response?.headers() ?? {}
  const csp = headers['content-security-policy'] ?? ''
  const scripts = /(?:^|; )script-src ([^;]*)/.exec(csp)?.[1] ?? ''
  expect(scripts, path).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/)
  expect(scripts, path).not.toContain('unsafe-inline')
  expect(scripts, path).not.toContain('unsafe-eval')
  expect(csp, path).toContain("default-src 'none'")
  expect(csp, path).toContain("frame-ancestors 'none'")
  expect(csp, path).toContain("object-src 'none'")
  expect(csp, path).toContain("base-uri 'none'")
  expect(headers['strict-transport-security'], path).toMatch(/max-age=\d{8,}/)
  expect(headers['x-content-type-options'], path).toBe('nosniff')
  expect(headers['x-frame-options'], path).toBe('DENY')
  expect(headers['referrer-policy'], path).toMatch(/^(strict-origin-when-cross-origin|no-referrer)$/)
  expect(headers['permissions-policy'], path).toContain('camera=()')
  expect(headers['cache-control'], path).toMatch(/no-store/)
  if (!path.startsWith('/vault')) expect(headers['cache-control'], path).toContain('private')
  return /'nonce-([^']+)'/.exec(scripts)![1]!
}

/** Every inline script of a fresh render carries that render's nonce, but the colour-scheme one (allowed by its hash). */
async function expectInlineScriptsCarryTheNonce(page: Page, path: string, url: string, firstNonce: string) {
  const response = await page.request.get(url)
  const nonce = /'nonce-([^']+)'/.exec(response.headers()['content-security-policy'] ?? '')?.[1]
  expect(nonce, path).toBeDefined()
  expect(nonce, `${path}: a fresh nonce per response`).not.toBe(firstNonce)
  const html = await response.text()
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)].map((m) => m[0])
  expect(inline.filter((tag) => !tag.includes(`nonce="${nonce}"`)).length, path).toBeLessThanOrEqual(1)
}

async function visitEveryPage(page: Page) {
  for (const sitePage of sitePages) {
    const url = exampleUrl(sitePage)
    const response = await page.goto(url)
    const nonce = expectPageHeaders(sitePage.path, response)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await pageSettled(page)
    await expectInlineScriptsCarryTheNonce(page, sitePage.path, url, nonce)
  }
}

test.describe('security headers', () => {
  test('every page of the site map, signed out', async ({ page }) => {
    test.setTimeout(120_000)
    await visitEveryPage(page)
  })

  test.describe('signed in', () => {
    test.use({ signedInAs: 'platform@sectest.example' })
    test('every page of the site map, as a platform administrator', async ({ page }) => {
      test.setTimeout(180_000)
      await visitEveryPage(page)
    })
  })

  test('static assets are not sniffed and may be cached', async ({ request }) => {
    const response = await request.get('/favicon.svg')
    expect(response.status()).toBe(200)
    expect(response.headers()['x-content-type-options']).toBe('nosniff')
    expect(response.headers()['cache-control']).toMatch(/public/)
  })

  test('the sign-in link page sends no Referer', async ({ request }) => {
    const response = await request.get('/auth/redirect')
    expect(response.headers()['referrer-policy']).toBe('no-referrer')
  })
})

/** A GET with a Host header of our choosing (fetch and browsers will not send one). */
function getWithHost(path: string, host: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: APP.hostname, port: APP.port, path, headers: { host, accept: 'text/html' } }, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, location: res.headers.location })
    })
    req.on('error', reject)
    req.end()
  })
}

test('the app answers only its own Host: no redirect or origin check built from another name', async () => {
  // The local preview server refuses foreign names itself (403) before the Worker would (421).
  const foreign = await getWithHost('/reports/', `rebind.evil.example:${APP.port}`)
  expect([403, 421]).toContain(foreign.status)
  expect(foreign.location).toBeUndefined()
  const own = await getWithHost('/reports/', APP.host)
  if (own.location) expect(new URL(own.location, APP).origin).toBe(APP.origin)
})
