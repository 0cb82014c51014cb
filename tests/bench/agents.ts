// `npm run bench:agents`: the scanning fleet on the Firebase emulators, through the agentApi
// function over HTTP as agents call it.
// 1. Leases per second: 20 simulated agents (real keys, signed requests) lease 200 queued jobs at once.
// 2. Trigger to first finding: a wapiti scan of the vulnerable app queued, a real agent process
//    takes it, runs wapiti and uploads; the time until the draft's first finding exists. Median of 5.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { AGENT_API_PATHS } from '#domain/agent-api.ts'
import { generateAgentKeyPair, newEnrolmentToken, sha256Hex, signAgentRequest, type AgentKeyPair } from '#domain/agent-auth.ts'
import { companyScopePath } from '#domain/agent-scope.ts'
import { agentEnrolmentPath, ENROLMENT_TTL_MS, locationPath } from '#domain/agents.ts'
import { companyPath } from '#domain/companies.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { MAX_ATTEMPTS, scanJobFromDocument, scanJobPath, SCAN_JOBS_COLLECTION } from '#domain/scan-jobs.ts'
import { connectToEmulators, disconnect } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { startVulnerableApp } from '../fixtures/vulnerable-app/server.ts'
import { companyDocument } from '../builders.ts'

const AGENTS = 20
const JOBS = 200
const RUNS = 5
const API = `http://${EMULATOR_HOST}:${EMULATOR_PORTS.functions}/${PROJECT_ID}/us-central1/agentApi`
const COMPANY = `bench-fleet-${randomUUID().slice(0, 6)}`
const admin = connectToEmulators()
const db = admin.db

async function location(): Promise<string> {
  const id = `bench-${randomUUID().slice(0, 8)}`
  await db.doc(locationPath(id)).set({ name: id, country: 'GB', region: '', network: 'bench', egressIps: [] })
  return id
}

async function token(locationId: string): Promise<string> {
  const value = newEnrolmentToken()
  const now = Date.now()
  await db.doc(agentEnrolmentPath(await sha256Hex(value))).set({
    locationId,
    agentId: null,
    name: `bench-${randomUUID().slice(0, 6)}`,
    createdBy: 'bench',
    createdAt: new Date(now),
    expiresAt: new Date(now + ENROLMENT_TTL_MS),
    usedAt: null,
    usedByAgentId: null,
  })
  return value
}

async function post(path: string, body: unknown, agent?: { id: string; keys: AgentKeyPair }) {
  const text = JSON.stringify(body)
  const authorization = agent ? await signAgentRequest(agent.id, agent.keys.privateKey, { method: 'POST', path, body: text }) : undefined
  const response = await fetch(`${API}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: text,
  })
  const answer = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`)
  return answer
}

async function queue(locationId: string, targets: string[]): Promise<string> {
  const ref = db.collection(SCAN_JOBS_COLLECTION).doc()
  const now = Date.now()
  await ref.set({
    company: COMPANY,
    service: 'dast',
    profile: 'web-dast',
    scanner: 'wapiti',
    targets,
    scope: [{ kind: 'ip', value: '127.0.0.1' }],
    locationId,
    state: 'queued',
    attempts: 0,
    maxAttempts: MAX_ATTEMPTS,
    leasedBy: null,
    leaseExpiresAt: null,
    createdAt: new Date(now),
    createdBy: 'bench',
    source: 'analyst',
  })
  return ref.id
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

await db.doc(companyPath(COMPANY)).set(companyDocument(COMPANY, { enableDast: true }))
await db.doc(companyScopePath(COMPANY)).set({ entries: [{ kind: 'ip', value: '127.0.0.1' }] })

// 1. Leases per second.
{
  const loc = await location()
  const agents = await Promise.all(
    Array.from({ length: AGENTS }, async () => {
      const { pair } = await generateAgentKeyPair()
      const enrolled = await post(AGENT_API_PATHS.enrol, {
        token: await token(loc),
        publicKey: pair.publicKey,
        hostname: 'bench',
        version: '1.0.0',
        scanners: [{ name: 'wapiti', version: '3.0.4' }],
      })
      return { id: String(enrolled.agentId), keys: pair }
    }),
  )
  for (let n = 0; n < JOBS; n += 50)
    await Promise.all(Array.from({ length: Math.min(50, JOBS - n) }, () => queue(loc, ['http://127.0.0.1:1/'])))
  const started = performance.now()
  // Each job's lease expiry as the server set it: a second lease before it would be two agents holding one job.
  const leased = new Map<string, number>()
  let requests = 0
  let relet = 0
  await Promise.all(
    agents.map(async (agent) => {
      while (leased.size < JOBS) {
        requests++
        const { job } = (await post(AGENT_API_PATHS.lease, {}, agent)) as { job: { id: string; leaseExpiresAt: number } | null }
        // Nothing for this agent now: done once the queue is empty (others racing may have taken its candidates).
        if (!job) {
          const left = await db.collection(SCAN_JOBS_COLLECTION).where('locationId', '==', loc).where('state', '==', 'queued').count().get()
          if (left.data().count === 0) return
          continue
        }
        const held = leased.get(job.id)
        if (held !== undefined && Date.now() < held) throw new Error(`job ${job.id} leased twice while its first lease held`)
        // These agents never beat: a lease that ran out puts the job back in the queue, as it should.
        if (held !== undefined) relet++
        leased.set(job.id, job.leaseExpiresAt)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  console.log(
    `Leases: ${leased.size} jobs by ${AGENTS} agents in ${seconds.toFixed(1)} s: ${(leased.size / seconds).toFixed(1)} leases/s (${requests} lease requests, none doubled, ${relet} let again after their lease ran out)`,
  )
}

// 2. Trigger to first finding, with a real agent and wapiti.
{
  const loc = await location()
  const app = await startVulnerableApp(0)
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-agent-'))
  const env = { ...process.env, BULWARK_AGENT_STATE: path.join(dir, 'state.json') }
  const enrol = spawn(process.execPath, ['--experimental-strip-types', 'agent/src/main.ts', 'enrol', await token(loc), '--server', API], {
    env,
    stdio: 'inherit',
  })
  await new Promise((resolve) => enrol.once('exit', resolve))
  const agent = spawn(process.execPath, ['--experimental-strip-types', 'agent/src/main.ts', 'run'], { env, stdio: 'ignore' })
  const times: number[] = []
  try {
    for (let run = 0; run < RUNS; run++) {
      const triggered = performance.now()
      const jobId = await queue(loc, [`${app.url}?run=${run}`])
      const found = await new Promise<number>((resolve, reject) => {
        const stopJob = db.doc(scanJobPath(jobId)).onSnapshot((snapshot) => {
          const job = scanJobFromDocument(snapshot.id, snapshot.data())
          if (job?.state === 'failed') reject(new Error(job.error ?? 'failed'))
          if (!job?.scanId) return
          stopJob()
          const stopFindings = db
            .collection(draftFindingsPath(COMPANY, job.scanId))
            .limit(1)
            .onSnapshot((findings) => {
              if (findings.empty) return
              stopFindings()
              resolve(performance.now() - triggered)
            }, reject)
        }, reject)
      })
      times.push(found)
      console.log(`  run ${run + 1}: ${(found / 1000).toFixed(1)} s`)
    }
    console.log(`Trigger to first finding (wapiti on the vulnerable app, ${RUNS} runs): median ${(median(times) / 1000).toFixed(1)} s`)
  } finally {
    agent.kill('SIGTERM')
    await app.close()
    await rm(dir, { recursive: true, force: true })
  }
}

await disconnect(admin)
process.exit(0)
