// `npm run dev` as a person uses it: it starts the whole stack, everything answers, and Ctrl-C
// (SIGINT to the process group, as a terminal sends it) leaves no process and no port behind. The
// first start seeds and takes the demo snapshot; the next one loads it and holds the same demo data.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { findingsPath } from '#domain/findings.ts'
import { FINDINGS_INDEX } from '#domain/findings-search.ts'
import { TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import { TEMPLATES_INDEX } from '#domain/template-search.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, nodeBinary, PROJECT_ID, ROOT } from '../../emulators/firebase/env.ts'
import { descendants } from '../../emulators/firebase/processes.ts'
import { SEARCH_EMULATOR_DEFAULTS } from '../../emulators/search/config.ts'
import { DEMO_ACCOUNTS, DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'

const PORTS = { app: 3000, mailSmtp: 1025, mailHttp: 1080 }
// Snapshots of their own: the first start finds none, whatever the developer's checkout holds.
const snapshots = mkdtempSync(path.join(tmpdir(), 'demo-snapshots-'))
afterAll(() => rmSync(snapshots, { recursive: true, force: true }))

function launch(args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(nodeBinary(), ['--experimental-strip-types', 'scripts/dev.ts', ...args], {
    cwd: ROOT,
    // A tenth of the demo year: the full year's seed is proven by tests/emulators/seed-reports.test.ts,
    // and here it would only add a minute before the launcher is ready.
    env: { ...process.env, CI: 'true', SEED_REPORTS_SCALE: '0.1', DEMO_SNAPSHOTS_DIR: snapshots },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** Every process the launcher started, as seen while it ran. */
function watchProcesses(child: ChildProcess): { pids: Set<number>; stop: () => void } {
  const pids = new Set<number>()
  const note = () => {
    for (const p of descendants(child.pid!)) pids.add(p.pid)
  }
  const timer = setInterval(note, 200)
  return {
    pids,
    stop: () => {
      clearInterval(timer)
      note()
    },
  }
}

async function expectAllStopped(run: { exited: Promise<number | null> }, seen: Set<number>): Promise<void> {
  expect(await run.exited).toBe(0)
  expect(seen.size).toBeGreaterThan(3)
  await waitFor(() => [...seen].every((pid) => !alive(pid)), 10_000)
  for (const port of [PORTS.app, PORTS.mailSmtp, PORTS.mailHttp, ...Object.values(EMULATOR_PORTS)]) {
    expect(await portFree(port), `port ${port}`).toBe(true)
  }
}

const AUTH = `http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}`
const FIRESTORE = `http://${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}/v1/projects/${PROJECT_ID}/databases/(default)/documents`
const SEARCH = `http://${SEARCH_EMULATOR_DEFAULTS.host}:${SEARCH_EMULATOR_DEFAULTS.port}`
// The emulators take this in place of a service account.
const OWNER = { Authorization: 'Bearer owner', 'Content-Type': 'application/json' }
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = OWNER): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })
  expect(response.ok, `${url}: ${response.status}`).toBe(true)
  return (await response.json()) as T
}

interface DemoState {
  users: { uid: string; disabled: boolean; claims: unknown }[]
  findings: Record<string, number>
  templateCount: number
  searchHits: { findings: number; templates: number }
}

async function count(parent: string, collectionId: string): Promise<number> {
  const [answer] = await postJson<{ result: { aggregateFields: { n: { integerValue: string } } } }[]>(`${parent}:runAggregationQuery`, {
    structuredAggregationQuery: { structuredQuery: { from: [{ collectionId }] }, aggregations: [{ count: {}, alias: 'n' }] },
  })
  return Number(answer!.result.aggregateFields.n.integerValue)
}

async function hits(index: string): Promise<number> {
  const headers = { 'X-Algolia-Application-Id': SEARCH_EMULATOR_DEFAULTS.appId, 'X-Algolia-API-Key': SEARCH_EMULATOR_DEFAULTS.adminApiKey }
  return (await postJson<{ nbHits: number }>(`${SEARCH}/1/indexes/${index}/query`, { query: '', hitsPerPage: 0 }, headers)).nbHits
}

async function demoState(): Promise<DemoState> {
  const { userInfo } = await postJson<{ userInfo: { localId: string; disabled?: boolean; customAttributes?: string }[] }>(
    `${AUTH}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:query`,
    { returnUserInfo: true },
  )
  const findings: Record<string, number> = {}
  for (const { slug } of DEMO_COMPANIES) {
    const [parent, collection] = [path.dirname(findingsPath(slug)), path.basename(findingsPath(slug))]
    findings[slug] = await count(`${FIRESTORE}/${parent}`, collection)
  }
  return {
    users: userInfo
      .map((u) => ({ uid: u.localId, disabled: u.disabled ?? false, claims: JSON.parse(u.customAttributes ?? '{}') as unknown }))
      .sort((a, b) => a.uid.localeCompare(b.uid)),
    findings,
    templateCount: await count(FIRESTORE, TEMPLATES_COLLECTION),
    searchHits: { findings: await hits(FINDINGS_INDEX), templates: await hits(TEMPLATES_INDEX) },
  }
}

/** Signs in with an emailed link, as the sign-in page does: the claims of the ID token it gives. */
async function signInClaims(email: string): Promise<Record<string, unknown>> {
  const api = `${AUTH}/identitytoolkit.googleapis.com/v1`
  await postJson(
    `${api}/accounts:sendOobCode?key=local`,
    { requestType: 'EMAIL_SIGNIN', email, continueUrl: `http://127.0.0.1:${PORTS.app}/` },
    {
      'Content-Type': 'application/json',
    },
  )
  const { oobCodes } = (await (await fetch(`${AUTH}/emulator/v1/projects/${PROJECT_ID}/oobCodes`)).json()) as {
    oobCodes: { email: string; oobCode: string; requestType: string }[]
  }
  const code = oobCodes.findLast((c) => c.email === email && c.requestType === 'EMAIL_SIGNIN')
  expect(code, `a sign-in link for ${email}`).toBeDefined()
  const { idToken } = await postJson<{ idToken: string }>(
    `${api}/accounts:signInWithEmailLink?key=local`,
    { email, oobCode: code!.oobCode },
    {
      'Content-Type': 'application/json',
    },
  )
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>
}

let blocker: Server | undefined
afterEach(() => blocker?.close())

describe('npm run dev', () => {
  it('says in one line which port is taken, and starts nothing', async () => {
    blocker = createServer()
    await new Promise<void>((resolve) => blocker!.listen(PORTS.mailHttp, '127.0.0.1', resolve))
    const run = launch()
    expect(await run.exited).toBe(1)
    const lines = run
      .output()
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('npm warn'))
    expect(lines).toEqual([`✖ Port ${PORTS.mailHttp} (mail inbox) is in use: stop what uses it or set MAIL_HTTP_PORT`])
  })

  // What the demo data is made of, read back through the emulators' and the search emulator's APIs.
  let seeded: DemoState | undefined

  it('serves the app, the inbox and the emulators with the seeded demo data, takes the demo snapshot, and Ctrl-C stops every process it started', async () => {
    const run = launch()
    const seen = watchProcesses(run.child)
    try {
      await waitFor(() => run.output().includes('Ctrl-C stops everything.'), 150_000)
      expect(run.output()).toContain('viewer@acme.example')
      // No snapshot of this seed yet: it seeds, then takes one.
      expect(run.output()).toMatch(/Demo data +[\d.]+ s {2}seeded: no demo snapshot of this seed yet/)
      expect(run.output()).toMatch(/Demo snapshot +[\d.]+ s {2}written to /)
      expect(readdirSync(snapshots)).toHaveLength(1)

      const home = await fetch(`http://127.0.0.1:${PORTS.app}/reports`)
      expect(home.status).toBe(200)
      const html = await home.text()
      expect(html.slice(0, html.indexOf('</head>'))).toContain('<style data-styled')
      expect((await fetch(`http://127.0.0.1:${PORTS.mailHttp}/api/messages`)).status).toBe(200)
      seeded = await demoState()
      // Seeded: the demo users exist in the Auth emulator, the demo year's findings in Firestore and in search.
      expect(seeded.users.map((u) => u.uid)).toEqual(expect.arrayContaining(DEMO_ACCOUNTS.map((a) => a.uid)))
      expect(seeded.findings.acme).toBeGreaterThan(0)
      expect(seeded.searchHits).toEqual({ findings: sum(seeded.findings), templates: expect.any(Number) })
    } finally {
      seen.stop()
      process.kill(-run.child.pid!, 'SIGINT')
    }
    await expectAllStopped(run, seen.pids)
  })

  it('starts again from the snapshot, with the same demo data, search and sign-ins, and Ctrl-C stops every process it started', async () => {
    expect(seeded, 'the first start ran').toBeDefined()
    const run = launch()
    const seen = watchProcesses(run.child)
    try {
      await waitFor(() => run.output().includes('Ctrl-C stops everything.'), 120_000)
      expect(run.output()).toMatch(/Firebase emulators +[\d.]+ s {2}Auth and Firestore from the demo snapshot/)
      expect(run.output()).toMatch(/Demo data +[\d.]+ s {2}search indexed from it/)
      expect(run.output()).not.toContain('Loading demo data')

      expect(await demoState()).toEqual(seeded)
      expect(seeded!.templateCount).toBeGreaterThan(0)
      for (const account of DEMO_ACCOUNTS) {
        expect(await signInClaims(account.email), account.email).toMatchObject({
          accessLevel: account.accessLevel,
          userType: account.userType,
        })
      }
      expect((await fetch(`http://127.0.0.1:${PORTS.app}/reports`)).status).toBe(200)
    } finally {
      seen.stop()
      process.kill(-run.child.pid!, 'SIGINT')
    }
    await expectAllStopped(run, seen.pids)
  })
})
