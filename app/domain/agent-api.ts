// The HTTP API between an agent and the server (decision 0021): paths, request and answer schemas.
// The agent program and the functions both validate against these.
import * as v from 'valibot'
import { SCOPE_KINDS } from './scan-scope.ts'
import { EnrolmentTokenSchema } from './agent-auth.ts'
import { SealedBoxSchema, SealingKeySchema } from './agent-sealing.ts'
import { PublicKeySchema, ScannerSchema } from './agents.ts'
import { MAX_OUTPUT_BYTES, SCAN_PROFILE_IDS, type ScanProfile } from './scan-jobs.ts'

export const AGENT_API_PATHS = {
  enrol: '/enrol',
  heartbeat: '/heartbeat',
  lease: '/lease',
  progress: (jobId: string) => `/jobs/${jobId}/progress`,
  result: (jobId: string) => `/jobs/${jobId}/result`,
} as const

const Short = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max))

export const EnrolRequestSchema = v.object({
  token: EnrolmentTokenSchema,
  publicKey: PublicKeySchema,
  /** Where password audits are sealed to; agents before it enrol without one. */
  sealingKey: v.optional(SealingKeySchema),
  hostname: Short(200),
  version: Short(50),
  scanners: v.pipe(v.array(ScannerSchema), v.maxLength(20)),
})
export const EnrolResponseSchema = v.object({ agentId: v.string(), name: v.string(), locationId: v.string(), heartbeatMs: v.number() })

export const HeartbeatRequestSchema = v.object({
  version: Short(50),
  scanners: v.pipe(v.array(ScannerSchema), v.maxLength(20)),
  problems: v.pipe(v.array(Short(300)), v.maxLength(20)),
  runningJobs: v.pipe(v.array(Short(64)), v.maxLength(10)),
  lastError: v.nullable(Short(1000)),
})
export const HeartbeatResponseSchema = v.object({
  heartbeatMs: v.number(),
  /** Running jobs the agent must stop: cancelled, or leased to someone else after its lease ran out. */
  stop: v.array(v.string()),
})

export const JobSpecSchema = v.object({
  id: v.string(),
  profile: v.picklist(SCAN_PROFILE_IDS as [ScanProfile, ...ScanProfile[]]),
  targets: v.array(v.string()),
  scope: v.array(v.object({ kind: v.picklist(SCOPE_KINDS), value: v.string() })),
  maxRunMs: v.number(),
  maxOutputBytes: v.number(),
  leaseExpiresAt: v.number(),
  /** A password audit's inputs, when the profile needs them. */
  files: v.optional(v.record(v.string(), v.string())),
  /** A password audit: the company (the box's context), its inputs sealed to this agent, and the company's reuse key for this job only. */
  passwordAudit: v.optional(
    v.object({ company: v.string(), sealed: SealedBoxSchema, reuseKey: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) }),
  ),
})
export type JobSpec = v.InferOutput<typeof JobSpecSchema>
export const LeaseResponseSchema = v.object({ job: v.nullable(JobSpecSchema) })

export const ProgressRequestSchema = v.object({ phase: Short(50), message: Short(500) })
export const ProgressResponseSchema = v.object({ leaseExpiresAt: v.number() })

export const ResultRequestSchema = v.variant('outcome', [
  v.object({
    outcome: v.literal('succeeded'),
    /** The scanner's own output, untouched, one per run (wapiti and testssl.sh run once per target): the server parses it with the import pipeline. */
    outputs: v.pipe(
      v.array(v.string()),
      v.minLength(1, 'Send the scanner’s output.'),
      v.maxLength(20, 'At most 20 outputs.'),
      v.check((outputs) => outputs.reduce((n, o) => n + o.length, 0) <= MAX_OUTPUT_BYTES, 'The output is larger than the job allows.'),
    ),
    /** The names the agent resolved and the addresses it pinned each to (decision 0034): nmap is handed the addresses. */
    resolved: v.optional(
      v.pipe(
        v.array(v.object({ host: Short(253), addresses: v.pipe(v.array(Short(45)), v.maxLength(64)) })),
        v.maxLength(200, 'At most 200 resolved names.'),
      ),
      [],
    ),
    startedAt: v.number(),
    finishedAt: v.number(),
  }),
  v.object({
    outcome: v.literal('failed'),
    error: Short(2000),
    /** The agent's guard refused a target (decision 0034): trying again would refuse again, so the job fails at once. */
    refused: v.optional(v.boolean(), false),
  }),
  v.object({
    outcome: v.literal('audited'),
    /** A password audit derived on the agent (password-audit-import.ts): no hash, no password; the server validates it as an import's draft. */
    audit: v.unknown(),
    startedAt: v.number(),
    finishedAt: v.number(),
  }),
])
export type ResultRequest = v.InferOutput<typeof ResultRequestSchema>
export const ResultResponseSchema = v.object({ state: v.string(), scanId: v.nullable(v.string()) })
