// Real outages of the local stack's parts: the process that listens on a port is stopped (SIGSTOP)
// and the connections it held are cut, as when a server goes down: clients see their streams end and
// new connections get no answer. Resuming it (SIGCONT) brings it back with its data.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, type ConsoleMessage, type Page, type Route } from '@playwright/test'
import { callAs } from './findings'

function listenerPid(port: number): number {
  const line = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' })
  const pid = /pid=(\d+)/.exec(line)?.[1]
  if (!pid) throw new Error(`Nothing listens on port ${port}`)
  return Number(pid)
}

/** Stops what listens on `port`; the function returned resumes it (call it in a `finally`). */
export function pauseListener(port: number): () => void {
  const pid = listenerPid(port)
  process.kill(pid, 'SIGSTOP')
  execFileSync('ss', ['-K', '-tn', `sport = :${port}`])
  let resumed = false
  return () => {
    if (resumed) return
    resumed = true
    process.kill(pid, 'SIGCONT')
  }
}

/** Cuts the connections the browser (the e2e suite's Chromium) holds to `port`; other clients keep theirs. */
function cutBrowserConnections(port: number): void {
  const lines = execFileSync('ss', ['-tnpH', `dport = :${port}`], { encoding: 'utf8' }).split('\n')
  for (const line of lines) {
    const pid = /pid=(\d+)/.exec(line)?.[1]
    const local = /^\S+\s+\d+\s+\d+\s+\S+:(\d+)\s/.exec(line)?.[1]
    if (!pid || !local) continue
    const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''
    if (/chrom/i.test(program)) execFileSync('ss', ['-K', '-tn', `dport = :${port} and sport = :${local}`])
  }
}

/**
 * The page stops hearing from what listens on `port` while the rest of the stack still reaches it:
 * its open connections are cut and its new requests wait, as on a database that stopped answering
 * this browser. The function returned lets them go on (to the server as it is then).
 */
export async function deafenPage(page: Page, port: number): Promise<() => Promise<void>> {
  const waiting: Route[] = []
  const matches = (url: URL) => url.port === String(port)
  const hold = (route: Route) => void waiting.push(route)
  await page.route(matches, hold)
  cutBrowserConnections(port)
  return async () => {
    await page.unroute(matches, hold)
    for (const route of waiting.splice(0)) await route.continue().catch(() => undefined)
  }
}

/**
 * Resolves once the page's Firestore SDK has given the server up: two of its Listen streams failed
 * from now on (the first failure makes it unsure, the second offline). From then on it answers
 * listeners from its cache alone, as it does after any outage it noticed. Its own "Could not reach
 * Cloud Firestore backend" is said only if it never connected, so it cannot be waited for here.
 */
export function firestoreGivesUp(page: Page, { timeout = 60_000 } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    let failures = 0
    const onConsole = (message: ConsoleMessage) => {
      if (!/WebChannelConnection RPC 'Listen' stream \S+ transport errored/.test(message.text())) return
      if (++failures < 2) return
      done()
      resolve()
    }
    const timer = setTimeout(() => {
      done()
      reject(new Error(`Firestore in ${page.url()} did not give the server up within ${timeout} ms (${failures} failed streams)`))
    }, timeout)
    const done = () => {
      clearTimeout(timer)
      page.off('console', onConsole)
    }
    page.on('console', onConsole)
  })
}

/**
 * Resolves once the functions read the database again, asked as `uid` (an analyst of Acme): their
 * own connection to it was cut with the page's, and the next test signs in through them.
 */
export async function functionsReadTheDatabase(uid: string): Promise<void> {
  await expect
    .poll(async () => (await callAs(uid, 'getSearchClient', { type: 'findings', company: 'acme' })).status, { timeout: 90_000 })
    .toBe(200)
}
