// SLA and time to remediate (decision 0016). A finding's clock starts when a client first sees it
// (publication), is due after its severity's days from the company's policy, stands still while a
// retest is owed, and its state is ok, due soon (a fifth or less of the window left), breached or
// paused. Time to remediate is fixedAt - publishedAt, in days, summarised per severity per month
// by mean and median (PlexTrac's formula, plus the median that outliers cannot drag).
import type { Severity } from './template-vocabulary.ts'
import type { SlaState } from './findings.ts'

export const DAY_MS = 86_400_000

/** Days to fix per severity; null means no deadline. The platform's defaults. */
export type SlaPolicy = Record<Severity, number | null>

export const DEFAULT_SLA_POLICY: SlaPolicy = { critical: 7, high: 30, medium: 90, low: 180, info: null }

/** Days the analysts have to complete a requested retest. */
export const DEFAULT_RETEST_TURNAROUND_DAYS = 7

/** "Due soon": this share of the window or less is left. */
export const DUE_SOON_SHARE = 0.2

/** A company's policy: its own days where it sets them, the platform's elsewhere. */
export function slaPolicyFor(overrides: Partial<SlaPolicy> | null | undefined): SlaPolicy {
  return { ...DEFAULT_SLA_POLICY, ...(overrides ?? {}) }
}

export interface SlaClock {
  startedAt: number
  dueAt: number | null
  pausedAt: number | null
}

/** A new clock, started now for a finding of this severity. */
export function startSlaClock(severity: Severity, startedAt: number, policy: SlaPolicy): SlaClock {
  const days = policy[severity]
  return { startedAt, dueAt: days === null ? null : startedAt + days * DAY_MS, pausedAt: null }
}

/**
 * A finding's clock once it is known to be exploited, under a company's deadline for those: due at
 * most `days` after it became known (or after publication, when that is later), never later than
 * it already was. The start stays, so "due soon" is a fifth of the whole window, as for the others.
 */
export function kevSlaClock(clock: SlaClock, days: number, knownAt: number): SlaClock {
  const due = Math.max(clock.startedAt, knownAt) + days * DAY_MS
  return clock.dueAt !== null && clock.dueAt <= due ? clock : { ...clock, dueAt: due }
}

/** Stops the clock (no-op when it already stands still). */
export const pauseSlaClock = (clock: SlaClock, at: number): SlaClock => (clock.pausedAt !== null ? clock : { ...clock, pausedAt: at })

/** Starts the clock again: the due date moves by the time it stood still. */
export function resumeSlaClock(clock: SlaClock, at: number): SlaClock {
  if (clock.pausedAt === null) return clock
  const stood = Math.max(0, at - clock.pausedAt)
  return { ...clock, dueAt: clock.dueAt === null ? null : clock.dueAt + stood, pausedAt: null }
}

/** A new severity keeps the start and the time it stood still, and takes that severity's window. */
export function reprioritiseSlaClock(clock: SlaClock, from: Severity, to: Severity, policy: SlaPolicy): SlaClock {
  const before = policy[from]
  const after = policy[to]
  if (after === null) return { ...clock, dueAt: null }
  if (clock.dueAt === null || before === null) return { ...clock, dueAt: clock.startedAt + after * DAY_MS }
  return { ...clock, dueAt: clock.dueAt + (after - before) * DAY_MS }
}

/** The clock's state at `now`, for a finding that is still open. */
export function slaStateAt(clock: SlaClock, now: number): Exclude<SlaState, 'none'> | 'none' {
  if (clock.dueAt === null) return 'none'
  if (clock.pausedAt !== null) return 'paused'
  if (now > clock.dueAt) return 'breached'
  const window = clock.dueAt - clock.startedAt
  const left = clock.dueAt - now
  return window > 0 && left <= window * DUE_SOON_SHARE ? 'due_soon' : 'ok'
}

/**
 * The first moment at which the clock's state moves on by itself from `state` (ok to due soon, due
 * soon to breached), or null when it never does (no deadline, paused, breached, closed). Stored on
 * each finding, so the hourly sweep reads only the findings whose moment has come.
 */
export function slaStateChangesAt(clock: SlaClock, state: SlaState): number | null {
  if (clock.dueAt === null || clock.pausedAt !== null) return null
  const breachedAt = clock.dueAt + 1
  if (state === 'due_soon') return breachedAt
  if (state !== 'ok') return null
  const window = clock.dueAt - clock.startedAt
  if (window <= 0) return breachedAt
  // The first whole millisecond slaStateAt calls due soon (the window's fifth may be fractional).
  const dueSoonAt = Math.ceil(clock.dueAt - window * DUE_SOON_SHARE)
  return slaStateAt(clock, dueSoonAt) === 'due_soon' ? dueSoonAt : dueSoonAt + 1
}

/** The finding with the moment of its clock and state, as every writer stores it. */
export const withSlaChangeAt = <F extends { sla: SlaClock; slaState: SlaState }>(finding: F): F & { slaChangeAt: number | null } => ({
  ...finding,
  slaChangeAt: slaStateChangesAt(finding.sla, finding.slaState),
})

/** Whole days left (negative once breached), or null without a deadline. */
export function slaDaysLeft(clock: SlaClock, now: number): number | null {
  if (clock.dueAt === null) return null
  const at = clock.pausedAt ?? now
  return Math.floor((clock.dueAt - at) / DAY_MS)
}

/** Where an open finding's SLA stands at a moment: its clock's state, or none once closed. */
export type SlaStanding = Exclude<SlaState, 'none'> | 'none'

/**
 * How an SLA reads: its state and the days left or over. A paused clock's days stand where the
 * pause found them: a clock paused past its due date reads as that many days late ("Paused, 44
 * days late", short enough for the table's SLA column), never "0 days left".
 */
export function slaText(state: SlaStanding, daysLeft: number | null): string {
  const count = (n: number) => `${n} day${n === 1 ? '' : 's'}`
  switch (state) {
    case 'none':
      return 'No deadline'
    case 'paused':
      if (daysLeft === null) return 'Paused'
      return daysLeft < 0 ? `Paused, ${count(-daysLeft)} late` : `Paused, ${count(daysLeft)} left`
    case 'breached':
      return `Breached ${count(Math.abs(daysLeft ?? 0))} ago`
    case 'due_soon':
      return `Due soon, ${count(daysLeft ?? 0)} left`
    default:
      return `${count(daysLeft ?? 0)} left`
  }
}

/** Time to remediate, in days (fractional). */
export const daysToRemediate = (publishedAt: number, fixedAt: number) => Math.max(0, fixedAt - publishedAt) / DAY_MS

export interface RemediationSummary {
  count: number
  meanDays: number | null
  medianDays: number | null
}

/**
 * Times to remediate as counts per tenth of a day ("35": 4 is four fixes in 3.5 days): what a
 * month stores, so it stays small whatever the number of fixes (a tenth is what the pages show).
 */
export type RemediationTenths = Readonly<Record<string, number>>

/** Counts `n` more fixes that took `days` into `tenths`. */
export function countRemediationDays(tenths: Record<string, number>, days: number, n = 1): void {
  const key = String(Math.max(0, Math.round(days * 10)))
  tenths[key] = (tenths[key] ?? 0) + n
}

/** `tenths` with `n` more fixes that took `days`. */
export function withRemediationDays(tenths: RemediationTenths, days: number, n = 1): Record<string, number> {
  const out = { ...tenths }
  countRemediationDays(out, days, n)
  return out
}

/** The counts of every fix in `days`. */
export function remediationTenthsOf(days: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const d of days) countRemediationDays(out, d)
  return out
}

/** Mean and median of times to remediate (days), over the fixes of every one of `counts` (months, say). */
export function summariseRemediation(counts: readonly RemediationTenths[]): RemediationSummary {
  const merged = new Map<number, number>()
  for (const tenths of counts)
    for (const [key, n] of Object.entries(tenths)) if (n > 0) merged.set(Number(key), (merged.get(Number(key)) ?? 0) + n)
  const ordered = [...merged].sort((a, b) => a[0] - b[0])
  const count = ordered.reduce((sum, [, n]) => sum + n, 0)
  if (count === 0) return { count: 0, meanDays: null, medianDays: null }
  /** The tenth at place `at` (0-based) in the fixes' order. */
  const at = (place: number) => {
    let seen = 0
    for (const [tenth, n] of ordered) {
      seen += n
      if (place < seen) return tenth
    }
    return ordered.at(-1)![0]
  }
  const middle = Math.floor(count / 2)
  const median = count % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2
  const mean = ordered.reduce((sum, [tenth, n]) => sum + tenth * n, 0) / count
  return { count, meanDays: mean / 10, medianDays: median / 10 }
}

/** The month (UTC, YYYY-MM) a time falls in: the key of the monthly remediation figures. */
export const monthKey = (at: number) => new Date(at).toISOString().slice(0, 7)
