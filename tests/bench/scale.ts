// `npm run bench:scale`: Acme's DAST report at the size of a large client. For each size (open
// findings added by the seed's SEED_FINDINGS; BENCH_SCALE_SIZES, default 1000,10000,100000,
// ascending) it seeds, signs the demo client manager in, opens /reports/dast in Chromium and prints:
// how long seeding took; the time from scrolling the findings section into view to its first rows;
// the Firestore document reads of the page view (counted as Firestore bills them, firestore-reads.ts:
// the edge's REST reads and the browser's listeners and gets), in total and by collection; the
// server-rendered report page against the bare page (as bench:reports); the median and 95th
// percentile of the time a severity filter, a sort, a text search and an asset facet take to change
// what the table shows (BENCH_SCALE_ROUNDS rounds each); and a CSV export of every open finding
// (up to BENCH_SCALE_EXPORT_MAX, 10,000 by default), with the tab's heap before, at its highest, and
// the most it held after a collection. It knows the page only as a person sees it: rows of the
// findings table and the count above it. One run, figures only. The demo year is
// seeded at a tenth (SEED_REPORTS_SCALE, as the e2e suite), so the large case is the added findings.
import { spawn } from 'node:child_process'
import { chromium, type Browser, type Locator } from '@playwright/test'
import { FieldValue } from 'firebase-admin/firestore'
import * as v from 'valibot'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, emulatorClientEnv, nodeBinary, ROOT } from '../../emulators/firebase/env.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { chromiumArgs, chromiumExecutable } from '../support/chromium.ts'
import { exportWithHeap, mb, signInByEmailLink, spread, timeEffect, type ExportRun } from './browser.ts'
import { formatReads, startReadCounter, type ReadCounter, type ReadCounts } from './firestore-reads.ts'
import { CONNECTIONS, DURATION_S, idTokenFor, measure, ratio, row, warmUp } from './page-load.ts'
import { withPreviewServer, withStack } from './preview-server.ts'

const SizesSchema = v.pipe(
  v.string(),
  v.transform((text) => text.split(',').map((s) => Number(s.trim()))),
  v.array(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000))),
  v.minLength(1),
)
const SIZES = [...v.parse(SizesSchema, process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000')].sort((a, b) => a - b)
/**
 * The largest size whose CSV export is measured. The Firestore emulator scans the whole collection
 * for every page an export reads, so an export's time grows with the square of the findings there
 * (Firestore reads a page by its index): a 100,000-finding export had not finished after 20 minutes.
 * Whether an export keeps anything that grows shows between the sizes below it.
 */
const EXPORT_MAX = v.parse(
  v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(0)),
  process.env.BENCH_SCALE_EXPORT_MAX ?? '10000',
)
process.env.SEED_REPORTS_SCALE ??= '0.1'
const MANAGER = demoAccount('manager@acme.example')
/**
 * The build again, with its Firestore reads going through the counter, where people sign in (the
 * only port the sign-in links may lead back to); the stack's own app moves aside for it.
 */
const COUNTED_PORT = 3000
const STACK_PORT = 3200
/** A page view is over once no read came for this long. */
const QUIET_MS = 3_000

const { db } = sharedAdmin()
const f = (n: number) => n.toLocaleString('en-GB')

/** `SEED_FINDINGS=size npm run seed`, its progress passed on; how long it took. */
async function seed(size: number): Promise<number> {
  const started = performance.now()
  const child = spawn(nodeBinary(), ['--experimental-strip-types', 'emulators/seed/seed.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...emulatorClientEnv(), SEED_FINDINGS: String(size) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let pending = ''
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8')
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) if (/^(Scale findings|Reports):/.test(line)) console.log(`  seed: ${line}`)
  })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  if (code !== 0) throw new Error(`The seed with SEED_FINDINGS=${size} failed (exit ${code})`)
  return performance.now() - started
}

/** The manager opens Acme's reports (their default company is another). */
const preferAcme = () =>
  db.doc(userPreferencesPath(MANAGER.uid)).set({ defaultCompany: 'acme', updatedAt: FieldValue.serverTimestamp() }, { merge: true })

async function waitForQuiet(counter: ReadCounter, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (counter.quietFor() < QUIET_MS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250))
}

interface PageView {
  loadMs: number
  /** The first rows after the section comes into view, and the requests that ran meanwhile. */
  first: { ms: number; waitedOn: string[] }
  /** The same when the report is opened again. */
  again: { ms: number; waitedOn: string[] }
  count: string
  reads: ReadCounts
  steps: Record<Step, number[]>
  /** Null above EXPORT_MAX. */
  csv: ExportRun | null
}

type Step = 'filter' | 'sort' | 'search' | 'facet'
/** Rounds of each step; a round is there and back (on and off, one order and the other). */
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 10)
/** Words a person looks for in this estate: applications and kinds of finding. */
const QUERIES = ['billing', 'cross site', 'portal', 'cookie', 'admin', 'header', 'api', 'sql', 'shop', 'session']

/**
 * The table's answers, timed as a person sees them, ROUNDS times each: a severity filter on and
 * off, a column's order one way and the other, a text search typed and cleared, an asset facet
 * chosen and removed.
 */
async function steps(region: Locator): Promise<Record<Step, number[]>> {
  const out: Record<Step, number[]> = { filter: [], sort: [], search: [], facet: [] }
  const high = region.getByRole('button', { name: /^High\b/ })
  const sort = region.getByRole('columnheader').getByRole('button', { name: /^Last seen/ })
  const search = region.getByRole('searchbox')
  const asset = region.getByLabel('Filter by asset')
  for (let round = 0; round < ROUNDS; round++) {
    out.filter.push(await timeEffect(region, high), await timeEffect(region, high))
    out.sort.push(await timeEffect(region, sort), await timeEffect(region, sort))
    out.search.push(
      await timeEffect(region, search, { type: QUERIES[round % QUERIES.length]! }),
      await timeEffect(region, search, { type: '' }),
    )
    // An asset the index offers for this view (the facet's suggestions).
    const value = await region.locator('datalist option').nth(round).getAttribute('value', { timeout: 120_000 })
    if (!value) throw new Error('The asset filter offers no assets')
    out.facet.push(await timeEffect(region, asset, { enter: value }))
    out.facet.push(await timeEffect(region, region.getByRole('button', { name: `Remove asset filter ${value}` })))
  }
  return out
}

/**
 * Milliseconds from scrolling the findings section into view to its first rows, and the requests
 * (other than the page's scripts) that ran meanwhile.
 */
async function firstRows(region: Locator, logged: readonly string[]): Promise<{ ms: number; waitedOn: string[] }> {
  return region
    .evaluate(
      (section, timeout) =>
        new Promise<{ ms: number; waitedOn: string[] }>((resolve, reject) => {
          const start = performance.now()
          section.scrollIntoView({ block: 'start' })
          // What the rows waited on: the requests still running when the section came into view.
          const waitedOn = () =>
            performance
              .getEntriesByType('resource')
              .filter((entry) => (entry as PerformanceResourceTiming).responseEnd > start && !entry.name.endsWith('.js'))
              .map((entry) => {
                const url = new URL(entry.name)
                const what = url.pathname.split('/').filter(Boolean).slice(-1)[0] ?? url.pathname
                const from = (entry.startTime - start).toFixed(0)
                return `${what} ${from}..${((entry as PerformanceResourceTiming).responseEnd - start).toFixed(0)} ms`
              })
          const check = () => {
            const rows = [...section.querySelectorAll('tr, [role="row"]')].some(
              (r) => r.querySelector('td, [role="cell"], [role="gridcell"]') !== null,
            )
            if (rows) resolve({ ms: performance.now() - start, waitedOn: waitedOn() })
            else if (performance.now() - start > timeout)
              reject(
                new Error(
                  `No findings rows appeared; the section shows: ${(section.textContent ?? '').replace(/\s+/g, ' ').slice(0, 300)}; requests: ${waitedOn().join(', ')}`,
                ),
              )
            else requestAnimationFrame(check)
          }
          check()
        }),
      120_000,
    )
    .catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nThe page logged: ${logged.join('\n') || 'nothing'}`)
    })
}

async function pageView(browser: Browser, app: string, counter: ReadCounter, size: number): Promise<PageView> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } })
  // Downloads, not the save-file picker (nobody is there to answer it).
  await context.addInitScript(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker)
  try {
    const page = await context.newPage()
    const logged: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()}`)
    })
    await signInByEmailLink(page, app, MANAGER.email)
    // Whatever the home page still streams is not this view's.
    await waitForQuiet(counter)
    counter.reset()
    const opened = performance.now()
    await page.goto(`${app}/reports/dast`, { waitUntil: 'load' })
    const loadMs = performance.now() - opened
    const region = page.getByRole('region', { name: 'Findings' })
    await region.waitFor({ state: 'attached', timeout: 60_000 })
    const first = await firstRows(region, logged)
    await waitForQuiet(counter)
    const reads = counter.counts()
    const count = ((await region.getByRole('status').first().textContent()) ?? '').trim()
    // The same person opening the report again: what a later visit waits for.
    await page.reload({ waitUntil: 'load' })
    await region.waitFor({ state: 'attached', timeout: 60_000 })
    const again = await firstRows(region, logged)
    const timed = await steps(region)
    // The whole view, as the table stands: every open finding.
    const csv = size <= EXPORT_MAX ? await exportWithHeap(page, 'csv') : null
    return { loadMs, first, again, count, reads, steps: timed, csv }
  } finally {
    await context.close()
  }
}

const timing = (timings: number[]) => {
  const { median, p95, runs } = spread(timings)
  return `median ${median.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (${runs} runs)`
}

const counter = await startReadCounter(`${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}`)
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs })
const results: string[] = []
try {
  await withStack(async (app) => {
    // The same build on its own port, reading Firestore through the counter: its Worker takes
    // FIRESTORE_EMULATOR_HOST from this environment (wrangler's CLOUDFLARE_INCLUDE_PROCESS_ENV), and
    // hands it to the browser. Only what it needs, as every variable becomes a binding of the Worker.
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CLOUDFLARE_INCLUDE_PROCESS_ENV: 'true',
      FIRESTORE_EMULATOR_HOST: counter.host,
    }
    await withPreviewServer(
      async (counted) => {
        for (const size of SIZES) {
          console.log(`\n${f(size)} open findings added to Acme's DAST: seeding…`)
          const seedMs = await seed(size)
          await preferAcme()
          const view = await pageView(browser, counted, counter, size)
          if (view.reads.total === 0)
            throw new Error(`No reads went through the counter: is ${counted} reading Firestore at ${counter.host}?`)
          const cookie = `__Host-session=${await idTokenFor(MANAGER.uid)}`
          await warmUp(`${app}/`, {}, 'Login with Link')
          await warmUp(`${app}/reports/dast`, { cookie }, 'Key figures')
          const bare = await measure(`${app}/`, {})
          const report = await measure(`${app}/reports/dast`, { cookie })
          const lines = [
            `\nAcme DAST with ${f(size)} open findings added (${view.count}):`,
            `  seeding (npm run seed with SEED_FINDINGS=${size}):          ${(seedMs / 1000).toFixed(1)} s`,
            `  page load (navigation to the load event):                 ${view.loadMs.toFixed(0)} ms`,
            `  first findings rows after the section scrolls into view:  ${view.first.ms.toFixed(0)} ms (${view.first.waitedOn.join(', ') || 'no request'})`,
            `  the same when the report is opened again:                 ${view.again.ms.toFixed(0)} ms (${view.again.waitedOn.join(', ') || 'no request'})`,
            `  document reads of the page view:                          ${formatReads(view.reads)}`,
            `  filter by severity (High on, off):                        ${timing(view.steps.filter)}`,
            `  sort by last seen (one way, the other):                   ${timing(view.steps.sort)}`,
            `  text search (typed, cleared):                             ${timing(view.steps.search)}`,
            `  asset facet (chosen, removed):                            ${timing(view.steps.facet)}`,
            view.csv
              ? `  CSV export of the view: ${(view.csv.ms / 1000).toFixed(1)} s, ${mb(view.csv.bytes)}; tab heap ${mb(view.csv.heapBefore)} before, ${mb(view.csv.heapPeak)} at most, ${mb(view.csv.heldPeak)} held after a collection at most (${view.csv.message})`
              : `  CSV export of the view: not measured above ${f(EXPORT_MAX)} findings (BENCH_SCALE_EXPORT_MAX: the emulator scans the collection for each page)`,
            `  SSR, workerd, ${CONNECTIONS} connections, ${DURATION_S}s each:`,
            `    ${row('home, signed out (bare)', bare)}`,
            `    ${row('/reports/dast, Acme manager', report)}`,
            `    ${ratio('report/bare', report, bare)}`,
          ]
          console.log(lines.join('\n'))
          results.push(...lines)
        }
      },
      COUNTED_PORT,
      { build: false, env },
    )
  }, STACK_PORT)
} finally {
  await browser.close()
  await counter.close()
}
console.log(`\n---- bench:scale, one run ----${results.join('\n')}`)
process.exit(0)
