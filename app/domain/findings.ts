// companies/{slug}/findings/{id}: one record per real issue across a service's scans. The id is
// the finding's fingerprint, so a re-found issue lands on its own record instead of a twin. Only
// the functions (and the seed, through the same helpers) write findings; people change them
// through the report callables (reports-calls.ts) and the workflow (finding-workflow.ts).
// Subcollections: history/{id} (finding-history.ts), comments/{id} (finding-comments.ts),
// occurrences/{scanId} (where and how each scan saw it).
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import { ServiceIdSchema } from './services.ts'
import { TimestampSchema } from './stored.ts'
import { SEVERITIES, type Severity } from './template-vocabulary.ts'
import { FINDING_STATUSES, type FindingStatus } from './finding-statuses.ts'
import { FindingIntelSchema } from './vuln-intel.ts'

export const FINDINGS_COLLECTION = 'findings'

export const findingsPath = (company: string) => `${companyPath(company)}/${FINDINGS_COLLECTION}`
export const findingPath = (company: string, id: string) => `${findingsPath(company)}/${id}`

/**
 * Finding ids per read of findings by id (one `documentId() in` query each: the scan comparison's
 * first-seen times, the table's rows on screen). Firestore counts each id as a document the query
 * looks up, besides the rules' own (exists() and get() of users_access and of the company), and
 * allows 10 per query: 30 at once were refused (tests/emulators/rules-lookups.test.ts).
 */
export const FINDING_IDS_PER_READ = 6

export const FINDING_OCCURRENCES_COLLECTION = 'occurrences'
export const occurrencesPath = (company: string, id: string) => `${findingPath(company, id)}/${FINDING_OCCURRENCES_COLLECTION}`
export const occurrencePath = (company: string, id: string, scanId: string) => `${occurrencesPath(company, id)}/${scanId}`

// The statuses live in their own module: a page's address is checked against them without the schemas below.
export { FINDING_STATUSES, type FindingStatus } from './finding-statuses.ts'

export const findingStatusLabels: Record<FindingStatus, string> = {
  open: 'Open',
  in_remediation: 'In remediation',
  retest_requested: 'Retest requested',
  partially_fixed: 'Partly fixed',
  reopened: 'Reopened',
  disputed: 'Disputed',
  acceptance_requested: 'Risk acceptance requested',
  risk_accepted: 'Risk accepted',
  not_detected: 'Not detected',
  fixed: 'Fixed',
  false_positive: 'False positive',
  duplicate: 'Duplicate',
  out_of_scope: 'Out of scope',
}

/** Still the client's to fix: counted as open, and their SLA clock runs (unless paused). */
export const OPEN_STATUSES: readonly FindingStatus[] = [
  'open',
  'in_remediation',
  'retest_requested',
  'partially_fixed',
  'reopened',
  'disputed',
  'acceptance_requested',
]

export const isOpenStatus = (status: FindingStatus) => OPEN_STATUSES.includes(status)

/** Per service, the parts of a finding's location that make it the same issue in the next scan. */
export const FINDING_LOCATION_KEYS = [
  'host',
  'port',
  'protocol',
  'url',
  'method',
  'parameter',
  'account',
  'domain',
  'region',
  'cloudService',
  'resource',
] as const
export type FindingLocationKey = (typeof FINDING_LOCATION_KEYS)[number]

const LocationSchema = v.partial(
  v.object(
    Object.fromEntries(FINDING_LOCATION_KEYS.map((key) => [key, v.string()])) as Record<FindingLocationKey, v.StringSchema<undefined>>,
  ),
)
export type FindingLocation = v.InferOutput<typeof LocationSchema>

const SeveritySchema = v.picklist(SEVERITIES)

const CvssSchema = v.object({ version: v.string(), vector: v.string(), score: v.number() })

/** A pending or granted risk acceptance: asked by a client manager, decided by a company admin. */
const RiskAcceptanceSchema = v.object({
  requestedByUid: v.string(),
  requestedByName: v.string(),
  requestedAt: TimestampSchema,
  reason: v.string(),
  /** Required: an accepted risk reopens by itself when this passes. */
  expiresAt: TimestampSchema,
  decidedByUid: v.optional(v.string()),
  decidedByName: v.optional(v.string()),
  decidedAt: v.optional(TimestampSchema),
  decisionNote: v.optional(v.string()),
})

/** The SLA clock: started at first publication, stopped while paused, due by severity. */
const SlaSchema = v.object({
  startedAt: TimestampSchema,
  /** Null: no deadline for this severity (informational, by default). */
  dueAt: v.nullable(TimestampSchema),
  /** Set while the clock stands still (a retest is owed); the due date moves by the pause on resume. */
  pausedAt: v.optional(v.nullable(TimestampSchema), null),
})

export const StoredFindingSchema = v.object({
  service: ServiceIdSchema,
  /** SHA-256 (hex) of the service's identity key (fingerprints.ts); also the document id. */
  fingerprint: v.string(),
  title: v.string(),
  templateSlug: v.optional(v.string()),
  severity: SeveritySchema,
  cvss: v.optional(v.nullable(CvssSchema), null),
  cwe: v.optional(v.array(v.string()), []),
  /** The CVE ids the scanner named (at most MAX_FINDING_CVES). */
  cve: v.optional(v.array(v.string()), []),
  /** Whether it names a CVE: what the daily intelligence refresh looks for (withCves keeps it). */
  hasCves: v.optional(v.boolean(), false),
  /** What the public feeds say of its CVEs (vuln-intel.ts), kept by the daily refresh; null: none listed. */
  intel: v.optional(v.nullable(FindingIntelSchema), null),
  tags: v.optional(v.array(v.string()), []),
  /** What is affected, as people read it: a host and port, a URL, an account, a cloud resource. */
  asset: v.string(),
  location: v.optional(LocationSchema, {}),
  /** Markdown, copied from the template when published, so clients need no template access. */
  description: v.optional(v.string(), ''),
  impact: v.optional(v.string(), ''),
  remediation: v.optional(v.string(), ''),
  references: v.optional(v.array(v.string()), []),
  /** Plain text as the scanner gave it, never Markdown: the latest scan's evidence; each scan's own is in occurrences/{scanId}. */
  evidence: v.optional(v.string(), ''),
  status: v.picklist(FINDING_STATUSES),
  /** Seen again after it was fixed. */
  regression: v.optional(v.boolean(), false),
  firstSeenScanId: v.string(),
  firstSeenAt: TimestampSchema,
  lastSeenScanId: v.string(),
  lastSeenAt: TimestampSchema,
  /** How many published scans saw it. */
  seenCount: v.optional(v.number(), 1),
  /** When a client first saw it: the start of its SLA clock and of its time to remediate. */
  publishedAt: TimestampSchema,
  sla: SlaSchema,
  slaState: v.picklist(['none', 'ok', 'due_soon', 'breached', 'paused']),
  /** When slaState moves on by itself (slaStateChangesAt), kept by every writer; null: never. */
  slaChangeAt: v.optional(v.nullable(TimestampSchema), null),
  closedAt: v.optional(v.nullable(TimestampSchema), null),
  fixedAt: v.optional(v.nullable(TimestampSchema), null),
  /** Kept when it closes: fixed by its due date. */
  fixedWithinSla: v.optional(v.nullable(v.boolean()), null),
  /** The open retest request this finding is part of. */
  retestId: v.optional(v.nullable(v.string()), null),
  lastRetestOutcome: v.optional(v.nullable(v.picklist(['fixed', 'partially_fixed', 'not_fixed'])), null),
  riskAcceptance: v.optional(v.nullable(RiskAcceptanceSchema), null),
  /** The status a reversible request (dispute, acceptance) returns to when refused. */
  previousStatus: v.optional(v.nullable(v.picklist(FINDING_STATUSES)), null),
  commentCount: v.optional(v.number(), 0),
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})

export type StoredFinding = v.InferOutput<typeof StoredFindingSchema>

/** CVE ids kept per finding: scanners list a few; a Nessus plugin may list hundreds. */
export const MAX_FINDING_CVES = 200

/** A finding's CVE fields from the ids a scan gave (upper case, each once, bounded). */
export function withCves(cves: readonly string[] | undefined): Pick<StoredFinding, 'cve' | 'hasCves'> {
  const cve = [...new Set((cves ?? []).map((id) => id.toUpperCase()))].slice(0, MAX_FINDING_CVES)
  return { cve, hasCves: cve.length > 0 }
}
export type SlaState = StoredFinding['slaState']
export type RiskAcceptance = NonNullable<StoredFinding['riskAcceptance']>

export interface Finding extends StoredFinding {
  id: string
}

/** The finding a findings document holds, or null when it is not a readable finding. */
export function findingFromDocument(id: string, data: unknown): Finding | null {
  const parsed = v.safeParse(StoredFindingSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

export type SeverityCounts = Record<Severity, number>

/** An object with one entry per severity, each checked by `entry` (a count, a list of days ...). */
export const perSeverity = <S extends v.GenericSchema>(entry: S) =>
  v.object(Object.fromEntries(SEVERITIES.map((severity) => [severity, entry])) as Record<Severity, S>)

export const emptySeverityCounts = (): SeverityCounts => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as SeverityCounts

/** findings/{id}/occurrences/{scanId}: how one published scan saw the finding. */
const StoredOccurrenceSchema = v.object({
  scanId: v.string(),
  /** When the scan saw it. */
  at: TimestampSchema,
  severity: v.optional(SeveritySchema),
  asset: v.optional(v.string()),
  location: v.optional(LocationSchema, {}),
  /** Plain text, as the scanner gave it: what this scan saw (request and response, banner, output). */
  evidence: v.optional(v.string(), ''),
})

export type FindingOccurrence = v.InferOutput<typeof StoredOccurrenceSchema> & { id: string }

/** The occurrence a document holds (the scan id defaults to the document id), or null. */
export function occurrenceFromDocument(id: string, data: unknown): FindingOccurrence | null {
  const parsed = v.safeParse(StoredOccurrenceSchema, { scanId: id, ...(data as object) })
  return parsed.success ? { id, ...parsed.output } : null
}
