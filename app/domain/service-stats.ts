// companies/{slug}/service_stats/{service}: the live figures of one service for one company (open
// findings by severity, by status, SLA due soon and breached, retests waiting), and
// service_stats/{service}/months/{YYYY-MM}: what opened and was fixed that month, with times to
// remediate. The server keeps both in the same transaction as every finding or retest change, by
// adding the difference of the record's contribution before and after; so charts and tiles never
// count findings, and stats-only readers see these and nothing else.
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import {
  perSeverity,
  emptySeverityCounts,
  isOpenStatus,
  FINDING_STATUSES,
  type FindingStatus,
  type SeverityCounts,
  type StoredFinding,
} from './findings.ts'
import { countRemediationDays, monthKey, daysToRemediate } from './sla.ts'
import { TimestampSchema } from './stored.ts'
import { SEVERITIES, type Severity } from './template-vocabulary.ts'
import type { StoredRetest } from './retests.ts'

export const SERVICE_STATS_COLLECTION = 'service_stats'

export const serviceStatsPath = (company: string, service: string) => `${companyPath(company)}/${SERVICE_STATS_COLLECTION}/${service}`
export const serviceMonthPath = (company: string, service: string, month: string) => `${serviceStatsPath(company, service)}/months/${month}`

const count = v.optional(v.number(), 0)
const SeverityCountsSchema = perSeverity(count)
const StatusCountsSchema = v.object(Object.fromEntries(FINDING_STATUSES.map((s) => [s, count])) as Record<FindingStatus, typeof count>)

const StoredServiceStatsSchema = v.object({
  open: v.optional(SeverityCountsSchema, {}),
  byStatus: v.optional(StatusCountsSchema, {}),
  dueSoon: v.optional(SeverityCountsSchema, {}),
  breached: v.optional(SeverityCountsSchema, {}),
  /** Open retest requests: waiting on the analysts. */
  retestsWaitingOnUs: count,
  /** Findings a retest found not (or partly) fixed, back with the client. */
  retestsWaitingOnYou: count,
  regressions: count,
  lastScanId: v.optional(v.nullable(v.string()), null),
  lastPublishedAt: v.optional(v.nullable(TimestampSchema), null),
})

export type ServiceStats = v.InferOutput<typeof StoredServiceStatsSchema>

export const readServiceStats = (data: unknown): ServiceStats => {
  const parsed = v.safeParse(StoredServiceStatsSchema, data ?? {})
  return parsed.success ? parsed.output : v.parse(StoredServiceStatsSchema, {})
}

const TenthsSchema = v.record(v.pipe(v.string(), v.regex(/^\d+$/)), v.number())

const StoredMonthSchema = v.object({
  opened: v.optional(SeverityCountsSchema, {}),
  fixed: v.optional(SeverityCountsSchema, {}),
  fixedWithinSla: v.optional(SeverityCountsSchema, {}),
  /** Days from publication to fix, per severity, counted per tenth of a day: the mean and median come from these. */
  remediationTenths: v.optional(perSeverity(v.optional(TenthsSchema, {})), {}),
  /** Each fix's days, as months stored them before the counts (a month grew with its fixes): read into the counts. */
  remediationDays: v.optional(perSeverity(v.optional(v.array(v.number()), [])), {}),
})
export type ServiceMonth = Omit<v.InferOutput<typeof StoredMonthSchema>, 'remediationDays'> & { month: string }

export const readServiceMonth = (month: string, data: unknown): ServiceMonth => {
  const parsed = v.safeParse(StoredMonthSchema, data ?? {})
  const { remediationDays, remediationTenths, ...figures } = parsed.success ? parsed.output : v.parse(StoredMonthSchema, {})
  const tenths = Object.fromEntries(
    SEVERITIES.map((s) => {
      const counts: Record<string, number> = { ...remediationTenths[s] }
      for (const days of remediationDays[s]) countRemediationDays(counts, days)
      return [s, counts]
    }),
  ) as ServiceMonth['remediationTenths']
  return { month, ...figures, remediationTenths: tenths }
}

/**
 * The counters one finding adds to its service's figures, as dotted field paths (the form
 * Firestore increments take). The delta of a change is after minus before.
 */
export function findingContribution(
  finding: Pick<StoredFinding, 'status' | 'severity' | 'slaState' | 'regression' | 'lastRetestOutcome'> | null,
): Map<string, number> {
  const out = new Map<string, number>()
  if (!finding) return out
  const add = (path: string) => out.set(path, (out.get(path) ?? 0) + 1)
  add(`byStatus.${finding.status}`)
  if (isOpenStatus(finding.status)) {
    add(`open.${finding.severity}`)
    if (finding.slaState === 'due_soon') add(`dueSoon.${finding.severity}`)
    if (finding.slaState === 'breached') add(`breached.${finding.severity}`)
    if (finding.regression) add('regressions')
    if (
      (finding.status === 'open' || finding.status === 'partially_fixed') &&
      finding.lastRetestOutcome &&
      finding.lastRetestOutcome !== 'fixed'
    )
      add('retestsWaitingOnYou')
  }
  return out
}

/** The counter a retest request adds. */
export function retestContribution(retest: Pick<StoredRetest, 'state'> | null): Map<string, number> {
  return new Map(retest?.state === 'requested' ? [['retestsWaitingOnUs', 1]] : [])
}

/** After minus before, without the zeros. */
export function contributionDelta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const delta = new Map<string, number>()
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const change = (after.get(key) ?? 0) - (before.get(key) ?? 0)
    if (change !== 0) delta.set(key, change)
  }
  return delta
}

/** What a finding's change adds to the monthly figures: opened when first published, fixed when it becomes fixed. */
export interface MonthlyChange {
  month: string
  opened?: Severity
  fixed?: { severity: Severity; days: number; withinSla: boolean }
}

export function monthlyChanges(
  before: Pick<StoredFinding, 'status'> | null,
  after: Pick<StoredFinding, 'status' | 'severity' | 'publishedAt' | 'fixedAt' | 'fixedWithinSla'>,
): MonthlyChange[] {
  const changes: MonthlyChange[] = []
  if (!before) changes.push({ month: monthKey(after.publishedAt), opened: after.severity })
  if (after.status === 'fixed' && before?.status !== 'fixed' && after.fixedAt != null)
    changes.push({
      month: monthKey(after.fixedAt),
      fixed: {
        severity: after.severity,
        days: daysToRemediate(after.publishedAt, after.fixedAt),
        withinSla: after.fixedWithinSla === true,
      },
    })
  return changes
}

/** Adds up counters the way the stored document holds them (for recounts and tests). */
export function sumContributions(contributions: Iterable<Map<string, number>>): ServiceStats {
  const totals = new Map<string, number>()
  for (const c of contributions) for (const [k, n] of c) totals.set(k, (totals.get(k) ?? 0) + n)
  const nested: Record<string, unknown> = {}
  for (const [path, n] of totals) {
    const [head, tail] = path.split('.') as [string, string | undefined]
    if (tail === undefined) nested[head] = n
    else nested[head] = { ...((nested[head] as Record<string, number>) ?? {}), [tail]: n }
  }
  return readServiceStats(nested)
}

export const openTotal = (counts: SeverityCounts) => SEVERITIES.reduce((sum, s) => sum + (counts[s] ?? 0), 0)

export { emptySeverityCounts }
