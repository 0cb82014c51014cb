// `npm run bench:bundle`: first-load JavaScript (gzip bytes) of every route of the product.
import path from 'node:path'
import { exampleUrl, sitePages } from '#domain/site-map.ts'
import { ROOT } from '../../emulators/firebase/env.ts'
import { firstLoadJs } from './first-load.ts'
import { withPreviewServer } from './preview-server.ts'

await withPreviewServer(async (baseUrl) => {
  const clientDir = path.join(ROOT, 'dist', 'client')
  const rows: [string, number, number][] = []
  for (const page of sitePages) {
    const url = page.path === '/vault/$' ? '/vault/example' : exampleUrl(page)
    const html = await (await fetch(baseUrl + url)).text()
    const { files, gzipBytes } = firstLoadJs(html, clientDir)
    rows.push([url, files.length, gzipBytes])
  }
  const home = rows.find(([url]) => url === '/')![2]
  console.log(`\n${'route'.padEnd(38)} ${'files'.padStart(5)} ${'gzip KB'.padStart(9)}  vs home`)
  for (const [url, count, bytes] of rows) {
    console.log(`${url.padEnd(38)} ${String(count).padStart(5)} ${(bytes / 1024).toFixed(1).padStart(9)}  ×${(bytes / home).toFixed(2)}`)
  }
})
