// A password audit through an agent, end to end: a senior analyst on the password cracking page
// picks an agent (the agent program runs for real, with Debian's john), gives a secretsdump dump and
// a word list, and the draft audit appears with the cracked accounts. No request the browser sends
// holds a hash, a password or the word list: they leave it sealed to the agent's key.
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ntHash } from '#domain/scan-import/nt-hash.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { Shell } from './pages/shell'
import { preferencesOf, setPreferences } from './support/admin'
import { onlineAgent, stopAgent } from './support/agent-process'

const SENIOR = demoAccount('senior@sectest.example')
const id = randomUUID().slice(0, 6)
const LOCATION = `e2e-john-${id}`
const AGENT = `john-agent-${id}`
const passwords = { alice: `Spring${id}!`, bob: `Tr0ub4dor&${id}`, carol: `never-in-the-list-${id}` }
const hashes = Object.fromEntries(Object.entries(passwords).map(([user, password]) => [user, ntHash(password)]))
const NTDS = Object.entries(hashes)
  .map(([user, hash], n) => `ACME\\${user}:${1100 + n}:aad3b435b51404eeaad3b435b51404ee:${hash}:::`)
  .join('\n')
const WORDS = ['letmein', passwords.alice, passwords.bob, `unused-word-${id}`].join('\n')
const SECRETS = [...Object.values(hashes), ...Object.values(passwords), `unused-word-${id}`]

let stateDir: string
let agent: ChildProcess | null = null
let before: unknown

test.beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'bulwark-john-e2e-'))
  before = (await preferencesOf(SENIOR.uid)).defaultCompany
  await setPreferences(SENIOR.uid, { defaultCompany: 'acme' })
})

test.afterAll(async () => {
  await stopAgent(agent)
  await rm(stateDir, { recursive: true, force: true })
  await setPreferences(SENIOR.uid, { defaultCompany: (before as string | undefined) ?? null })
})

test.describe('password audits through an agent', () => {
  test.use({ signedInAs: SENIOR.email })

  test('the analyst queues an audit for an agent; john cracks it there; the draft appears; no request carries a secret', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    const started = await onlineAgent({
      stateDir,
      location: { id: LOCATION, name: `John lab ${id}` },
      agentName: AGENT,
      createdBy: SENIOR.email,
      baseURL: baseURL!,
      scanner: 'john',
    })
    agent = started.agent
    const { agentId } = started

    const bodies: string[] = []
    page.on('request', (request) => bodies.push(`${request.url()}\n${request.postData() ?? ''}`))

    const shell = new Shell(page)
    await shell.open('/analyst/services/password-cracking')
    const panel = page.getByRole('region', { name: 'Password audit on an agent' })
    await panel.getByLabel('Agent').selectOption({ value: agentId })
    await panel
      .getByLabel('Hash file (secretsdump NTDS)')
      .setInputFiles({ name: 'ntds.txt', mimeType: 'text/plain', buffer: Buffer.from(NTDS) })
    await panel.getByLabel('Word list').setInputFiles({ name: 'words.txt', mimeType: 'text/plain', buffer: Buffer.from(WORDS) })
    await panel.getByLabel('Privileged accounts (one a line)').fill('ACME\\bob')
    await panel.getByRole('button', { name: 'Run on the agent' }).click()
    await expect(panel.getByText(`Queued for ${AGENT}`)).toBeVisible()

    const job = panel
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Review the draft' }) })
      .first()
    await expect(job).toBeVisible({ timeout: 120_000 })
    await job.getByRole('button', { name: 'Review the draft' }).click()
    await expect(page.getByText("Privileged account's password cracked").filter({ visible: true }).first()).toBeVisible()

    expect(bodies.some((body) => body.includes('queuePasswordAudit'))).toBe(true)
    for (const body of bodies) for (const secret of SECRETS) expect(body).not.toContain(secret)
  })
})
