// The fleet's callables (decision 0021): locations, enrolment tokens, agent administration and
// scans queued from the analyst service pages. Only the functions write these collections; every
// change to a location or an agent is an audit event written in the same commit.
import { FieldValue, Timestamp, type Firestore, type Transaction, type WriteBatch } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { newEnrolmentToken, sha256Hex } from '#domain/agent-auth.ts'
import type { SealedBox } from '#domain/agent-sealing.ts'
import { companyScopePath, jobTargetAllowed, scopeEntriesFromDocument } from '#domain/agent-scope.ts'
import { canonicalScanTarget } from '#domain/scan-scope.ts'
import {
  AGENT_ENROLMENTS_COLLECTION,
  agentEnrolmentPath,
  agentFromDocument,
  agentPath,
  AGENTS_COLLECTION,
  ENROLMENT_TTL_MS,
  LOCATIONS_COLLECTION,
  locationFromDocument,
  locationPath,
  locationServes,
} from '#domain/agents.ts'
import {
  MAX_ATTEMPTS,
  SCAN_JOBS_COLLECTION,
  SCAN_PROFILES,
  scanJobFromDocument,
  scanJobPath,
  FINISHED_STATES,
  JOB_STATES,
  type ScanProfile,
} from '#domain/scan-jobs.ts'
import type { AuditAction, AuditSnapshot } from '#domain/audit-events.ts'
import { storedTimes } from '#domain/stored.ts'
import { adminDb } from '../admin.ts'
import { dropSealedInput } from './fleet-store.ts'
import { recordAuditEvent } from '../admin/audit.ts'
import { defineCallable, type Caller } from '../define-callable.ts'
import { importCaller } from '../scans/import-caller.ts'

const by = (caller: Caller) => caller.email ?? caller.uid
const toStored = (value: unknown) => storedTimes(value, Timestamp.fromMillis) as Record<string, unknown>

export const fleetCallMessages = {
  noLocation: 'There is no such location.',
  noAgent: 'There is no such agent.',
  noJob: 'There is no such scan job.',
  outOfScope: (target: string) => `${target} is not in the company's scan scope.`,
  ambiguousTarget: (target: string) =>
    `${target} cannot be scanned as written: a target holds no user name, backslash, space or percent sign in its host part.`,
  locationNotForCompany:
    'This location does not scan for this company: a senior analyst chooses the companies a location serves on the locations page.',
  finished: 'This scan has finished already.',
  auditFromPage: 'Queue a password audit from the password cracking page: its hash file and word list are sealed to the agent there.',
  agentNoSealingKey:
    'This agent has no key for password audits yet (it enrolled before they existed): rotate its credentials on the agents page and enrol it again.',
  agentNoJohn: 'This agent has not found john on its host: install it (Debian package john) and restart the agent.',
  agentDisabled: 'This agent is disabled.',
  locationHasAgents: 'Agents work from this location: move or remove them first.',
  locationHasJobs: 'Scans are waiting or running at this location: let them finish or cancel them first.',
} as const

/** Who acted, as the audit trail names them. */
export interface FleetActor {
  uid: string
  email: string | null
}

const actorOf = (caller: Caller): FleetActor => ({ uid: caller.uid, email: caller.email })

/** A location as the audit trail shows it: its fields, without the stamps. */
const locationSnapshot = (data: Record<string, unknown> | undefined) =>
  data ? Object.fromEntries(LOCATION_FIELDS.map((key) => [key, data[key] ?? null])) : null
const LOCATION_FIELDS = ['name', 'country', 'region', 'network', 'egressIps', 'companies'] as const

const UNFINISHED_STATES = JOB_STATES.filter((state) => !FINISHED_STATES.includes(state))

const recordFleetEvent = (
  db: Firestore,
  tx: Transaction | WriteBatch,
  actor: FleetActor,
  action: Extract<AuditAction, `location.${string}` | `agent.${string}`>,
  target: { kind: 'location' | 'agent'; id: string; label: string },
  before: AuditSnapshot,
  after: AuditSnapshot,
) => recordAuditEvent(db, tx, { actor, action, target, companyId: null, before, after })

export const saveLocation = defineCallable('saveLocation', {}, async (caller, request) => {
  const db = adminDb()
  const { id, ...fields } = request
  const ref = id ? db.doc(locationPath(id)) : db.collection(LOCATIONS_COLLECTION).doc()
  await db.runTransaction(async (tx) => {
    const current = id ? await tx.get(ref) : null
    if (current && !current.exists) throw new HttpsError('not-found', fleetCallMessages.noLocation)
    tx.set(ref, { ...fields, updatedAt: FieldValue.serverTimestamp(), updatedBy: by(caller) }, { merge: true })
    recordFleetEvent(
      db,
      tx,
      actorOf(caller),
      current ? 'location.updated' : 'location.created',
      { kind: 'location', id: ref.id, label: fields.name },
      locationSnapshot(current?.data()),
      locationSnapshot(fields),
    )
  })
  return { id: ref.id }
})

/** A location goes only once no agent works from it and no scan waits for it there. */
export const deleteLocation = defineCallable('deleteLocation', {}, async (caller, request) => {
  const db = adminDb()
  const ref = db.doc(locationPath(request.id))
  await db.runTransaction(async (tx) => {
    const current = await tx.get(ref)
    if (!current.exists) throw new HttpsError('not-found', fleetCallMessages.noLocation)
    const [agents, jobs] = await Promise.all([
      tx.get(db.collection(AGENTS_COLLECTION).where('locationId', '==', ref.id).limit(1)),
      tx.get(db.collection(SCAN_JOBS_COLLECTION).where('locationId', '==', ref.id).where('state', 'in', UNFINISHED_STATES).limit(1)),
    ])
    if (!agents.empty) throw new HttpsError('failed-precondition', fleetCallMessages.locationHasAgents)
    if (!jobs.empty) throw new HttpsError('failed-precondition', fleetCallMessages.locationHasJobs)
    tx.delete(ref)
    const before = locationSnapshot(current.data())
    recordFleetEvent(
      db,
      tx,
      actorOf(caller),
      'location.deleted',
      { kind: 'location', id: ref.id, label: String(before?.name ?? ref.id) },
      before,
      null,
    )
  })
  return { deleted: true }
})

/**
 * Adds to `batch` a one-time token for `locationId` (and, when rotating, for an existing agent),
 * stored as its SHA-256; the caller records the audit event in the same batch.
 */
async function addEnrolment(
  db: Firestore,
  batch: WriteBatch,
  locationId: string,
  name: string,
  actor: FleetActor,
  agentId: string | null,
  now: number,
) {
  const token = newEnrolmentToken()
  const expiresAt = now + ENROLMENT_TTL_MS
  batch.create(
    db.doc(agentEnrolmentPath(await sha256Hex(token))),
    toStored({
      locationId,
      name,
      agentId,
      createdBy: actor.email ?? actor.uid,
      createdByUid: actor.uid,
      createdAt: now,
      expiresAt,
      usedAt: null,
      usedByAgentId: null,
    }),
  )
  return { token, expiresAt }
}

/** A one-time token for `locationId` (for a new agent, or to enrol `agentId` again), audited with its issue. */
export async function issueEnrolment(
  db: Firestore,
  locationId: string,
  name: string,
  actor: FleetActor,
  agentId: string | null,
  now: number,
) {
  const batch = db.batch()
  const issued = await addEnrolment(db, batch, locationId, name, actor, agentId, now)
  recordFleetEvent(db, batch, actor, 'agent.enrolment_issued', { kind: 'agent', id: agentId ?? name, label: name }, null, {
    locationId,
    expiresAt: new Date(issued.expiresAt).toISOString(),
  })
  await batch.commit()
  return issued
}

export const createAgentEnrolment = defineCallable('createAgentEnrolment', {}, async (caller, request) => {
  const db = adminDb()
  const location = await db.doc(locationPath(request.locationId)).get()
  if (!location.exists || !locationFromDocument(location.id, location.data()))
    throw new HttpsError('not-found', fleetCallMessages.noLocation)
  return issueEnrolment(db, request.locationId, request.name, actorOf(caller), null, Date.now())
})

const AGENT_ACTIONS = { disable: 'agent.disabled', enable: 'agent.enabled', rotate: 'agent.rotated', remove: 'agent.removed' } as const

/** Disables, enables, rotates the credentials of (a new token, shown once) or removes an agent, audited in the same commit. */
export async function changeAgentAs(db: Firestore, actor: FleetActor, agentId: string, action: keyof typeof AGENT_ACTIONS, now: number) {
  const ref = db.doc(agentPath(agentId))
  const snapshot = await ref.get()
  const agent = snapshot.exists ? agentFromDocument(snapshot.id, snapshot.data()) : null
  if (!agent) throw new HttpsError('not-found', fleetCallMessages.noAgent)
  const stamp = { updatedAt: FieldValue.serverTimestamp(), updatedBy: actor.email ?? actor.uid }
  const batch = db.batch()
  const target = { kind: 'agent' as const, id: agent.id, label: agent.name }
  const before = { state: agent.state, locationId: agent.locationId, hostname: agent.hostname }
  let answer: { token: string | null; expiresAt: number | null } = { token: null, expiresAt: null }
  let after: AuditSnapshot = null
  if (action === 'rotate' || action === 'disable') {
    // The tokens still open for this agent (an earlier rotation's) are withdrawn: after a rotation only
    // its new token enrols the agent, and after a disable none does.
    const open = await db.collection(AGENT_ENROLMENTS_COLLECTION).where('agentId', '==', agent.id).where('usedAt', '==', null).get()
    for (const enrolment of open.docs) batch.update(enrolment.ref, toStored({ usedAt: now }))
  }
  switch (action) {
    case 'disable':
    case 'enable':
      batch.update(ref, { state: action === 'disable' ? 'disabled' : 'active', ...stamp })
      after = { ...before, state: action === 'disable' ? 'disabled' : 'active' }
      break
    case 'rotate': {
      // The old key stops working at once; the agent enrols again with the new token and keeps its identity.
      batch.update(ref, { publicKey: null, sealingKey: null, ...stamp })
      answer = await addEnrolment(db, batch, agent.locationId, agent.name, actor, agent.id, now)
      after = { ...before, credentials: 'rotated: a new enrolment token issued' }
      break
    }
    case 'remove':
      batch.delete(ref)
      break
  }
  recordFleetEvent(db, batch, actor, AGENT_ACTIONS[action], target, before, after)
  await batch.commit()
  return answer
}

export const changeAgent = defineCallable('changeAgent', {}, async (caller, request) =>
  changeAgentAs(adminDb(), actorOf(caller), request.agentId, request.action, Date.now()),
)

/** The company's scan scope entries, as stored now. */
export async function companyScope(db: Firestore, company: string) {
  return scopeEntriesFromDocument((await db.doc(companyScopePath(company)).get()).data())
}

export interface NewJob {
  company: string
  profile: ScanProfile
  locationId: string
  targets: string[]
  createdBy: string
  source: 'analyst' | 'dast-api'
  dastKeyId?: string | null
  publishAtOnce?: boolean
}

/** What every new job starts with: queued, never leased, nothing tried or made yet. */
const waitingInQueue = (now: number, message: string) =>
  ({
    state: 'queued',
    attempts: 0,
    maxAttempts: MAX_ATTEMPTS,
    leasedBy: null,
    leaseExpiresAt: null,
    createdAt: now,
    progress: { phase: 'queued', message, at: now },
    scanId: null,
    error: null,
    finishedAt: null,
  }) as const

/**
 * A job ready to be written, after checking that the location serves the company and every target,
 * in its canonical form (the one stored and handed to the scanners), lies in the company's scope.
 */
export async function preparedJob(db: Firestore, job: NewJob, now: number) {
  const [locationSnapshot, scope] = await Promise.all([db.doc(locationPath(job.locationId)).get(), companyScope(db, job.company)])
  const location = locationSnapshot.exists ? locationFromDocument(locationSnapshot.id, locationSnapshot.data()) : null
  if (!location) throw new HttpsError('not-found', fleetCallMessages.noLocation)
  if (!locationServes(location, job.company)) throw new HttpsError('permission-denied', fleetCallMessages.locationNotForCompany)
  const targets = job.targets.map((target) => {
    const canonical = canonicalScanTarget(target)
    if (canonical === null) throw new HttpsError('invalid-argument', fleetCallMessages.ambiguousTarget(target))
    if (!jobTargetAllowed(canonical, scope)) throw new HttpsError('failed-precondition', fleetCallMessages.outOfScope(target))
    return canonical
  })
  return {
    ref: db.collection(SCAN_JOBS_COLLECTION).doc(),
    data: {
      ...toStored({
        company: job.company,
        service: SCAN_PROFILES[job.profile].service,
        profile: job.profile,
        scanner: SCAN_PROFILES[job.profile].scanner,
        targets: [...new Set(targets)],
        scope,
        locationId: job.locationId,
        createdBy: job.createdBy,
        source: job.source,
        dastKeyId: job.dastKeyId ?? null,
        publishAtOnce: job.publishAtOnce ?? false,
        ...waitingInQueue(now, 'Waiting for an agent at this location'),
      }),
      updatedAt: FieldValue.serverTimestamp(),
    },
  }
}

/** Queues a job after the checks of preparedJob. */
export async function queueJob(db: Firestore, job: NewJob, now: number): Promise<string> {
  const { ref, data } = await preparedJob(db, job, now)
  await ref.create(data)
  return ref.id
}

export const queueScanJob = defineCallable('queueScanJob', {}, async (caller, request) => {
  const db = adminDb()
  const importer = await importCaller(db, caller, request.company, SCAN_PROFILES[request.profile].service)
  if (request.profile === 'password-audit') throw new HttpsError('invalid-argument', fleetCallMessages.auditFromPage)
  const jobId = await queueJob(db, { ...request, createdBy: importer.by, source: 'analyst' }, Date.now())
  return { jobId }
})

/** Ciphertext characters per document under scan_jobs/{id}/sealed: well under Firestore's 1 MiB a document. */
const SEALED_PART_CHARS = 900_000

/**
 * A password audit for one agent: only ciphertext sealed to that agent's X25519 key is stored, in
 * parts under the job (decision 0021); the job names the agent, so no other agent can lease it.
 */
export async function queuePasswordAuditJob(
  db: Firestore,
  request: { company: string; agentId: string; sealed: SealedBox },
  createdBy: string,
  now: number,
): Promise<string> {
  const agent = agentFromDocument(request.agentId, (await db.doc(agentPath(request.agentId)).get()).data())
  if (!agent) throw new HttpsError('not-found', fleetCallMessages.noAgent)
  if (agent.state === 'disabled' || !agent.publicKey) throw new HttpsError('failed-precondition', fleetCallMessages.agentDisabled)
  if (!agent.sealingKey) throw new HttpsError('failed-precondition', fleetCallMessages.agentNoSealingKey)
  if (!agent.scanners.some((s) => s.name === 'john')) throw new HttpsError('failed-precondition', fleetCallMessages.agentNoJohn)
  const location = locationFromDocument(agent.locationId, (await db.doc(locationPath(agent.locationId)).get()).data())
  if (!location || !locationServes(location, request.company))
    throw new HttpsError('permission-denied', fleetCallMessages.locationNotForCompany)
  const ref = db.collection(SCAN_JOBS_COLLECTION).doc()
  const parts = Math.max(1, Math.ceil(request.sealed.ct.length / SEALED_PART_CHARS))
  const batch = db.batch()
  for (let n = 0; n < parts; n++)
    batch.create(ref.collection('sealed').doc(String(n)), {
      ct: request.sealed.ct.slice(n * SEALED_PART_CHARS, (n + 1) * SEALED_PART_CHARS),
    })
  batch.create(ref, {
    ...toStored({
      company: request.company,
      service: SCAN_PROFILES['password-audit'].service,
      profile: 'password-audit',
      scanner: 'john',
      targets: [],
      scope: [],
      locationId: agent.locationId,
      agentId: agent.id,
      sealedInput: { v: request.sealed.v, epk: request.sealed.epk, iv: request.sealed.iv, parts },
      createdBy,
      source: 'analyst',
      dastKeyId: null,
      publishAtOnce: false,
      ...waitingInQueue(now, `Waiting for ${agent.name}`),
    }),
    updatedAt: FieldValue.serverTimestamp(),
  })
  await batch.commit()
  return ref.id
}

export const queuePasswordAudit = defineCallable('queuePasswordAudit', {}, async (caller, request) => {
  const db = adminDb()
  const importer = await importCaller(db, caller, request.company, 'password_cracking')
  return { jobId: await queuePasswordAuditJob(db, request, importer.by, Date.now()) }
})

export const cancelScanJob = defineCallable('cancelScanJob', {}, async (caller, request) => {
  const db = adminDb()
  const ref = db.doc(scanJobPath(request.jobId))
  const snapshot = await ref.get()
  const job = snapshot.exists ? scanJobFromDocument(snapshot.id, snapshot.data()) : null
  if (!job) throw new HttpsError('not-found', fleetCallMessages.noJob)
  await importCaller(db, caller, job.company, job.service)
  const answer = await db.runTransaction(async (tx) => {
    const current = scanJobFromDocument(ref.id, (await tx.get(ref)).data())
    if (!current || FINISHED_STATES.includes(current.state)) return { cancelled: false }
    tx.update(ref, {
      state: 'cancelled',
      leasedBy: null,
      leaseExpiresAt: null,
      finishedAt: FieldValue.serverTimestamp(),
      updatedAt: FieldValue.serverTimestamp(),
    })
    return { cancelled: true }
  })
  // A cancelled password audit's sealed input goes with it.
  if (answer.cancelled && job.sealedInput) await dropSealedInput(db, job.id)
  return answer
})
