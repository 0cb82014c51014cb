// The fleet's moves on Firestore (decision 0021): enrolment (audited), request authentication with replay
// refusal, heartbeats, leases taken by compare-and-set on the job, progress, expired leases put back in the
// queue. Every function takes `now`, so the emulator tests move time without waiting for it.
import { FieldValue, Timestamp, type DocumentSnapshot, type Firestore, type Transaction, type WriteBatch } from 'firebase-admin/firestore'
import * as v from 'valibot'
import { AgentAuthError, claimedAgentId, sha256Hex, verifyAgentRequest, type SignedRequest } from '#domain/agent-auth.ts'
import { EnrolRequestSchema, HeartbeatRequestSchema, ProgressRequestSchema, type JobSpec } from '#domain/agent-api.ts'
import {
  agentEnrolmentPath,
  agentFromDocument,
  agentNoncePath,
  agentPath,
  AGENTS_COLLECTION,
  enrolmentFromDocument,
  enrolmentRefusal,
  HEARTBEAT_INTERVAL_MS,
  type Agent,
} from '#domain/agents.ts'
import {
  applyJobChange,
  expireLease,
  extendLease,
  FINISHED_STATES,
  leasable,
  leaseJob,
  MAX_OUTPUT_BYTES,
  SCAN_JOBS_COLLECTION,
  SCAN_PROFILES,
  scanJobFromDocument,
  scanJobPath,
  type JobChange,
  type ScanJob,
} from '#domain/scan-jobs.ts'
import { storedTimes } from '#domain/stored.ts'
import { recordAuditEvent } from '../admin/audit.ts'

/** A refusal the API answers with its status and words. */
export class FleetError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export const fleetMessages = {
  tokenUnknown: 'This enrolment token is not known: create a new one on the agents page.',
  tokenUsed: 'This enrolment token was used already or withdrawn: create a new one on the agents page.',
  tokenExpired: 'This enrolment token has expired (they last 24 hours): create a new one on the agents page.',
  unknownAgent: 'This agent is not enrolled (it may have been removed): enrol it again.',
  disabled: 'This agent is disabled: an administrator must enable it.',
  rotated: 'This agent’s credentials were rotated: enrol it again with the new token.',
  replay: 'This request token was used already.',
  notHolder: 'This job is not leased to this agent.',
} as const

const toStored = (value: unknown) => storedTimes(value, Timestamp.fromMillis) as Record<string, unknown>

export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, body)
  if (!parsed.success) throw new FleetError(400, parsed.issues[0].message)
  return parsed.output
}

/** Exchanges a one-time token and the agent's public key for its identity, in one transaction. */
export async function enrolAgent(
  db: Firestore,
  body: unknown,
  now: number,
): Promise<{ agentId: string; name: string; locationId: string }> {
  const request = parseBody(EnrolRequestSchema, body)
  const tokenRef = db.doc(agentEnrolmentPath(await sha256Hex(request.token)))
  return db.runTransaction(async (tx) => {
    const snapshot = await tx.get(tokenRef)
    const enrolment = snapshot.exists ? enrolmentFromDocument(snapshot.id, snapshot.data()) : null
    const refusal = enrolmentRefusal(enrolment, now)
    if (refusal === 'unknown' || !enrolment) throw new FleetError(401, fleetMessages.tokenUnknown)
    if (refusal === 'used') throw new FleetError(401, fleetMessages.tokenUsed)
    if (refusal === 'expired') throw new FleetError(401, fleetMessages.tokenExpired)
    const agentRef = enrolment.agentId ? db.doc(agentPath(enrolment.agentId)) : db.collection(AGENTS_COLLECTION).doc()
    const existing = enrolment.agentId ? await tx.get(agentRef) : null
    if (existing && !existing.exists) throw new FleetError(401, fleetMessages.unknownAgent)
    const identity = {
      publicKey: request.publicKey,
      sealingKey: request.sealingKey ?? null,
      hostname: request.hostname,
      version: request.version,
      scanners: request.scanners,
      problems: [],
      lastError: null,
      lastHeartbeatAt: now,
    }
    // Enrolling never changes the state: a disabled agent stays disabled until an administrator enables it.
    if (existing) tx.update(agentRef, toStored(identity))
    else
      tx.create(
        agentRef,
        toStored({
          ...identity,
          name: enrolment.name,
          locationId: enrolment.locationId,
          state: 'active',
          currentJobId: null,
          enrolledAt: now,
          enrolledBy: enrolment.createdBy,
        }),
      )
    tx.update(tokenRef, toStored({ usedAt: now, usedByAgentId: agentRef.id }))
    // The token's issuer answers for the agent it let in.
    recordAuditEvent(db, tx, {
      actor: { uid: enrolment.createdByUid ?? enrolment.createdBy, email: enrolment.createdBy.includes('@') ? enrolment.createdBy : null },
      action: 'agent.enrolled',
      target: { kind: 'agent', id: agentRef.id, label: enrolment.name },
      companyId: null,
      before: existing ? { state: existing.get('state') ?? null, credentials: 'rotated' } : null,
      after: {
        state: existing ? (existing.get('state') ?? null) : 'active',
        locationId: enrolment.locationId,
        hostname: request.hostname,
        version: request.version,
      },
    })
    return { agentId: agentRef.id, name: enrolment.name, locationId: enrolment.locationId }
  })
}

/**
 * The agent a signed request comes from: known, active, signature and request matching, and the
 * token's id not seen before (its nonce document is created, so a second use fails).
 */
export async function authenticateAgent(
  db: Firestore,
  authorization: string | undefined,
  request: SignedRequest,
  now: number,
): Promise<Agent> {
  let agentId: string
  try {
    agentId = claimedAgentId(authorization)
  } catch (error) {
    throw new FleetError(401, (error as Error).message)
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(agentId)) throw new FleetError(401, fleetMessages.unknownAgent)
  const snapshot = await db.doc(agentPath(agentId)).get()
  const agent = snapshot.exists ? agentFromDocument(snapshot.id, snapshot.data()) : null
  if (!agent) throw new FleetError(401, fleetMessages.unknownAgent)
  if (!agent.publicKey) throw new FleetError(401, fleetMessages.rotated)
  let payload
  try {
    payload = await verifyAgentRequest(authorization, agent.publicKey, request, now)
  } catch (error) {
    if (error instanceof AgentAuthError) throw new FleetError(401, error.message)
    throw error
  }
  if (agent.state === 'disabled') throw new FleetError(403, fleetMessages.disabled)
  try {
    await db
      .doc(agentNoncePath(agent.id, payload.jti))
      .create({ agentId: agent.id, expiresAt: Timestamp.fromMillis((payload.exp + 60) * 1000) })
  } catch (error) {
    if ((error as { code?: number }).code === 6) throw new FleetError(401, fleetMessages.replay)
    throw error
  }
  return agent
}

const jobRef = (db: Firestore, id: string) => db.doc(scanJobPath(id))

async function readJob(tx: Transaction, db: Firestore, id: string): Promise<ScanJob | null> {
  const snapshot = await tx.get(jobRef(db, id))
  return snapshot.exists ? scanJobFromDocument(snapshot.id, snapshot.data()) : null
}

function writeJobChange(tx: Transaction, db: Firestore, job: ScanJob, change: JobChange, extra: Record<string, unknown> = {}) {
  tx.update(jobRef(db, job.id), { ...toStored({ ...change, ...extra }), updatedAt: FieldValue.serverTimestamp() })
}

/** A heartbeat: the agent's state recorded, the leases of the jobs it runs extended, the jobs it must drop named. */
export async function recordHeartbeat(
  db: Firestore,
  agent: Agent,
  body: unknown,
  now: number,
): Promise<{ heartbeatMs: number; stop: string[] }> {
  const beat = parseBody(HeartbeatRequestSchema, body)
  const stop: string[] = []
  for (const jobId of beat.runningJobs) {
    const kept = await db.runTransaction(async (tx) => {
      const job = await readJob(tx, db, jobId)
      const change = job ? extendLease(job, agent.id, now) : null
      if (!job || !change) return false
      writeJobChange(tx, db, job, change)
      return true
    })
    if (!kept) stop.push(jobId)
  }
  await db.doc(agentPath(agent.id)).update(
    toStored({
      version: beat.version,
      scanners: beat.scanners,
      problems: beat.problems,
      lastError: beat.lastError,
      currentJobId: beat.runningJobs.find((id) => !stop.includes(id)) ?? null,
      lastHeartbeatAt: now,
    }),
  )
  return { heartbeatMs: HEARTBEAT_INTERVAL_MS, stop }
}

/**
 * Writes a job's move provided the document is still as it was read (its update time), with any other
 * writes in the same atomic batch. No transaction: a transaction's reads hold locks, and agents racing
 * for the same jobs then wait on each other's locks (the emulator until its lock timeout). A compare
 * and set on the update time lets exactly one of the racers through and tells the others at once.
 */
async function writeIfUnchanged(
  db: Firestore,
  snapshot: DocumentSnapshot,
  job: ScanJob,
  change: JobChange,
  extra: Record<string, unknown>,
  also?: (batch: WriteBatch) => void,
): Promise<boolean> {
  const batch = db.batch()
  batch.update(
    jobRef(db, job.id),
    { ...toStored({ ...change, ...extra }), updatedAt: FieldValue.serverTimestamp() },
    { lastUpdateTime: snapshot.updateTime! },
  )
  also?.(batch)
  try {
    await batch.commit()
    return true
  } catch (error) {
    // FAILED_PRECONDITION: another writer moved the job since it was read; ABORTED: it is moving it now.
    const code = (error as { code?: number }).code
    if (code === 9 || code === 10) return false
    throw error
  }
}

/** Jobs whose lease ran out, at one location or all: back in the queue, or failed after their last attempt. */
export async function reclaimExpiredLeases(db: Firestore, now: number, locationId?: string): Promise<number> {
  let query = db.collection(SCAN_JOBS_COLLECTION).where('state', 'in', ['leased', 'running'])
  if (locationId) query = query.where('locationId', '==', locationId)
  const candidates = await query.where('leaseExpiresAt', '<=', Timestamp.fromMillis(now)).limit(100).get()
  let moved = 0
  for (const candidate of candidates.docs) {
    const job = scanJobFromDocument(candidate.id, candidate.data())
    const change = job ? expireLease(job, now) : null
    // Another agent reclaiming (or leasing) the same job first is as good as this one doing it.
    if (!job || !change || !(await writeIfUnchanged(db, candidate, job, change, {}))) continue
    moved++
    if (change.state === 'failed' && job.sealedInput) await dropSealedInput(db, job.id)
  }
  return moved
}

/** What the agent is told about a job it leased: for a password audit, its sealed inputs and the company's reuse key, for that job only. */
export async function leasedJobSpec(db: Firestore, job: ScanJob, reuseKey: (company: string) => string | null): Promise<JobSpec> {
  if (job.profile !== 'password-audit') return jobSpec(job)
  if (!job.sealedInput) throw new FleetError(409, 'This password audit has no sealed input.')
  const parts = await jobRef(db, job.id).collection('sealed').get()
  const ct = parts.docs
    .sort((a, b) => Number(a.id) - Number(b.id))
    .map((d) => String(d.get('ct') ?? ''))
    .join('')
  const key = reuseKey(job.company)
  if (!key) throw new FleetError(503, 'Password audits are not set up on this server (PASSWORD_REUSE_SECRET).')
  const { v: version, epk, iv } = job.sealedInput
  return { ...jobSpec(job), passwordAudit: { company: job.company, sealed: { v: version, epk, iv, ct }, reuseKey: key } }
}

/** The ciphertext of a password audit's inputs, removed once the job has finished. */
export async function dropSealedInput(db: Firestore, jobId: string): Promise<void> {
  const parts = await jobRef(db, jobId).collection('sealed').get()
  if (parts.empty) return
  const batch = db.batch()
  parts.docs.forEach((d) => batch.delete(d.ref))
  await batch.commit()
}

/** What the agent is told about a job it leased. */
export function jobSpec(job: ScanJob, files?: Record<string, string>): JobSpec {
  return {
    id: job.id,
    profile: job.profile,
    targets: job.targets,
    scope: job.scope,
    maxRunMs: SCAN_PROFILES[job.profile].maxRunMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    leaseExpiresAt: job.leaseExpiresAt ?? 0,
    ...(files ? { files } : {}),
  }
}

/** Queued jobs read at once, oldest first, and tried in a shuffled order so racing agents spread over them. */
const LEASE_CANDIDATES = 10

/**
 * The oldest queued job of the agent's location that one of its scanners runs, leased to it. The
 * candidates are read with one query outside any transaction; each is then taken with a write that
 * holds only if the job is unchanged since that read, so of agents racing for one job exactly one
 * gets it and the others learn at once and try their next candidate. Trying the candidates in a
 * random order keeps twenty agents from all aiming at the single oldest job.
 */
export async function leaseNextJob(db: Firestore, agent: Agent, now: number, random: () => number = Math.random): Promise<ScanJob | null> {
  await reclaimExpiredLeases(db, now, agent.locationId)
  const scanners = new Set(agent.scanners.map((s) => s.name))
  if (scanners.size === 0) return null
  const queued = await db
    .collection(SCAN_JOBS_COLLECTION)
    .where('locationId', '==', agent.locationId)
    .where('state', '==', 'queued')
    .where('scanner', 'in', [...scanners])
    .orderBy('createdAt')
    .limit(LEASE_CANDIDATES)
    .get()
  for (const candidate of shuffled(queued.docs, random)) {
    const job = scanJobFromDocument(candidate.id, candidate.data())
    if (!job || job.locationId !== agent.locationId || !scanners.has(job.scanner) || !leasable(job, now)) continue
    // A password audit is sealed to one agent's key: only that agent takes it.
    if (job.agentId && job.agentId !== agent.id) continue
    const change = leaseJob(job, agent.id, now)
    const taken = await writeIfUnchanged(
      db,
      candidate,
      job,
      change,
      { progress: { phase: 'leased', message: `Taken by ${agent.name}`, at: now } },
      (batch) => batch.update(db.doc(agentPath(agent.id)), { currentJobId: job.id }),
    )
    if (taken) return applyJobChange(job, change)
  }
  return null
}

/** A copy in random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}

/** A progress report of the job's holder: running, with the lease extended. */
export async function recordProgress(
  db: Firestore,
  agent: Agent,
  jobId: string,
  body: unknown,
  now: number,
): Promise<{ leaseExpiresAt: number }> {
  const progress = parseBody(ProgressRequestSchema, body)
  return db.runTransaction(async (tx) => {
    const job = await readJob(tx, db, jobId)
    const change = job ? extendLease(job, agent.id, now) : null
    if (!job || !change) throw new FleetError(409, fleetMessages.notHolder)
    writeJobChange(
      tx,
      db,
      job,
      { ...change, state: 'running' },
      { progress: { ...progress, at: now }, ...(job.state === 'leased' ? { startedAt: now } : {}) },
    )
    return { leaseExpiresAt: change.leaseExpiresAt! }
  })
}

/**
 * The job, held by the agent: checked and its lease renewed in one transaction, so what the agent
 * sends is imported only while it holds the job, not once its lease ran out, another agent took it or
 * it was cancelled. A job this agent finished is answered as it stands (a result sent twice); any
 * other is refused alike, so an agent learns nothing of the jobs it did not hold.
 */
export async function heldJob(db: Firestore, agent: Agent, jobId: string, now: number): Promise<ScanJob> {
  return db.runTransaction(async (tx) => {
    const job = await readJob(tx, db, jobId)
    if (job && FINISHED_STATES.includes(job.state) && job.finishedBy === agent.id) return job
    const change = job ? extendLease(job, agent.id, now) : null
    if (!job || !change) throw new FleetError(409, fleetMessages.notHolder)
    writeJobChange(tx, db, job, change)
    return applyJobChange(job, change)
  })
}

/** Writes a job's last move, provided the agent still holds it; a job it finishes names the agent. */
export async function finishJob(
  db: Firestore,
  agent: Agent,
  jobId: string,
  change: JobChange,
  extra: Record<string, unknown>,
): Promise<ScanJob> {
  return db.runTransaction(async (tx) => {
    const job = await readJob(tx, db, jobId)
    if (job && FINISHED_STATES.includes(job.state) && job.finishedBy === agent.id) return job
    if (!job || FINISHED_STATES.includes(job.state) || job.leasedBy !== agent.id) throw new FleetError(409, fleetMessages.notHolder)
    const finisher = change.state && FINISHED_STATES.includes(change.state) ? { finishedBy: agent.id } : {}
    writeJobChange(tx, db, job, change, { ...extra, ...finisher })
    tx.update(db.doc(agentPath(agent.id)), { currentJobId: null })
    return { ...applyJobChange(job, change), ...finisher }
  })
}
