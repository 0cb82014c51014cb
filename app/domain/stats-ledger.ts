// companies/{slug}/stats_pending/{id}: what a step of a large write (a scan's publication, the
// sweep) adds to the company's aggregates, written in the same transaction as the findings it
// counts. A fold adds every pending entry to the service figures, the months and the scans'
// publication progress in one transaction, each document written once, and deletes the entries;
// folds come at most once a second, so no aggregate is written more often than Firestore sustains
// for one document (decision 0037). Server-only: no rule lets a browser read or write them.
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import type { StoredFinding } from './findings.ts'
import type { StoredRetest } from './retests.ts'
import { contributionDelta, findingContribution, monthlyChanges, retestContribution, type ServiceMonth } from './service-stats.ts'
import { SEVERITIES, type Severity } from './template-vocabulary.ts'
import { countRemediationDays } from './sla.ts'

export const STATS_PENDING_COLLECTION = 'stats_pending'
export const statsPendingPath = (company: string) => `${companyPath(company)}/${STATS_PENDING_COLLECTION}`

/** Firestore's sustained rate for one document: an aggregate is written at most once per this. */
export const AGGREGATE_WRITE_INTERVAL_MS = 1_000

/**
 * companies/{slug}/stats_fold/latest: written by each fold that writes, in its transaction, so the
 * time it was last written (its update time) is the company's last fold. Every fold reads it first
 * and waits out that second: two writers of one company's ledger at once (two publications, a
 * publication and the sweep, on any instances) fold at most once a second between them.
 */
export const statsFoldPath = (company: string) => `${companyPath(company)}/stats_fold/latest`

/** Entries one fold takes: their deletes and the aggregates' writes stay within a transaction's 500. */
export const FOLD_ENTRIES = 300

/** What a month gains: counts per severity, and the days to remediate of the findings fixed. */
export interface MonthDelta {
  opened: Partial<Record<Severity, number>>
  fixed: Partial<Record<Severity, number>>
  fixedWithinSla: Partial<Record<Severity, number>>
  remediationDays: Partial<Record<Severity, number[]>>
}

export interface StatsDelta {
  /** service → dotted counter path → change. */
  services: Record<string, Record<string, number>>
  /** `${service}/${YYYY-MM}` → what the month gains. */
  months: Record<string, MonthDelta>
}

export const emptyStatsDelta = (): StatsDelta => ({ services: {}, months: {} })

const emptyMonthDelta = (): MonthDelta => ({ opened: {}, fixed: {}, fixedWithinSla: {}, remediationDays: {} })

const addCount = (to: Partial<Record<Severity, number>>, severity: Severity, n = 1) => {
  to[severity] = (to[severity] ?? 0) + n
}

/** What changes of findings (before → after) and of retests add to the aggregates. */
export function statsDelta(
  findings: readonly { before: StoredFinding | null; after: StoredFinding }[],
  retests: readonly { service: string; before: Pick<StoredRetest, 'state'> | null; after: Pick<StoredRetest, 'state'> | null }[] = [],
): StatsDelta {
  const delta = emptyStatsDelta()
  const addService = (service: string, change: Map<string, number>) => {
    if (change.size === 0) return
    const counters = (delta.services[service] ??= {})
    for (const [path, n] of change) {
      const total = (counters[path] ?? 0) + n
      if (total === 0) delete counters[path]
      else counters[path] = total
    }
    if (Object.keys(counters).length === 0) delete delta.services[service]
  }
  for (const { before, after } of findings) {
    addService(after.service, contributionDelta(findingContribution(before), findingContribution(after)))
    for (const change of monthlyChanges(before, after)) {
      const month = (delta.months[`${after.service}/${change.month}`] ??= emptyMonthDelta())
      if (change.opened) addCount(month.opened, change.opened)
      if (change.fixed) {
        const { severity, days, withinSla } = change.fixed
        addCount(month.fixed, severity)
        if (withinSla) addCount(month.fixedWithinSla, severity)
        month.remediationDays[severity] = [...(month.remediationDays[severity] ?? []), days]
      }
    }
  }
  for (const retest of retests)
    addService(retest.service, contributionDelta(retestContribution(retest.before), retestContribution(retest.after)))
  return delta
}

/** Both deltas added up. */
export function mergeStatsDeltas(a: StatsDelta, b: StatsDelta): StatsDelta {
  const out: StatsDelta = { services: {}, months: {} }
  for (const part of [a, b]) {
    for (const [service, counters] of Object.entries(part.services)) {
      const to = (out.services[service] ??= {})
      for (const [path, n] of Object.entries(counters)) to[path] = (to[path] ?? 0) + n
    }
    for (const [key, month] of Object.entries(part.months)) {
      const to = (out.months[key] ??= emptyMonthDelta())
      for (const s of SEVERITIES) {
        if (month.opened[s]) addCount(to.opened, s, month.opened[s])
        if (month.fixed[s]) addCount(to.fixed, s, month.fixed[s])
        if (month.fixedWithinSla[s]) addCount(to.fixedWithinSla, s, month.fixedWithinSla[s])
        if (month.remediationDays[s]?.length) to.remediationDays[s] = [...(to.remediationDays[s] ?? []), ...month.remediationDays[s]]
      }
    }
  }
  for (const [service, counters] of Object.entries(out.services)) {
    for (const [path, n] of Object.entries(counters)) if (n === 0) delete counters[path]
    if (Object.keys(counters).length === 0) delete out.services[service]
  }
  return out
}

export const isEmptyStatsDelta = (delta: StatsDelta) => Object.keys(delta.services).length === 0 && Object.keys(delta.months).length === 0

/** A month's figures with `delta` added. */
export function addToMonth(month: ServiceMonth, delta: MonthDelta): ServiceMonth {
  const out: ServiceMonth = {
    month: month.month,
    opened: { ...month.opened },
    fixed: { ...month.fixed },
    fixedWithinSla: { ...month.fixedWithinSla },
    remediationTenths: { ...month.remediationTenths },
  }
  for (const s of SEVERITIES) {
    if (delta.opened[s]) out.opened[s] = (out.opened[s] ?? 0) + delta.opened[s]
    if (delta.fixed[s]) out.fixed[s] = (out.fixed[s] ?? 0) + delta.fixed[s]
    if (delta.fixedWithinSla[s]) out.fixedWithinSla[s] = (out.fixedWithinSla[s] ?? 0) + delta.fixedWithinSla[s]
    if (delta.remediationDays[s]?.length) {
      const counts = { ...out.remediationTenths[s] }
      for (const days of delta.remediationDays[s]) countRemediationDays(counts, days)
      out.remediationTenths[s] = counts
    }
  }
  return out
}

// --- The stored entry

const counts = v.record(v.string(), v.number())
const severityCounts = v.optional(
  v.partial(v.object(Object.fromEntries(SEVERITIES.map((s) => [s, v.number()])) as Record<Severity, v.NumberSchema<undefined>>)),
  {},
)
const MonthDeltaSchema = v.object({
  opened: severityCounts,
  fixed: severityCounts,
  fixedWithinSla: severityCounts,
  remediationDays: v.optional(
    v.partial(
      v.object(
        Object.fromEntries(SEVERITIES.map((s) => [s, v.array(v.number())])) as Record<
          Severity,
          v.ArraySchema<v.NumberSchema<undefined>, undefined>
        >,
      ),
    ),
    {},
  ),
})

/** What a publication step adds to its scan's progress (the scan's `publishing`). */
const ScanStepSchema = v.object({
  id: v.string(),
  /** Steps are numbered in order: the fold keeps the position of the latest. */
  step: v.number(),
  counts: v.object({
    bySeverity: severityCounts,
    total: v.optional(v.number(), 0),
    new: v.optional(v.number(), 0),
    persisting: v.optional(v.number(), 0),
    notDetected: v.optional(v.number(), 0),
    reopened: v.optional(v.number(), 0),
  }),
  /** Drafts and current findings this step went through (progress). */
  done: v.optional(v.number(), 0),
  /** New critical or high findings (the notification). */
  newSevere: v.optional(v.number(), 0),
  /** Where the publication stands after this step. */
  phase: v.string(),
  cursor: v.nullable(v.string()),
  page: v.number(),
})
export type ScanStep = v.InferOutput<typeof ScanStepSchema>

const PendingSchema = v.object({
  services: v.optional(v.record(v.string(), counts), {}),
  months: v.optional(v.record(v.string(), MonthDeltaSchema), {}),
  scan: v.optional(v.nullable(ScanStepSchema), null),
})
export type PendingEntry = v.InferOutput<typeof PendingSchema> & { id: string }

export const pendingEntryDocument = (delta: StatsDelta, scan: ScanStep | null = null) => ({ ...delta, scan })

export function pendingEntryFromDocument(id: string, data: unknown): PendingEntry | null {
  const parsed = v.safeParse(PendingSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

export interface FoldPlan {
  delta: StatsDelta
  /** Per scan: its steps added up, and the latest step's position. */
  scans: Map<string, ScanStep>
}

/** What a fold of `entries` writes: each aggregate once. */
export function foldEntries(entries: readonly PendingEntry[]): FoldPlan {
  let delta = emptyStatsDelta()
  const scans = new Map<string, ScanStep>()
  for (const entry of entries) {
    delta = mergeStatsDeltas(delta, { services: entry.services, months: entry.months as Record<string, MonthDelta> })
    const step = entry.scan
    if (!step) continue
    const known = scans.get(step.id)
    if (!known) {
      scans.set(step.id, { ...step, counts: { ...step.counts, bySeverity: { ...step.counts.bySeverity } } })
      continue
    }
    const latest = step.step > known.step ? step : known
    const bySeverity = { ...known.counts.bySeverity }
    for (const s of SEVERITIES) if (step.counts.bySeverity[s]) bySeverity[s] = (bySeverity[s] ?? 0) + step.counts.bySeverity[s]
    scans.set(step.id, {
      ...latest,
      counts: {
        bySeverity,
        total: known.counts.total + step.counts.total,
        new: known.counts.new + step.counts.new,
        persisting: known.counts.persisting + step.counts.persisting,
        notDetected: known.counts.notDetected + step.counts.notDetected,
        reopened: known.counts.reopened + step.counts.reopened,
      },
      done: known.done + step.done,
      newSevere: known.newSevere + step.newSevere,
    })
  }
  return { delta, scans }
}

/** A pacer for one writer's aggregates: `wait` until a write may come, `wrote` after each. */
export interface AggregatePacer {
  due(): boolean
  wait(): Promise<void>
  wrote(): void
}

export function aggregatePacer(
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  interval = AGGREGATE_WRITE_INTERVAL_MS,
): AggregatePacer {
  let last = -Infinity
  return {
    due: () => now() - last >= interval,
    async wait() {
      // Timers may fire a little early: wait until the clock agrees.
      while (now() - last < interval) await sleep(Math.max(1, last + interval - now()))
    },
    wrote() {
      last = now()
    },
  }
}
