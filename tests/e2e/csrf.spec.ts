import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://127.0.0.1:3000' }
const CROSS_SITE = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://attacker.example' }

const call = (request: APIRequestContext, path: string, headers: Record<string, string>, contentType = 'application/json') =>
  request.post(path, { headers: { 'Content-Type': contentType, ...headers }, data: '{}' })

test('server functions refuse calls from other sites', async ({ request }) => {
  const crossSite = await call(request, '/_serverFn/any-function', CROSS_SITE)
  expect(crossSite.status()).toBe(403)
  const noOrigin = await call(request, '/_serverFn/any-function', {})
  expect(noOrigin.status()).toBe(403)

  // The same call from the site itself gets past the check (and fails later, for the unknown function).
  const sameOrigin = await call(request, '/_serverFn/any-function', SAME_ORIGIN)
  expect(sameOrigin.status()).not.toBe(403)
})

test('a percent-encoded server-function path is checked like the plain one', async ({ request }) => {
  // Start decodes the path before it routes: these run server functions too.
  for (const path of ['/%5FserverFn/any-function', '/_server%46n/any-function', '/%5fserverFn/any-function']) {
    expect((await call(request, path, CROSS_SITE)).status(), path).toBe(403)
    expect((await call(request, path, {}, 'text/plain')).status(), path).toBe(403)
  }
})

test('a text/plain body is refused, from another site and even with the site’s own origin', async ({ request }) => {
  // What an auto-submitted <form enctype="text/plain"> sends.
  expect((await call(request, '/%5FserverFn/any-function', CROSS_SITE, 'text/plain')).status()).toBe(403)
  // A CORS-safelisted type (no preflight) that merely mentions JSON, which Start would parse as JSON.
  expect((await call(request, '/_serverFn/any-function', SAME_ORIGIN, 'text/plain; application/json')).status()).toBe(415)
  expect((await call(request, '/_serverFn/any-function', SAME_ORIGIN, 'text/plain')).status()).toBe(415)
})
