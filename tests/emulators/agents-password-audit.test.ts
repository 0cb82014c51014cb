// Password audits through an agent (decisions 0017 and 0021): the inputs are sealed to the agent's
// X25519 key, the agent opens them, runs the real john and derives the audit, and the server imports
// it as a draft. No stored document (job, its parts, draft, findings, assets, agent) holds a hash, a
// password or the word list.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_API_PATHS, type JobSpec } from '#domain/agent-api.ts'
import { generateAgentKeyPair, signAgentRequest, type AgentKeyPair } from '#domain/agent-auth.ts'
import { generateSealingKeyPair, sealPasswordAudit } from '#domain/agent-sealing.ts'
import { agentPath, locationPath } from '#domain/agents.ts'
import { companyPath } from '#domain/companies.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { ntHash } from '#domain/scan-import/nt-hash.ts'
import { scanJobFromDocument, scanJobPath } from '#domain/scan-jobs.ts'
import { scanPath } from '#domain/scans.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { runPasswordAuditJob } from '../../agent/src/password-audit.ts'
import { handleAgentRequest } from '../../functions/src/agents/agent-api.ts'
import { fleetCallMessages, issueEnrolment, queuePasswordAuditJob } from '../../functions/src/agents/fleet-callables.ts'
import { companyDocument } from '../builders.ts'

const unique = () => randomUUID().slice(0, 8)
const COMPANY = `audit-${unique()}`
const T0 = Date.now()
const SENIOR = { uid: 'audit-senior', email: 'senior@sectest.example' }
const scanners = [{ name: 'john' as const, version: '1.9.0' }]

const passwords = { alice: 'Winter2025!x', bob: 'Tr0ub4dor&3', carol: 'never-guessed-Qx81' }
const hashes = Object.fromEntries(Object.entries(passwords).map(([user, password]) => [user, ntHash(password)]))
const ntds = Object.entries(hashes)
  .map(([user, hash], n) => `CORP\\${user}:${1100 + n}:aad3b435b51404eeaad3b435b51404ee:${hash}:::`)
  .join('\n')
const words = ['Winter2025!x', 'Tr0ub4dor&3', 'Qwerty-unused-7781']
const secrets = [...Object.values(hashes), ...Object.values(passwords), ...words]

let admin: AdminClients
let loc: string

interface TestAgent {
  id: string
  keys: AgentKeyPair
  sealing: Awaited<ReturnType<typeof generateSealingKeyPair>> | null
}

async function newAgent(withSealing: boolean): Promise<TestAgent> {
  const { token } = await issueEnrolment(admin.db, loc, `agent-${unique()}`, SENIOR, null, T0)
  const { pair } = await generateAgentKeyPair()
  const sealing = withSealing ? await generateSealingKeyPair() : null
  const body = {
    token,
    publicKey: pair.publicKey,
    ...(sealing ? { sealingKey: sealing.publicKey } : {}),
    hostname: 't',
    version: '1.0.0',
    scanners,
  }
  const answer = await handleAgentRequest(admin.db, { method: 'POST', path: AGENT_API_PATHS.enrol, body: JSON.stringify(body) }, T0)
  expect(answer.status).toBe(201)
  return { id: (answer.body as { agentId: string }).agentId, keys: pair, sealing }
}

async function call(agent: TestAgent, path: string, body: unknown, now: number) {
  const text = JSON.stringify(body)
  const authorization = await signAgentRequest(agent.id, agent.keys.privateKey, { method: 'POST', path, body: text }, now)
  return handleAgentRequest(admin.db, { method: 'POST', path, authorization, body: text }, now)
}

const lease = async (agent: TestAgent, now: number) => {
  const answer = await call(agent, AGENT_API_PATHS.lease, {}, now)
  expect(answer.status).toBe(200)
  return (answer.body as { job: JobSpec | null }).job
}

/** Every document's data under a path, as JSON, subcollections included. */
async function storedText(path: string): Promise<string> {
  const ref = admin.db.doc(path)
  const snapshot = await ref.get()
  const parts = [JSON.stringify(snapshot.data() ?? null)]
  for (const collection of await ref.listCollections())
    for (const doc of (await collection.get()).docs) parts.push(await storedText(doc.ref.path))
  return parts.join('\n')
}

beforeAll(async () => {
  process.env.PASSWORD_REUSE_SECRET ??= 'emulator-test-password-reuse-secret'
  admin = connectToEmulators()
  await admin.db.doc(companyPath(COMPANY)).set(companyDocument(COMPANY))
  loc = `loc-${unique()}`
  await admin.db
    .doc(locationPath(loc))
    .set({ name: loc, country: 'GB', region: '', network: 'loopback', egressIps: [], companies: [COMPANY] })
})

afterAll(async () => {
  await disconnect(admin)
})

describe('password audits through an agent', () => {
  it('refuses a job for an agent enrolled without a sealing key', async () => {
    const old = await newAgent(false)
    const sealing = await generateSealingKeyPair()
    const sealed = await sealPasswordAudit(
      sealing.publicKey,
      { ntds, wordlist: '', companyNames: [], policyMinLength: 8, privilegedAccounts: [] },
      { company: COMPANY, agentId: old.id },
    )
    await expect(queuePasswordAuditJob(admin.db, { company: COMPANY, agentId: old.id, sealed }, 'analyst', T0)).rejects.toThrow(
      fleetCallMessages.agentNoSealingKey,
    )
  })

  it('runs john on the agent and imports the derived audit; nothing stored holds a hash, a password or the word list', async () => {
    const agent = await newAgent(true)
    const other = await newAgent(true)
    const sealed = await sealPasswordAudit(
      agent.sealing!.publicKey,
      { ntds, wordlist: words.join('\n'), companyNames: ['Corp'], policyMinLength: 14, privilegedAccounts: ['CORP\\bob'] },
      { company: COMPANY, agentId: agent.id },
    )
    const jobId = await queuePasswordAuditJob(admin.db, { company: COMPANY, agentId: agent.id, sealed }, 'analyst@sectest.example', T0)
    // Sealed to one agent: another at the same location never gets it.
    expect((await lease(other, T0 + 1000))?.id).not.toBe(jobId)
    const spec = await lease(agent, T0 + 2000)
    expect(spec?.id).toBe(jobId)
    expect(spec?.passwordAudit?.reuseKey).toMatch(/^[0-9a-f]{64}$/)

    const signal = new AbortController().signal
    const sealing = { agentId: agent.id, publicKey: agent.sealing!.publicKey, privateKeyText: agent.sealing!.privateKeyText }
    const { audit } = await runPasswordAuditJob(spec!, sealing, signal)
    const result = await call(
      agent,
      AGENT_API_PATHS.result(jobId),
      { outcome: 'audited', audit, startedAt: T0, finishedAt: T0 + 3000 },
      T0 + 3000,
    )
    expect(result.status).toBe(200)
    const { scanId } = result.body as { state: string; scanId: string }
    expect(result.body).toMatchObject({ state: 'succeeded' })

    const findings = (await admin.db.collection(draftFindingsPath(COMPANY, scanId)).get()).docs.map((d) => d.data())
    expect(findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['privileged_cracked', 'cracked', 'below_policy']))
    const scan = (await admin.db.doc(scanPath(COMPANY, scanId)).get()).data()
    expect(scan).toMatchObject({ state: 'draft', service: 'password_cracking', stats: { accountsAudited: 3, cracked: 2 } })
    const job = scanJobFromDocument(jobId, (await admin.db.doc(scanJobPath(jobId)).get()).data())
    expect(job).toMatchObject({ state: 'succeeded', scanId })
    expect((await admin.db.collection(`${scanJobPath(jobId)}/sealed`).get()).empty).toBe(true)

    const stored = [
      await storedText(scanJobPath(jobId)),
      await storedText(scanPath(COMPANY, scanId)),
      await storedText(agentPath(agent.id)),
    ].join('\n')
    expect(stored).toContain(scanId)
    for (const secret of secrets) expect(stored).not.toContain(secret)
  })
})
