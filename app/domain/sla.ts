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

/** Whole days left (negative once breached), or null without a deadline. */
export function slaDaysLeft(clock: SlaClock, now: number): number | null {
  if (clock.dueAt === null) return null
  const at = clock.pausedAt ?? now
  return Math.floor((clock.dueAt - at) / DAY_MS)
}

/** Time to remediate, in days (fractional). */
export const daysToRemediate = (publishedAt: number, fixedAt: number) => Math.max(0, fixedAt - publishedAt) / DAY_MS

export interface RemediationSummary {
  count: number
  meanDays: number | null
  medianDays: number | null
}

/** Mean and median of times to remediate (days). */
export function summariseRemediation(days: readonly number[]): RemediationSummary {
  if (days.length === 0) return { count: 0, meanDays: null, medianDays: null }
  const sorted = [...days].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
  const mean = sorted.reduce((sum, d) => sum + d, 0) / sorted.length
  return { count: sorted.length, meanDays: mean, medianDays: median }
}

/** The month (UTC, YYYY-MM) a time falls in: the key of the monthly remediation figures. */
export const monthKey = (at: number) => new Date(at).toISOString().slice(0, 7)
