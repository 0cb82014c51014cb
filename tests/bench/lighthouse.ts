// `npm run bench:lighthouse`: Lighthouse (its default mobile emulation and simulated throttling) on
// Home for a visitor, a signed-in report page and the finding templates list, against the
// production build in workerd with the whole local stack behind it, in Debian's Chromium.
// Cloudflare compresses what the Worker sends; the local preview does not, so a small proxy in front
// of it compresses with Brotli as the edge would. The proxy takes the app's address (port 3000, where
// sign-in links may point) and the preview moves behind it to 3001. Each page is measured
// LIGHTHOUSE_RUNS times (3) from a cold cache; the run with the median performance score is printed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { chromium, type BrowserContext } from '@playwright/test'
import lighthouse, { type Flags, type Result } from 'lighthouse'
import { signInMessages } from '#domain/sign-in.ts'
import { chromiumArgs, chromiumExecutable } from '../support/chromium.ts'
import { resetSignInRateLimits } from '../e2e/support/admin.ts'
import { waitForTokenAfterSignIn } from '../e2e/support/settled-sign-in.ts'
import { withStack } from './preview-server.ts'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const INBOX = 'http://127.0.0.1:1080'
const DEBUGGING_PORT = 9333

interface PageToMeasure {
  name: string
  path: string
  /** Signed in as this demo user (server session and the browser's Firebase Auth), or a visitor. */
  as?: string
}

const ALL_PAGES: PageToMeasure[] = [
  { name: 'Home (visitor)', path: '/' },
  { name: 'DAST report (client viewer)', path: '/reports/dast', as: 'viewer@acme.example' },
  { name: 'Finding templates (senior analyst)', path: '/templates/finding', as: 'senior@sectest.example' },
]

// LIGHTHOUSE_PAGES=dast,templates measures only the pages whose name or path holds one of those words.
const only = (process.env.LIGHTHOUSE_PAGES ?? '').split(',').filter(Boolean)
const PAGES =
  only.length === 0 ? ALL_PAGES : ALL_PAGES.filter((page) => only.some((word) => `${page.name} ${page.path}`.toLowerCase().includes(word)))
// LIGHTHOUSE_REPORTS=<dir> keeps each median run's full report there, to see where the time goes.
const REPORTS = process.env.LIGHTHOUSE_REPORTS

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding']

/** Forwards to `upstream`, compressing text responses with Brotli for clients that accept it. */
async function compressingProxy(upstream: URL, port: number): Promise<{ origin: string; close: () => Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true })
  const server = http.createServer((request, response) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        const headers = { ...answer.headers }
        for (const name of HOP_BY_HOP) delete headers[name]
        const compress =
          !answer.headers['content-encoding'] &&
          COMPRESSIBLE.test(String(answer.headers['content-type'] ?? '')) &&
          /\bbr\b/.test(String(request.headers['accept-encoding'] ?? '')) &&
          request.method !== 'HEAD' &&
          answer.statusCode !== 204 &&
          answer.statusCode !== 304
        if (!compress) {
          response.writeHead(answer.statusCode ?? 502, headers)
          answer.pipe(response)
          return
        }
        delete headers['content-length']
        headers['content-encoding'] = 'br'
        headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding'
        response.writeHead(answer.statusCode ?? 502, headers)
        // Built files compressed hard once (as for a cached asset); streamed pages quickly, chunk by chunk.
        const asset = request.url?.startsWith('/assets/') ?? false
        const brotli = zlib.createBrotliCompress({
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: asset ? 11 : 5 },
          ...(asset ? {} : { flush: zlib.constants.BROTLI_OPERATION_FLUSH }),
        })
        answer.pipe(brotli).pipe(response)
      },
    )
    forward.on('error', () => response.destroy())
    request.pipe(forward)
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      agent.destroy()
    },
  }
}

/** Signs in through the emailed link, as a person does, in the browser profile Lighthouse will use. */
async function signIn(context: BrowserContext, origin: string, email: string): Promise<void> {
  await resetSignInRateLimits()
  const page = await context.newPage()
  const before = Date.now()
  await page.goto(`${origin}/`)
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByRole('button', { name: 'Login with Link' }).click()
  await page.getByRole('status').filter({ hasText: signInMessages.sent }).waitFor({ timeout: 20_000 })
  const mail = (await (await fetch(`${INBOX}/api/wait?to=${email}&after=${before}&timeout=20000`)).json()) as { links: string[] }
  // Through Firebase Auth back to the app at `origin` (Firebase Auth keeps its user per origin).
  await page.goto(mail.links.find((l) => l.includes('oobCode='))!)
  await page.waitForURL(`${origin}/`, { timeout: 20_000 })
  await page.getByRole('banner').getByRole('button', { name: 'User menu' }).waitFor()
  await waitForTokenAfterSignIn(page)
  await page.close()
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const

async function measure(context: BrowserContext, url: string, signedIn: boolean): Promise<Result> {
  // A cold cache for each run; the signed-in profile's cookies and storage stay.
  const blank = await context.newPage()
  const cdp = await context.newCDPSession(blank)
  await cdp.send('Network.clearBrowserCache')
  await blank.close()
  const flags: Flags = {
    port: DEBUGGING_PORT,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    disableStorageReset: signedIn,
  }
  // On a busy machine the trace of a load is now and then incomplete (NO_NAVSTART): Lighthouse asks for another run.
  let result = await lighthouse(url, flags)
  for (let retry = 0; retry < 2 && result?.lhr.runtimeError; retry++) result = await lighthouse(url, flags)
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`)
  if (signedIn && new URL(result.lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
    throw new Error(`${url} ended at ${result.lhr.finalDisplayedUrl}: not signed in?`)
  }
  return result.lhr
}

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100)
const metric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? NaN

function describe(name: string, lhr: Result, scores: number[]): string {
  const failing = CATEGORIES.flatMap((category) =>
    Object.values(lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id]!)
      .filter((audit) => audit.score !== null && audit.score < 0.9)
      .map((audit) => `    ${category}: ${audit.id} ${audit.displayValue ?? ''} (${Math.round((audit.score ?? 0) * 100)})`),
  )
  return [
    `${name}  ${lhr.finalDisplayedUrl}`,
    `  performance ${score(lhr, 'performance')} (runs: ${scores.join(', ')}; CPU benchmark index ${lhr.environment.benchmarkIndex})  accessibility ${score(lhr, 'accessibility')}  best practices ${score(lhr, 'best-practices')}`,
    `  FCP ${(metric(lhr, 'first-contentful-paint') / 1000).toFixed(2)} s  LCP ${(metric(lhr, 'largest-contentful-paint') / 1000).toFixed(2)} s` +
      `  TBT ${metric(lhr, 'total-blocking-time').toFixed(0)} ms  CLS ${metric(lhr, 'cumulative-layout-shift').toFixed(3)}` +
      `  Speed Index ${(metric(lhr, 'speed-index') / 1000).toFixed(2)} s`,
    ...failing,
  ].join('\n')
}

await withStack(async (app) => {
  const proxy = await compressingProxy(new URL(app), 3000)
  const lines: string[] = []
  try {
    for (const page of PAGES) {
      // One browser profile per person: Lighthouse opens its tab in the profile's default context.
      const profile = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'))
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumExecutable(),
        args: [...chromiumArgs, `--remote-debugging-port=${DEBUGGING_PORT}`],
      })
      try {
        if (page.as) await signIn(context, proxy.origin, page.as)
        const runs: Result[] = []
        for (let i = 0; i < RUNS; i++) runs.push(await measure(context, `${proxy.origin}${page.path}`, !!page.as))
        const byPerformance = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'))
        const median = byPerformance[Math.floor((byPerformance.length - 1) / 2)]!
        if (REPORTS) {
          mkdirSync(REPORTS, { recursive: true })
          writeFileSync(path.join(REPORTS, `${page.path.replaceAll('/', '_') || 'home'}.json`), JSON.stringify(median))
        }
        lines.push(
          describe(
            page.name,
            median,
            runs.map((r) => score(r, 'performance')),
          ),
        )
        console.log(lines.at(-1))
      } finally {
        await context.close()
        rmSync(profile, { recursive: true, force: true })
      }
    }
  } finally {
    await proxy.close()
  }
  console.log(`\nLighthouse ${RUNS} runs per page, mobile emulation, Brotli in front of workerd:\n\n${lines.join('\n\n')}`)
}, 3001)
