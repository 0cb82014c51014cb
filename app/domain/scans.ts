// companies/{slug}/scans/{id}: one run of a service's scanner against a company's scope. A scan
// document holds only figures (counts, the service's KPIs and chart data), so companies with a
// service's stats switch read it; which findings and assets it saw is in scans/{id}/members/{n}
// (results only), which scan comparison reads. Written by the functions and the seed only.
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import { perSeverity } from './findings.ts'
import { formatNumber } from './numbers.ts'
import { ServiceIdSchema, type ServiceId } from './services.ts'
import { TimestampSchema } from './stored.ts'
import { SEVERITIES } from './template-vocabulary.ts'
import { SCAN_FORMATS } from './scan-import/parsed-scan.ts'

export const SCANS_COLLECTION = 'scans'

export const scansPath = (company: string) => `${companyPath(company)}/${SCANS_COLLECTION}`
export const scanPath = (company: string, id: string) => `${scansPath(company)}/${id}`
export const scanMembersPath = (company: string, id: string) => `${scanPath(company, id)}/members`

/**
 * Importing: its findings are still arriving, batch by batch; no one reviews, publishes or counts it,
 * and the same files imported again finish it (decision 0046). Draft: analysts only, whole.
 * Published: the client sees it. Superseded: replaced by a re-import.
 */
export const SCAN_STATES = ['importing', 'draft', 'published', 'superseded'] as const
export type ScanState = (typeof SCAN_STATES)[number]

export const scanStateLabels: Record<ScanState, string> = {
  importing: 'Import not finished',
  draft: 'Draft',
  published: 'Published',
  superseded: 'Superseded',
}

const count = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0)
const SeverityCountsSchema = perSeverity(count)
const NamedCountSchema = v.object({ name: v.string(), count })
const named = v.optional(v.array(NamedCountSchema), [])

/** Attack surface: the inventory's size and what changed. */
const ProjectMarianaStatsSchema = v.object({
  service: v.literal('projectmariana'),
  domains: count,
  subdomains: count,
  ips: count,
  openPorts: count,
  certificates: count,
  certificatesExpiringSoon: count,
  certificatesExpired: count,
  riskyExposures: count,
  assetsNew: count,
  assetsGone: count,
  technologies: named,
  portsByService: named,
})

/** Password audit (DPAT's set): no password, only lengths, classes and patterns. */
const PasswordCrackingStatsSchema = v.object({
  service: v.literal('password_cracking'),
  accountsAudited: count,
  cracked: count,
  privilegedCracked: count,
  policyMinLength: count,
  belowPolicy: count,
  usernameAsPassword: count,
  lmHashes: count,
  reuseClusters: count,
  largestReuseCluster: count,
  /** Cracked passwords by length: index = length (0 to 32, the last counts 32 and longer). */
  lengthHistogram: v.optional(v.array(count), []),
  /** Cracked passwords by how many character classes (lower, upper, digit, symbol) they use: 1 to 4. */
  classCounts: v.optional(v.array(count), []),
  patterns: named,
})

const DastStatsSchema = v.object({
  service: v.literal('dast'),
  targets: count,
  instances: count,
  owaspTop10: named,
  topEndpoints: named,
})

const NetworkStatsSchema = v.object({
  service: v.literal('network'),
  hostsUp: count,
  openPorts: count,
  vulnerableHosts: count,
  newOpenPorts: count,
  services: named,
  /** The hosts with most findings, per severity: the heatmap. */
  hostSeverity: v.optional(v.array(v.object({ host: v.string(), ...SeverityCountsSchema.entries })), []),
})

const CloudStatsSchema = v.object({
  service: v.literal('cloud'),
  accounts: count,
  regions: count,
  checksRun: count,
  passed: count,
  failed: count,
  manual: count,
  byCloudService: v.optional(v.array(v.object({ name: v.string(), passed: count, failed: count })), []),
  byAccountRegion: v.optional(v.array(v.object({ account: v.string(), region: v.string(), failed: count })), []),
  frameworks: v.optional(v.array(v.object({ name: v.string(), passed: count, total: count })), []),
})

export const ServiceStatsSchema = v.variant('service', [
  ProjectMarianaStatsSchema,
  PasswordCrackingStatsSchema,
  DastStatsSchema,
  NetworkStatsSchema,
  CloudStatsSchema,
])
export type ServiceScanStats = v.InferOutput<typeof ServiceStatsSchema>
export type ScanStatsOf<S extends ServiceId> = Extract<ServiceScanStats, { service: S }>

/** How the scan's findings compare with the previous comparable scan's. */
const ScanCountsSchema = v.object({
  bySeverity: SeverityCountsSchema,
  total: count,
  new: count,
  persisting: count,
  notDetected: count,
  reopened: count,
})
export type ScanCounts = v.InferOutput<typeof ScanCountsSchema>

/** What an imported scan records of each file it came from (the raw file is kept by its SHA-256). */
export const ImportedFileSchema = v.object({
  name: v.string(),
  sha256: v.string(),
  size: v.number(),
  format: v.picklist(SCAN_FORMATS),
  tool: v.string(),
  toolVersion: v.string(),
})
export type ImportedFile = v.InferOutput<typeof ImportedFileSchema>

/** The import report: what the parsers read, skipped and warned about. */
export const ImportReportSchema = v.object({
  findings: count,
  assets: count,
  skipped: count,
  warnings: count,
  notes: v.optional(v.array(v.object({ level: v.picklist(['skipped', 'warning']), where: v.string(), message: v.string() })), []),
  statistics: v.optional(v.record(v.string(), v.number()), {}),
})
export type ImportReport = v.InferOutput<typeof ImportReportSchema>

/**
 * A publication's phases, in order: the draft's findings (new and seen again), the service's
 * findings it missed, the draft's assets, the service's assets it missed, then the scan itself.
 */
export const PUBLICATION_PHASES = ['seen', 'missed', 'assets', 'gone', 'finish'] as const
export type PublicationPhase = (typeof PUBLICATION_PHASES)[number]

/**
 * A publication in progress, written in steps that can stop anywhere (a timeout, a crash) and go on
 * from here: the counts of the steps folded so far, the position after the last of them, and who is
 * writing it now (a lease, so two calls never write the same steps).
 */
const ScanPublishingSchema = v.object({
  counts: ScanCountsSchema,
  startedAt: TimestampSchema,
  phase: v.optional(v.picklist(PUBLICATION_PHASES), 'seen'),
  /** The last document id the phase went through (null: from the start). */
  cursor: v.optional(v.nullable(v.string()), null),
  /** Members documents the phase has written. */
  page: count,
  /** The next step's number. */
  step: count,
  /** Draft findings and service findings gone through, of `total`. */
  done: count,
  total: count,
  newSevere: count,
  runner: v.optional(v.nullable(v.string()), null),
  leaseExpiresAt: v.optional(v.nullable(TimestampSchema), null),
})
export type ScanPublishing = v.InferOutput<typeof ScanPublishingSchema>

const StoredScanSchema = v.object({
  service: ServiceIdSchema,
  state: v.picklist(SCAN_STATES),
  title: v.string(),
  /** The scanner and the format its output came in (nmap, zap, prowler, hashcat ...). */
  tool: v.optional(v.string(), ''),
  /** Two scans compare when their service and scope key agree. */
  scopeKey: v.string(),
  targets: v.optional(v.array(v.string()), []),
  startedAt: TimestampSchema,
  finishedAt: v.optional(v.nullable(TimestampSchema), null),
  publishedAt: v.optional(v.nullable(TimestampSchema), null),
  publishedBy: v.optional(v.nullable(v.string()), null),
  /**
   * A side scan: published with a scope no earlier scan of the service covered (one host, say) while
   * the service had scans of another scope, or a later scan of such a scope. It closes nothing
   * outside its scope and is never the service's latest whole-service scan (decision 0045).
   */
  side: v.optional(v.boolean(), false),
  /** The previous published scan with the same scope key, which `counts` compare with. */
  previousScanId: v.optional(v.nullable(v.string()), null),
  counts: ScanCountsSchema,
  stats: ServiceStatsSchema,
  /** Imported scans: the files and what the import made of them. */
  files: v.optional(v.array(ImportedFileSchema), []),
  importReport: v.optional(v.nullable(ImportReportSchema), null),
  importedBy: v.optional(v.nullable(v.string()), null),
  /** While a publication is being written: where it stands (publish-scan.ts). */
  publishing: v.optional(v.nullable(ScanPublishingSchema), null),
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})

export type StoredScan = v.InferOutput<typeof StoredScanSchema>

export interface Scan extends StoredScan {
  id: string
}

/** The scan a scans document holds, or null when it is not a readable scan. */
export function scanFromDocument(id: string, data: unknown): Scan | null {
  const parsed = v.safeParse(StoredScanSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

/** The service's latest whole-service scan of its published scans (newest first): side scans are passed over. */
export function latestWholeServiceScan<S extends Pick<Scan, 'side'>>(scans: readonly S[]): S | null {
  return scans.find((s) => !s.side) ?? scans[0] ?? null
}

/** What a scope key names, for people: its targets without the service's prefix. */
export function scopeTargets(scopeKey: string): string {
  const colon = scopeKey.indexOf(':')
  return (colon > 0 && v.is(ServiceIdSchema, scopeKey.slice(0, colon)) ? scopeKey.slice(colon + 1) : scopeKey) || scopeKey
}

/** What one scan saw, for comparison: finding ids with their severity then, and assets with their ports. */
const ScanMembersSchema = v.object({
  findings: v.optional(v.array(v.object({ id: v.string(), severity: v.picklist(SEVERITIES) })), []),
  assets: v.optional(v.array(v.object({ id: v.string(), label: v.string(), ports: v.optional(v.array(v.number()), []) })), []),
})
export type ScanMembers = v.InferOutput<typeof ScanMembersSchema>

/** Members are split over documents of this many entries, far below Firestore's 1 MiB. */
export const SCAN_MEMBERS_PER_DOCUMENT = 2_000

export function scanMembersFromDocument(data: unknown): ScanMembers {
  const parsed = v.safeParse(ScanMembersSchema, data)
  return parsed.success ? parsed.output : { findings: [], assets: [] }
}

/**
 * What the latest of a service's published scans (newest first) changed since the scan before it
 * of its scope ("3 new, 5 no longer detected"); "first scan" only when no other is published, and
 * for a scan of a scope no earlier scan covered, that there is nothing to compare with. Null
 * without a scan.
 */
export function scanTrend(scans: readonly Pick<Scan, 'previousScanId' | 'counts'>[]): string | null {
  const latest = scans[0]
  if (!latest) return null
  if (!latest.previousScanId) return scans.length > 1 ? 'no earlier scan of this scope' : 'first scan'
  const c = latest.counts
  const parts = [`${formatNumber(c.new)} new`, `${formatNumber(c.notDetected)} no longer detected`]
  if (c.reopened > 0) parts.push(`${formatNumber(c.reopened)} reopened`)
  return parts.join(', ')
}
