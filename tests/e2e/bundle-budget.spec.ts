import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { exampleUrl, sitePages } from '#domain/site-map.ts'
import { firstLoadJs } from '../bench/first-load'
import { expect, test } from './fixtures'

const KB = 1024
const HOME_BUDGET_GZIP_BYTES = 150 * KB
const ROUTE_BUDGET_GZIP_BYTES = 300 * KB

const firstLoadOf = async (request: APIRequestContext, url: string) =>
  firstLoadJs(await (await request.get(url)).text(), path.resolve('dist/client'))

test('home loads at most 150 KB of JavaScript (gzip)', async ({ request }) => {
  const { files, gzipBytes } = await firstLoadOf(request, '/')
  expect(files.length).toBeGreaterThan(0)
  expect(gzipBytes, `first-load JS of / (${files.join(', ')})`).toBeLessThanOrEqual(HOME_BUDGET_GZIP_BYTES)
})

test('no page of the site map loads more than 300 KB of JavaScript (gzip)', async ({ request }) => {
  const over: string[] = []
  for (const page of sitePages) {
    const url = page.path === '/vault/$' ? '/vault/example' : exampleUrl(page)
    const { files, gzipBytes } = await firstLoadOf(request, url)
    expect(files.length, url).toBeGreaterThan(0)
    if (gzipBytes > ROUTE_BUDGET_GZIP_BYTES) over.push(`${url}: ${(gzipBytes / KB).toFixed(1)} KB`)
  }
  expect(over).toEqual([])
})
