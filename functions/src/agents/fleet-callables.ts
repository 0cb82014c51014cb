// The fleet's callables (decision 0021): locations, enrolment tokens, agent administration and
// scans queued from the analyst service pages. Only the functions write these collections.
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { newEnrolmentToken, sha256Hex } from '#domain/agent-auth.ts'
import { companyScopePath, jobTargetAllowed, scopeEntriesFromDocument } from '#domain/agent-scope.ts'
import {
  agentEnrolmentPath,
  agentFromDocument,
  agentPath,
  ENROLMENT_TTL_MS,
  LOCATIONS_COLLECTION,
  locationFromDocument,
  locationPath,
} from '#domain/agents.ts'
import { mayImportScans } from '#domain/scan-import-calls.ts'
import {
  MAX_ATTEMPTS,
  SCAN_JOBS_COLLECTION,
  SCAN_PROFILES,
  scanJobFromDocument,
  scanJobPath,
  FINISHED_STATES,
  type ScanProfile,
} from '#domain/scan-jobs.ts'
import { storedTimes } from '#domain/stored.ts'
import { adminDb } from '../admin.ts'
import { callerMessages, defineCallable, type Caller } from '../define-callable.ts'
import { reportCaller } from '../reports/report-caller.ts'

const by = (caller: Caller) => caller.email ?? caller.uid
const toStored = (value: unknown) => storedTimes(value, Timestamp.fromMillis) as Record<string, unknown>

export const fleetCallMessages = {
  noLocation: 'There is no such location.',
  noAgent: 'There is no such agent.',
  noJob: 'There is no such scan job.',
  outOfScope: (target: string) => `${target} is not in the company's scan scope.`,
  finished: 'This scan has finished already.',
} as const

export const saveLocation = defineCallable('saveLocation', {}, async (caller, request) => {
  const db = adminDb()
  const { id, ...fields } = request
  const ref = id ? db.doc(locationPath(id)) : db.collection(LOCATIONS_COLLECTION).doc()
  if (id && !(await ref.get()).exists) throw new HttpsError('not-found', fleetCallMessages.noLocation)
  await ref.set({ ...fields, updatedAt: FieldValue.serverTimestamp(), updatedBy: by(caller) }, { merge: true })
  return { id: ref.id }
})

/** A one-time token for `locationId` (and, when rotating, for an existing agent); stored as its SHA-256. */
export async function issueEnrolment(
  db: Firestore,
  locationId: string,
  name: string,
  createdBy: string,
  agentId: string | null,
  now: number,
) {
  const token = newEnrolmentToken()
  const expiresAt = now + ENROLMENT_TTL_MS
  await db
    .doc(agentEnrolmentPath(await sha256Hex(token)))
    .create(toStored({ locationId, name, agentId, createdBy, createdAt: now, expiresAt, usedAt: null, usedByAgentId: null }))
  return { token, expiresAt }
}

export const createAgentEnrolment = defineCallable('createAgentEnrolment', {}, async (caller, request) => {
  const db = adminDb()
  const location = await db.doc(locationPath(request.locationId)).get()
  if (!location.exists || !locationFromDocument(location.id, location.data()))
    throw new HttpsError('not-found', fleetCallMessages.noLocation)
  return issueEnrolment(db, request.locationId, request.name, by(caller), null, Date.now())
})

export const changeAgent = defineCallable('changeAgent', {}, async (caller, request) => {
  const db = adminDb()
  const ref = db.doc(agentPath(request.agentId))
  const snapshot = await ref.get()
  const agent = snapshot.exists ? agentFromDocument(snapshot.id, snapshot.data()) : null
  if (!agent) throw new HttpsError('not-found', fleetCallMessages.noAgent)
  const stamp = { updatedAt: FieldValue.serverTimestamp(), updatedBy: by(caller) }
  switch (request.action) {
    case 'disable':
    case 'enable':
      await ref.update({ state: request.action === 'disable' ? 'disabled' : 'active', ...stamp })
      return { token: null, expiresAt: null }
    case 'rotate': {
      // The old key stops working at once; the agent enrols again with the new token and keeps its identity.
      await ref.update({ publicKey: null, ...stamp })
      const issued = await issueEnrolment(db, agent.locationId, agent.name, by(caller), agent.id, Date.now())
      return issued
    }
    case 'remove':
      await ref.delete()
      return { token: null, expiresAt: null }
  }
})

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

/** Queues a job after checking the location and every target against the company's scope. */
export async function queueJob(db: Firestore, job: NewJob, now: number): Promise<string> {
  const [location, scope] = await Promise.all([db.doc(locationPath(job.locationId)).get(), companyScope(db, job.company)])
  if (!location.exists) throw new HttpsError('not-found', fleetCallMessages.noLocation)
  const outside = job.targets.find((target) => !jobTargetAllowed(target, scope))
  if (outside !== undefined) throw new HttpsError('failed-precondition', fleetCallMessages.outOfScope(outside))
  const ref = db.collection(SCAN_JOBS_COLLECTION).doc()
  await ref.create({
    ...toStored({
      company: job.company,
      service: SCAN_PROFILES[job.profile].service,
      profile: job.profile,
      scanner: SCAN_PROFILES[job.profile].scanner,
      targets: [...new Set(job.targets)],
      scope,
      locationId: job.locationId,
      state: 'queued',
      attempts: 0,
      maxAttempts: MAX_ATTEMPTS,
      leasedBy: null,
      leaseExpiresAt: null,
      createdAt: now,
      createdBy: job.createdBy,
      source: job.source,
      dastKeyId: job.dastKeyId ?? null,
      publishAtOnce: job.publishAtOnce ?? false,
      progress: { phase: 'queued', message: 'Waiting for an agent at this location', at: now },
      scanId: null,
      error: null,
      finishedAt: null,
    }),
    updatedAt: FieldValue.serverTimestamp(),
  })
  return ref.id
}

export const queueScanJob = defineCallable('queueScanJob', {}, async (caller, request) => {
  const db = adminDb()
  const importer = await reportCaller(db, caller, request.company)
  if (!mayImportScans(importer.access, SCAN_PROFILES[request.profile].service))
    throw new HttpsError('permission-denied', callerMessages.denied)
  const jobId = await queueJob(db, { ...request, createdBy: importer.by, source: 'analyst' }, Date.now())
  return { jobId }
})

export const cancelScanJob = defineCallable('cancelScanJob', {}, async (caller, request) => {
  const db = adminDb()
  const ref = db.doc(scanJobPath(request.jobId))
  const snapshot = await ref.get()
  const job = snapshot.exists ? scanJobFromDocument(snapshot.id, snapshot.data()) : null
  if (!job) throw new HttpsError('not-found', fleetCallMessages.noJob)
  const importer = await reportCaller(db, caller, job.company)
  if (!mayImportScans(importer.access, job.service)) throw new HttpsError('permission-denied', callerMessages.denied)
  return db.runTransaction(async (tx) => {
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
})
