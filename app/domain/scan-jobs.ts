// scan_jobs/{id}: a scan queued for a location (decision 0021). Agents of that location lease the
// oldest queued job whose scanner they have; a lease lasts LEASE_MS and each heartbeat or progress
// report extends it. A lease that runs out (the agent stopped) puts the job back in the queue, or
// fails it once it has been tried MAX_ATTEMPTS times. The functions own every move; the moves are
// the pure functions below so the state machine is tested without a database.
import * as v from 'valibot'
import { SCOPE_KINDS } from './scan-scope.ts'
import { SCANNER_NAMES, type ScannerName } from './agents.ts'
import type { ServiceId } from './services.ts'
import { TimestampSchema } from './stored.ts'

export const SCAN_JOBS_COLLECTION = 'scan_jobs'
export const scanJobPath = (id: string) => `${SCAN_JOBS_COLLECTION}/${id}`

export const LEASE_MS = 45_000
export const MAX_ATTEMPTS = 3

export const SCAN_PROFILES = {
  'web-dast': { label: 'Web application (wapiti)', scanner: 'wapiti', service: 'dast', maxRunMs: 15 * 60_000 },
  'network-ports': { label: 'Network ports and services (nmap)', scanner: 'nmap', service: 'network', maxRunMs: 15 * 60_000 },
  'tls-config': { label: 'TLS configuration (testssl.sh)', scanner: 'testssl', service: 'network', maxRunMs: 10 * 60_000 },
  'password-audit': { label: 'Password hashes (john)', scanner: 'john', service: 'password_cracking', maxRunMs: 30 * 60_000 },
} as const satisfies Record<string, { label: string; scanner: ScannerName; service: ServiceId; maxRunMs: number }>
export type ScanProfile = keyof typeof SCAN_PROFILES
export const SCAN_PROFILE_IDS = Object.keys(SCAN_PROFILES) as ScanProfile[]

/** Raw output an agent may upload for one job. */
export const MAX_OUTPUT_BYTES = 8 * 1024 * 1024

export const JOB_STATES = ['queued', 'leased', 'running', 'succeeded', 'failed', 'cancelled'] as const
export type JobState = (typeof JOB_STATES)[number]
export const FINISHED_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled']

export const JOB_STATE_LABELS: Record<JobState, string> = {
  queued: 'Waiting for an agent',
  leased: 'Taken by an agent',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

const JobSchema = v.object({
  id: v.string(),
  company: v.string(),
  service: v.string(),
  profile: v.picklist(Object.keys(SCAN_PROFILES) as [ScanProfile, ...ScanProfile[]]),
  scanner: v.picklist(SCANNER_NAMES),
  targets: v.array(v.string()),
  /** The company's scope when the job was queued: the agent and the server check every target against it. */
  scope: v.array(v.object({ kind: v.picklist(SCOPE_KINDS), value: v.string() })),
  locationId: v.string(),
  state: v.picklist(JOB_STATES),
  attempts: v.number(),
  maxAttempts: v.number(),
  leasedBy: v.optional(v.nullable(v.string()), null),
  leaseExpiresAt: v.optional(v.nullable(TimestampSchema), null),
  createdAt: TimestampSchema,
  createdBy: v.string(),
  source: v.optional(v.picklist(['analyst', 'dast-api']), 'analyst'),
  dastKeyId: v.optional(v.nullable(v.string()), null),
  /** The draft it makes is published as soon as it is written (a CI scan whose key says so). */
  publishAtOnce: v.optional(v.boolean(), false),
  /** The one agent that may take it: a password audit is sealed to that agent's key. */
  agentId: v.optional(v.nullable(v.string()), null),
  /** A password audit's sealed inputs: the box's header here, its ciphertext in parts under scan_jobs/{id}/sealed. */
  sealedInput: v.optional(v.nullable(v.object({ v: v.literal(1), epk: v.string(), iv: v.string(), parts: v.number() })), null),
  progress: v.optional(v.nullable(v.object({ phase: v.string(), message: v.string(), at: TimestampSchema })), null),
  scanId: v.optional(v.nullable(v.string()), null),
  error: v.optional(v.nullable(v.string()), null),
  finishedAt: v.optional(v.nullable(TimestampSchema), null),
  /** The agent whose result finished it: the only agent told what the job came to. */
  finishedBy: v.optional(v.string()),
})
export type ScanJob = v.InferOutput<typeof JobSchema>

export function scanJobFromDocument(id: string, data: unknown): ScanJob | null {
  if (typeof data !== 'object' || data === null) return null
  const parsed = v.safeParse(JobSchema, { ...data, id })
  return parsed.success ? parsed.output : null
}

/** The fields of a job that a move changes. */
export type JobChange = Partial<Pick<ScanJob, 'state' | 'attempts' | 'leasedBy' | 'leaseExpiresAt' | 'error' | 'finishedAt'>>

/** Whether `agentId` may take the job now: queued, or leased by someone whose lease ran out. */
export function leasable(job: ScanJob, now: number): boolean {
  if (job.state === 'queued') return true
  return (job.state === 'leased' || job.state === 'running') && job.leaseExpiresAt !== null && job.leaseExpiresAt <= now
}

/** Leasing: one more attempt, held by the agent until now + LEASE_MS. */
export function leaseJob(job: ScanJob, agentId: string, now: number): JobChange {
  if (!leasable(job, now)) throw new Error(`Job ${job.id} is ${job.state}`)
  return { state: 'leased', attempts: job.attempts + 1, leasedBy: agentId, leaseExpiresAt: now + LEASE_MS, error: null }
}

/** A heartbeat or progress report of the holder: the lease runs LEASE_MS from now. Null when it is not the holder's. */
export function extendLease(job: ScanJob, agentId: string, now: number): JobChange | null {
  if (job.leasedBy !== agentId || (job.state !== 'leased' && job.state !== 'running')) return null
  if (job.leaseExpiresAt !== null && job.leaseExpiresAt <= now) return null
  return { leaseExpiresAt: now + LEASE_MS }
}

/** A lease that ran out: back to the queue, or failed after the last attempt. Null while the lease holds. */
export function expireLease(job: ScanJob, now: number): JobChange | null {
  if (job.state !== 'leased' && job.state !== 'running') return null
  if (job.leaseExpiresAt === null || job.leaseExpiresAt > now) return null
  return releaseAfterFailure(job, now, `The agent stopped answering (attempt ${job.attempts} of ${job.maxAttempts}).`)
}

/** A failed attempt: queued again while attempts remain, else failed with the reason. */
export function releaseAfterFailure(job: ScanJob, now: number, reason: string): JobChange {
  if (job.attempts >= job.maxAttempts) return { state: 'failed', leasedBy: null, leaseExpiresAt: null, error: reason, finishedAt: now }
  return { state: 'queued', leasedBy: null, leaseExpiresAt: null, error: reason }
}

/** Applies a change to a job in memory (what the store writes). */
export const applyJobChange = (job: ScanJob, change: JobChange): ScanJob => ({ ...job, ...change })
