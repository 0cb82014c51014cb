// A client's CI cannot turn the vendor's agents inward (decision 0034). Acme's company admin makes a
// DAST key for a name under acme.example, which Acme's scope covers, and points that name (here, in
// a DNS server the test starts on loopback, which the agent resolves with) at an address the scope
// does not name: the pipeline's scan is refused in words, and the server behind that address never
// sees a request. A target other URL parsers would read differently is refused before anything is
// queued.
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { dastApiMessages, type DastScanStatus } from '#domain/dast-api.ts'
import { dastKeyPath } from '#domain/dast-keys.ts'
import { scanJobFromDocument, scanJobPath } from '#domain/scan-jobs.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { startDnsServer, type DnsServer } from '../fixtures/dns-server/server'
import { expect, test } from './fixtures'
import { DastKeysPage } from './pages/admin-org'
import { preferencesOf, setPreferences } from './support/admin'
import { onlineAgent, stopAgent } from './support/agent-process'

const ADMIN = demoAccount('admin@acme.example')
const id = randomUUID().slice(0, 6)
const LOCATION = `e2e-ci-scope-${id}`
const STAGING = `staging-${id}.acme.example`

const db = () => sharedAdmin().db
let dns: DnsServer
let internal: http.Server
let internalPort = 0
const internalHits: string[] = []
let stateDir: string
let agent: ChildProcess | null = null
let before: unknown

test.beforeAll(async () => {
  // An "internal" server on a loopback address no scope names: the place the name is pointed at.
  internal = http.createServer((req, res) => {
    internalHits.push(`${req.method} ${req.url}`)
    res.end('internal')
  })
  internalPort = await new Promise<number>((resolve) =>
    internal.listen(0, '127.0.0.2', () => resolve((internal.address() as AddressInfo).port)),
  )
  dns = await startDnsServer({ [STAGING]: ['127.0.0.2'] })
  stateDir = await mkdtemp(path.join(tmpdir(), 'bulwark-dast-scope-'))
  before = (await preferencesOf(ADMIN.uid)).defaultCompany
  await setPreferences(ADMIN.uid, { defaultCompany: 'acme' })
})

test.afterAll(async () => {
  await stopAgent(agent)
  internal.closeAllConnections()
  await new Promise<void>((resolve) => internal.close(() => resolve()))
  await dns.close()
  await rm(stateDir, { recursive: true, force: true })
  await setPreferences(ADMIN.uid, { defaultCompany: (before as string | undefined) ?? null })
})

test.describe('DAST from a client’s CI, aimed inward', () => {
  test.use({ signedInAs: ADMIN.email })

  test('a key whose name resolves to an address the scope does not name is refused in words, and nothing is scanned', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000)
    ;({ agent } = await onlineAgent({
      stateDir,
      location: { id: LOCATION, name: `CI scope lab ${id}` },
      agentName: `ci-scope-agent-${id}`,
      createdBy: 'senior@sectest.example',
      baseURL: baseURL!,
      scanner: 'wapiti',
      runArgs: ['--dns-server', dns.address],
    }))

    // The name lies under acme.example, so the key page accepts it as a target.
    const keys = new DastKeysPage(page)
    await keys.open()
    const target = `http://${STAGING}:${internalPort}/`
    const key = await keys.create(`CI staging ${id}`, [target], 30)
    try {
      const post = (body: unknown) =>
        fetch(`${baseURL}/api/v1/dast/scans`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })

      // A target that WHATWG reads as the key's host and Python's parsers as another is refused at once.
      const ambiguous = await post({ target: `http://${STAGING}:${internalPort}\\@127.0.0.2:${internalPort}/`, location: LOCATION })
      expect(ambiguous.status).toBe(400)
      expect(await ambiguous.json()).toEqual({ error: dastApiMessages.ambiguousTarget })

      const triggered = await post({ target, location: LOCATION })
      const accepted = (await triggered.json()) as { id: string; statusUrl: string }
      expect(triggered.status, JSON.stringify(accepted)).toBe(202)
      const status = async () =>
        (await (await fetch(`${baseURL}${accepted.statusUrl}`, { headers: { Authorization: `Bearer ${key}` } })).json()) as DastScanStatus
      await expect.poll(async () => (await status()).status, { timeout: 120_000 }).toBe('failed')
      const result = await status()
      expect(result.error).toMatch(
        new RegExp(
          `^Refused to scan: ${STAGING.replace(/\./g, '\\.')} resolves to 127\\.0\\.0\\.2, which is a loopback address \\(127\\.0\\.0\\.0/8\\) that the scan scope does not list by address`,
        ),
      )
      expect(result.summary).toBeUndefined()
      // No scanner ran: the internal server saw nothing and no draft scan was made.
      expect(internalHits).toEqual([])
      expect(scanJobFromDocument(accepted.id, (await db().doc(scanJobPath(accepted.id)).get()).data())?.scanId).toBeNull()
    } finally {
      await db()
        .doc(dastKeyPath(/^bwk_dast_([0-9A-Za-z]{16})/.exec(key)![1]!))
        .update({ revokedAt: new Date(), revokedBy: 'e2e' })
    }
  })
})
