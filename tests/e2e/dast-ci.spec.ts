// A client's CI pipeline triggers a DAST scan, end to end, the way the curl and CI step of docs/api.md do:
// a company admin makes a DAST key on /admin/dast whose scans publish at once; the pipeline POSTs
// to /api/v1/dast/scans through the app's origin; an agent at a location takes the job and runs
// wapiti against the vulnerable app; the Acme viewer's /reports/dast shows the XSS and SQL
// injection findings live, without a reload; the status call answers `succeeded` with them as new.
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { DastScanStatus } from '#domain/dast-api.ts'
import { dastKeyPath } from '#domain/dast-keys.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { startVulnerableApp, type VulnerableApp } from '../fixtures/vulnerable-app/server'
import { expect, test } from './fixtures'
import { DastKeysPage } from './pages/admin-org'
import { FindingsTable } from './pages/findings'
import { preferencesOf, setPreferences } from './support/admin'
import { onlineAgent, stopAgent } from './support/agent-process'

const ADMIN = demoAccount('admin@acme.example')
const VIEWER = 'viewer@acme.example'
const id = randomUUID().slice(0, 6)
const LOCATION = `e2e-ci-${id}`
const XSS = /cross.site scripting/i
const SQLI = /sql injection/i
// wapiti on a busy two-core machine: the scan's own limit is 15 minutes; the vulnerable app takes far less.
const SCAN_TIMEOUT = 300_000

const db = () => sharedAdmin().db
let vulnerable: VulnerableApp
let stateDir: string
let agent: ChildProcess | null = null
let before: unknown

test.beforeAll(async () => {
  vulnerable = await startVulnerableApp(0)
  stateDir = await mkdtemp(path.join(tmpdir(), 'bulwark-dast-ci-'))
  before = (await preferencesOf(ADMIN.uid)).defaultCompany
  await setPreferences(ADMIN.uid, { defaultCompany: 'acme' })
})

test.afterAll(async () => {
  await stopAgent(agent)
  await vulnerable?.close()
  await rm(stateDir, { recursive: true, force: true })
  await setPreferences(ADMIN.uid, { defaultCompany: (before as string | undefined) ?? null })
})

test.describe('DAST from a client’s CI', () => {
  test.use({ signedInAs: ADMIN.email })

  test('a curl with a DAST key scans the vulnerable app; the viewer sees the findings live; the status returns them as new', async ({
    page,
    browser,
    baseURL,
    demoSessions,
    browserConsole,
  }) => {
    test.setTimeout(SCAN_TIMEOUT + 180_000)

    // An agent at a location of its own, enrolled and beating.
    ;({ agent } = await onlineAgent({
      stateDir,
      location: { id: LOCATION, name: `CI lab ${id}` },
      agentName: `ci-agent-${id}`,
      createdBy: 'senior@sectest.example',
      baseURL: baseURL!,
      scanner: 'wapiti',
    }))

    // The company admin makes a key for the staging site (here the vulnerable app) whose scans publish at once.
    const keys = new DastKeysPage(page)
    await keys.open()
    const keyName = `CI staging ${id}`
    const key = await keys.create(keyName, [vulnerable.url], 30, { publishAtOnce: true })
    await expect(keys.row(keyName)).toContainText('At once')

    // The viewer watches the DAST report, filtered to the staging site, before anything is scanned.
    const viewer = await browser.newContext({ baseURL, storageState: await demoSessions.stateOf(VIEWER) })
    browserConsole.watch(viewer)
    try {
      const report = await viewer.newPage()
      const findings = new FindingsTable(report)
      await findings.open('dast', `?q=${encodeURIComponent(new URL(vulnerable.url).host)}`)
      await expect(findings.section.getByText('No findings match these filters.')).toBeVisible()
      // Set on this very document: a reload would lose it.
      await report.evaluate(() => Object.assign(window, { __sameDocument: true }))

      // The pipeline's step, as in docs/api.md: POST the target with the key, 202 and a status URL.
      const triggered = await fetch(`${baseURL}/api/v1/dast/scans`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ target: vulnerable.url, location: LOCATION }),
      })
      const accepted = (await triggered.json()) as { id: string; status: string; statusUrl: string }
      expect(triggered.status, JSON.stringify(accepted)).toBe(202)
      expect(accepted).toMatchObject({ status: 'queued', statusUrl: `/api/v1/dast/scans/${accepted.id}` })

      // wapiti runs; the findings appear on the viewer's open page as soon as they are published.
      await expect(findings.table.getByRole('link', { name: XSS }).first()).toBeVisible({ timeout: SCAN_TIMEOUT })
      await expect(findings.table.getByRole('link', { name: SQLI }).first()).toBeVisible()
      expect(await report.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true)

      // The pipeline polls the status until the scan is over, then reads what is new.
      const status = async () => {
        const answer = await fetch(`${baseURL}${accepted.statusUrl}`, { headers: { Authorization: `Bearer ${key}` } })
        expect(answer.status).toBe(200)
        return (await answer.json()) as DastScanStatus
      }
      await expect.poll(async () => (await status()).status, { timeout: 60_000 }).toBe('succeeded')
      const result = await status()
      expect(result.target).toBe(vulnerable.url)
      expect(result.summary!.new).toBeGreaterThanOrEqual(2)
      expect(result.newFindings!.some((f) => XSS.test(f.title))).toBe(true)
      expect(result.newFindings!.some((f) => SQLI.test(f.title))).toBe(true)
      // What the CI step of docs/api.md gates on: new high or critical findings (the SQL injection is one).
      expect(result.summary!.newBySeverity.high + result.summary!.newBySeverity.critical).toBeGreaterThan(0)
    } finally {
      await viewer.close()
      await db()
        .doc(dastKeyPath(/^bwk_dast_([0-9A-Za-z]{16})/.exec(key)![1]!))
        .update({ revokedAt: new Date(), revokedBy: 'e2e' })
    }
  })
})
