// `npm run bench:ssr`: server rendering of the home page against a static asset, both served by
// the production build in workerd, measured in the same run so the ratio holds on a noisy machine.
import autocannon from 'autocannon'
import { withPreviewServer } from './preview-server.ts'

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8)
const CONNECTIONS = 8

async function measure(url: string) {
  // A short warm-up, so the first compilation of the worker is not in the figures.
  await autocannon({ url, connections: 2, amount: 50 })
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { medianMs: result.latency.p50, p99Ms: result.latency.p99, rps: result.requests.average }
}

await withPreviewServer(async (baseUrl) => {
  const asset = await measure(`${baseUrl}/favicon.svg`)
  const home = await measure(`${baseUrl}/`)
  const row = (name: string, m: typeof asset) =>
    `${name.padEnd(14)} median ${m.medianMs.toFixed(1).padStart(6)} ms   p99 ${m.p99Ms.toFixed(1).padStart(6)} ms   ${m.rps.toFixed(0).padStart(6)} req/s`
  console.log(`\nworkerd, ${CONNECTIONS} connections, ${DURATION_S}s each`)
  console.log(row('static asset', asset))
  console.log(row('home (SSR)', home))
  console.log(
    `ratio home/asset: median latency ×${(home.medianMs / Math.max(asset.medianMs, 0.1)).toFixed(2)}, throughput ×${(home.rps / asset.rps).toFixed(2)}`,
  )
})
