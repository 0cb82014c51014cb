// Publishing a scan (decision 0016): what it does to the company's findings of that service and
// scope. New fingerprints become open findings with their SLA clock started; ones seen before are
// updated (last seen, how often, evidence, severity); fixed or not-detected ones seen again are
// reopened (planSeenAgain); open ones the scan missed become not detected (planNotSeen). Also the
// scan's counts and its members. Pure: the publish callable and the seed write what it returns.
import type { FindingChange } from './finding-workflow.ts'
import { planNotSeen, planSeenAgain } from './finding-workflow.ts'
import { emptySeverityCounts, isOpenStatus, withCves, type FindingLocation, type FindingStatus, type StoredFinding } from './findings.ts'
import { SCAN_MEMBERS_PER_DOCUMENT, type ScanCounts, type ScanMembers, type StoredScan } from './scans.ts'
import { reprioritiseSlaClock, slaStateAt, startSlaClock, withSlaChangeAt, type SlaPolicy } from './sla.ts'
import type { Severity } from './template-vocabulary.ts'

/** One finding as the new scan saw it. */
export interface ObservedFinding {
  fingerprint: string
  title: string
  severity: Severity
  asset: string
  location?: FindingLocation
  templateSlug?: string
  cvss?: StoredFinding['cvss']
  cwe?: string[]
  cve?: string[]
  tags?: string[]
  description?: string
  impact?: string
  remediation?: string
  references?: string[]
  evidence?: string
  /** What an analyst wrote while reviewing the scan: it replaces the text of a finding seen before too. */
  rewritten?: Partial<Pick<StoredFinding, 'title' | 'description' | 'remediation'>>
}

export type PublishedScan = Pick<StoredScan, 'service' | 'startedAt'> & { id: string }

export interface PublicationInput {
  scan: PublishedScan
  observed: readonly ObservedFinding[]
  /** The company's findings of the scan's service, by id (fingerprint). */
  current: ReadonlyMap<string, StoredFinding>
  /**
   * Whether the scan covers where a finding was last seen (its scope): only those it misses become
   * not detected. All of them by default (one scope per service).
   */
  inScope?: (finding: StoredFinding) => boolean
  /** The assets the scan saw, for its members. */
  assets?: ScanMembers['assets']
  policy: SlaPolicy
  /** When it is published: the SLA clocks of new findings start now. */
  now: number
  /** Who publishes it (uid or address), for updatedBy. */
  by: string
}

/** A history entry the publication writes: a system move, or a severity the scan changed. */
export type PublicationChange = Omit<FindingChange, 'action'> & {
  action: FindingChange['action'] | 'severity_changed'
  severityFrom?: Severity
  severityTo?: Severity
}

export interface FindingWrite {
  id: string
  /** Null for a new finding. */
  before: StoredFinding | null
  after: StoredFinding
  changes: PublicationChange[]
}

/** What one scan saw of one finding: occurrences/{scanId}. */
export interface Occurrence {
  findingId: string
  scanId: string
  at: number
  severity: Severity
  asset: string
  evidence: string
}

export interface Publication {
  /** New findings, then changed ones, in the observed order, then the ones the scan missed. */
  writes: FindingWrite[]
  occurrences: Occurrence[]
  counts: ScanCounts
  /** scans/{id}/members/{n}, one entry per document. */
  members: ScanMembers[]
}

/** Dismissed by an analyst: seen or not, they do not count among the scan's findings. */
const DISMISSED: readonly FindingStatus[] = ['false_positive', 'duplicate', 'out_of_scope']

const SYSTEM = { byUid: 'system', byName: 'Bulwark', role: 'system' as const, note: null }

/** The document of a finding a scan sees for the first time. */
export function newFindingDocument(
  observed: ObservedFinding,
  scan: PublishedScan,
  policy: SlaPolicy,
  now: number,
  by: string,
): StoredFinding {
  const clock = startSlaClock(observed.severity, now, policy)
  return withSlaChangeAt({
    service: scan.service,
    fingerprint: observed.fingerprint,
    title: observed.title,
    ...(observed.templateSlug ? { templateSlug: observed.templateSlug } : {}),
    severity: observed.severity,
    cvss: observed.cvss ?? null,
    cwe: observed.cwe ?? [],
    ...withCves(observed.cve),
    intel: null,
    tags: observed.tags ?? [],
    asset: observed.asset,
    location: observed.location ?? {},
    description: observed.description ?? '',
    impact: observed.impact ?? '',
    remediation: observed.remediation ?? '',
    references: observed.references ?? [],
    evidence: observed.evidence ?? '',
    status: 'open',
    regression: false,
    firstSeenScanId: scan.id,
    firstSeenAt: scan.startedAt,
    lastSeenScanId: scan.id,
    lastSeenAt: scan.startedAt,
    seenCount: 1,
    publishedAt: now,
    sla: clock,
    slaState: slaStateAt(clock, now),
    closedAt: null,
    fixedAt: null,
    fixedWithinSla: null,
    retestId: null,
    lastRetestOutcome: null,
    riskAcceptance: null,
    previousStatus: null,
    commentCount: 0,
    updatedAt: now,
    updatedBy: by,
  })
}

/** Splits members into documents of SCAN_MEMBERS_PER_DOCUMENT entries (findings and assets each). */
export function chunkMembers(members: ScanMembers): ScanMembers[] {
  const documents = Math.max(
    1,
    Math.ceil(members.findings.length / SCAN_MEMBERS_PER_DOCUMENT),
    Math.ceil(members.assets.length / SCAN_MEMBERS_PER_DOCUMENT),
  )
  return Array.from({ length: documents }, (_, n) => ({
    findings: members.findings.slice(n * SCAN_MEMBERS_PER_DOCUMENT, (n + 1) * SCAN_MEMBERS_PER_DOCUMENT),
    assets: members.assets.slice(n * SCAN_MEMBERS_PER_DOCUMENT, (n + 1) * SCAN_MEMBERS_PER_DOCUMENT),
  }))
}

export function planScanPublication(input: PublicationInput): Publication {
  const { scan, current, policy, now, by } = input
  const writes: FindingWrite[] = []
  const occurrences: Occurrence[] = []
  const counts: ScanCounts = { bySeverity: emptySeverityCounts(), total: 0, new: 0, persisting: 0, notDetected: 0, reopened: 0 }
  const seen = new Map<string, Severity>()

  for (const observed of input.observed) {
    const id = observed.fingerprint
    // A scanner reporting the same issue twice: the first report stands.
    if (seen.has(id)) continue
    seen.set(id, observed.severity)
    occurrences.push({
      findingId: id,
      scanId: scan.id,
      at: scan.startedAt,
      severity: observed.severity,
      asset: observed.asset,
      evidence: observed.evidence ?? '',
    })
    const before = current.get(id)
    if (!before) {
      const after = newFindingDocument(observed, scan, policy, now, by)
      writes.push({
        id,
        before: null,
        after,
        changes: [{ ...SYSTEM, action: 'first_seen', from: 'open', to: 'open', at: now, scanId: scan.id }],
      })
      counts.new++
      counts.bySeverity[observed.severity]++
      counts.total++
      continue
    }

    const changes: PublicationChange[] = []
    let after: StoredFinding = {
      ...before,
      lastSeenScanId: scan.id,
      lastSeenAt: Math.max(before.lastSeenAt, scan.startedAt),
      seenCount: before.seenCount + 1,
      evidence: observed.evidence ?? before.evidence,
      ...observed.rewritten,
      // The latest scan's CVE ids, when it gave any.
      ...(observed.cve?.length ? withCves(observed.cve) : {}),
      updatedAt: now,
      updatedBy: by,
    }
    if (observed.severity !== before.severity) {
      after = { ...after, severity: observed.severity, sla: reprioritiseSlaClock(before.sla, before.severity, observed.severity, policy) }
      if (isOpenStatus(after.status)) after.slaState = slaStateAt(after.sla, now)
      changes.push({
        ...SYSTEM,
        action: 'severity_changed',
        from: before.status,
        to: before.status,
        at: now,
        scanId: scan.id,
        severityFrom: before.severity,
        severityTo: observed.severity,
      })
    }
    const again = planSeenAgain(after, scan.id, now)
    if (again?.ok) {
      after = { ...after, ...again.patch }
      changes.push(again.change)
      counts.reopened++
    } else counts.persisting++
    if (!DISMISSED.includes(after.status)) {
      counts.bySeverity[after.severity]++
      counts.total++
    }
    writes.push({ id, before, after, changes })
  }

  for (const [id, before] of current) {
    if (seen.has(id) || (input.inScope && !input.inScope(before))) continue
    if (isOpenStatus(before.status)) counts.notDetected++
    const missed = planNotSeen(before, scan.id, now)
    if (!missed?.ok) continue
    writes.push({ id, before, after: { ...before, ...missed.patch, updatedAt: now, updatedBy: by }, changes: [missed.change] })
  }

  const members = chunkMembers({
    findings: [...seen].map(([id, severity]) => ({ id, severity })),
    assets: (input.assets ?? []).map((a) => ({ id: a.id, label: a.label, ports: [...(a.ports ?? [])] })),
  })
  return { writes, occurrences, counts, members }
}
