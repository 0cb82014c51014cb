// The scanning fleet end to end: a senior analyst adds a location and enrols an agent from the
// page (the agent program runs for real, on this machine), sees it online, queues a wapiti scan of
// the vulnerable app from the DAST service page, follows the job to its draft scan with the XSS
// and SQL injection findings, then the agent is killed and the page shows it offline.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { startVulnerableApp, type VulnerableApp } from '../fixtures/vulnerable-app/server'
import { expect, test } from './fixtures'
import { Shell } from './pages/shell'
import { setPreferences, preferencesOf } from './support/admin'

const SENIOR = demoAccount('senior@sectest.example')
const ROOT = path.resolve(import.meta.dirname, '../..')

let vulnerable: VulnerableApp
let stateDir: string
const processes: ChildProcess[] = []
let before: unknown

test.beforeAll(async () => {
  vulnerable = await startVulnerableApp(0)
  stateDir = await mkdtemp(path.join(tmpdir(), 'bulwark-agent-e2e-'))
  before = (await preferencesOf(SENIOR.uid)).defaultCompany
  await setPreferences(SENIOR.uid, { defaultCompany: 'acme' })
})
test.afterAll(async () => {
  for (const child of processes) child.kill('SIGKILL')
  await vulnerable.close()
  await rm(stateDir, { recursive: true, force: true })
  await setPreferences(SENIOR.uid, { defaultCompany: (before as string | undefined) ?? null })
})

function agent(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--experimental-strip-types', 'agent/src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, BULWARK_AGENT_STATE: path.join(stateDir, 'state.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  processes.push(child)
  return child
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve))

test.describe('scanning agents', () => {
  test.use({ signedInAs: SENIOR.email })

  test('enrol from the page, scan the vulnerable app with wapiti, see the findings, and see the agent go offline', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(300_000)
    const id = randomUUID().slice(0, 6)
    const locationName = `E2E lab ${id}`
    const agentName = `e2e-agent-${id}`

    // The shell's open() waits for hydration: only then do the forms submit by script.
    const shell = new Shell(page)
    await shell.open('/analyst/locations')
    await page.getByLabel('Name', { exact: true }).fill(locationName)
    await page.getByLabel('Country (two letters)').fill('GB')
    await page.getByLabel('Network').fill('loopback')
    // Bound to Acme: only Acme's scans may run from it (decision 0034).
    await page.getByRole('group', { name: 'Scans for' }).getByLabel(/^Acme/).check()
    await page.getByRole('button', { name: 'Add location' }).click()
    await expect(page.getByRole('row').filter({ hasText: locationName })).toContainText('0 of 0 online')
    await expect(page.getByRole('row').filter({ hasText: locationName }).getByTestId('location-companies')).toHaveText(/^Acme/)

    await shell.open('/analyst/agents')
    await page.getByLabel('Agent name').fill(agentName)
    await page.getByLabel('Location').selectOption({ label: locationName })
    await page.getByRole('button', { name: 'Create enrolment token' }).click()
    const command = (await page.getByTestId('enrol-command').textContent()) ?? ''
    const token = /bwk_enr_[A-Za-z0-9_-]{43}/.exec(command)?.[0]
    expect(token).toBeTruthy()
    expect(await exited(agent(['enrol', token!, '--server', `${baseURL}/api/agents`]))).toBe(0)
    // The token works once.
    expect(await exited(agent(['enrol', token!, '--server', `${baseURL}/api/agents`, '--state', path.join(stateDir, 'other.json')]))).toBe(
      1,
    )

    const running = agent(['run'])
    const row = page.getByRole('row').filter({ hasText: agentName })
    await expect(row.getByTestId('agent-health')).toHaveText(/^Online/, { timeout: 30_000 })
    await expect(row).toContainText('wapiti 3.0.4')

    await shell.open('/analyst/services/dast')
    const panel = page.getByRole('region', { name: 'Scan with an agent' })
    await panel.getByLabel('Location').selectOption({ label: locationName })
    await panel.getByLabel('Targets (URLs or hosts, one per line)').fill(vulnerable.url)
    await panel.getByRole('button', { name: 'Queue scan' }).click()
    const job = panel.getByRole('row').filter({ hasText: vulnerable.url })
    await expect(job.getByTestId('job-state')).toHaveText('Done', { timeout: 180_000 })
    await job.getByRole('button', { name: 'Review the draft' }).click()
    // Each finding shows in the review (the same words may also sit in hidden lists, such as a template picker).
    await expect(page.getByText('Cross Site Scripting').filter({ visible: true }).first()).toBeVisible()
    await expect(page.getByText('SQL Injection').filter({ visible: true }).first()).toBeVisible()

    running.kill('SIGKILL')
    await shell.open('/analyst/agents')
    await expect(page.getByRole('row').filter({ hasText: agentName }).getByTestId('agent-health')).toHaveText(/^Offline/, {
      timeout: 90_000,
    })
  })

  test('the fleet pages fit a 375 px phone: their tables scroll in their own box', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    const shell = new Shell(page)
    for (const [path, table] of [
      ['/analyst/locations', 'Locations'],
      ['/analyst/agents', 'Agents'],
    ] as const) {
      await shell.open(path)
      await expect(page.getByRole('table', { name: table }).getByRole('row').nth(1)).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375)
      await page.screenshot({ path: test.info().outputPath(`${table.toLowerCase()}-phone.png`), fullPage: true })
    }
  })
})
