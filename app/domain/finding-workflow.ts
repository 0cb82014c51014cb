// The findings workflow (decision 0016): which move takes a finding from which statuses to which,
// who may make it (roles of access.ts), what it must carry, and what it changes beyond the status
// (SLA clock, closing times, pending requests). Pure: the callables and the seed apply the plan
// this module returns; the pages ask it which buttons to show.
import type { FindingRole } from './access.ts'
import type { FindingStatus, RiskAcceptance, StoredFinding } from './findings.ts'
import { daysToRemediate, pauseSlaClock, resumeSlaClock, slaStateAt, type SlaClock } from './sla.ts'

/** The moves people make. System moves (scans, expiry) are below. */
export const FINDING_ACTIONS = {
  start_remediation: { by: ['manager', 'company-admin'], from: ['open', 'reopened', 'partially_fixed'], to: 'in_remediation' },
  request_retest: {
    by: ['manager', 'company-admin'],
    from: ['open', 'in_remediation', 'reopened', 'partially_fixed', 'not_detected'],
    to: 'retest_requested',
  },
  request_acceptance: {
    by: ['manager', 'company-admin'],
    from: ['open', 'in_remediation', 'reopened', 'partially_fixed'],
    to: 'acceptance_requested',
  },
  approve_acceptance: { by: ['company-admin'], from: ['acceptance_requested'], to: 'risk_accepted' },
  reject_acceptance: { by: ['company-admin'], from: ['acceptance_requested'], to: 'previous' },
  dispute: { by: ['manager', 'company-admin'], from: ['open', 'in_remediation', 'reopened', 'partially_fixed'], to: 'disputed' },
  retest_fixed: { by: ['analyst'], from: ['retest_requested'], to: 'fixed' },
  retest_partially_fixed: { by: ['analyst'], from: ['retest_requested'], to: 'partially_fixed' },
  retest_not_fixed: { by: ['analyst'], from: ['retest_requested'], to: 'open' },
  uphold: { by: ['analyst'], from: ['disputed'], to: 'previous' },
  mark_false_positive: {
    by: ['analyst'],
    from: ['open', 'in_remediation', 'reopened', 'partially_fixed', 'disputed', 'not_detected'],
    to: 'false_positive',
  },
  mark_duplicate: { by: ['analyst'], from: ['open', 'in_remediation', 'reopened', 'partially_fixed', 'not_detected'], to: 'duplicate' },
  mark_out_of_scope: {
    by: ['analyst'],
    from: ['open', 'in_remediation', 'reopened', 'partially_fixed', 'disputed', 'not_detected'],
    to: 'out_of_scope',
  },
  confirm_fixed: { by: ['analyst'], from: ['not_detected'], to: 'fixed' },
  reopen: { by: ['analyst'], from: ['fixed', 'false_positive', 'duplicate', 'out_of_scope', 'risk_accepted', 'not_detected'], to: 'open' },
} as const satisfies Record<string, { by: readonly FindingRole[]; from: readonly FindingStatus[]; to: FindingStatus | 'previous' }>

export type FindingAction = keyof typeof FINDING_ACTIONS

export const FINDING_ACTION_NAMES = Object.keys(FINDING_ACTIONS) as FindingAction[]

export const findingActionLabels: Record<FindingAction, string> = {
  start_remediation: 'Start remediation',
  request_retest: 'Request retest',
  request_acceptance: 'Ask to accept the risk',
  approve_acceptance: 'Approve risk acceptance',
  reject_acceptance: 'Refuse risk acceptance',
  dispute: 'Dispute',
  retest_fixed: 'Retest: fixed',
  retest_partially_fixed: 'Retest: partly fixed',
  retest_not_fixed: 'Retest: not fixed',
  uphold: 'Uphold finding',
  mark_false_positive: 'Mark false positive',
  mark_duplicate: 'Mark duplicate',
  mark_out_of_scope: 'Mark out of scope',
  confirm_fixed: 'Confirm fixed',
  reopen: 'Reopen',
}

/** Moves that need a written reason (a note, a justification) from the person making them. */
export const ACTIONS_NEEDING_A_NOTE: readonly FindingAction[] = [
  'request_retest',
  'request_acceptance',
  'reject_acceptance',
  'dispute',
  'retest_partially_fixed',
  'retest_not_fixed',
  'uphold',
  'mark_false_positive',
  'reopen',
]

/** Moves that go through a retest request rather than one finding at a time. */
export const RETEST_OUTCOME_ACTIONS = ['retest_fixed', 'retest_partially_fixed', 'retest_not_fixed'] as const
export type RetestOutcomeAction = (typeof RETEST_OUTCOME_ACTIONS)[number]

/** Longest a risk may be accepted for before it must be decided again. */
export const MAX_ACCEPTANCE_DAYS = 365

/** Statuses that end a finding's life for its client (it leaves the open counts). */
const CLOSED_BY: Partial<Record<FindingStatus, true>> = {
  fixed: true,
  false_positive: true,
  duplicate: true,
  out_of_scope: true,
  risk_accepted: true,
  not_detected: true,
}

export interface Actor {
  uid: string
  name: string
  role: FindingRole | 'system'
}

export interface ActionInput {
  note?: string
  /** request_acceptance: when the accepted risk reopens (epoch ms). */
  expiresAt?: number
  /** request_retest: the retest request this finding joins. */
  retestId?: string
}

/** One entry of a finding's history: every change, with who, when, from, to and why. */
export interface FindingChange {
  action: FindingAction | SystemMove
  from: FindingStatus
  to: FindingStatus
  at: number
  byUid: string
  byName: string
  role: Actor['role']
  note: string | null
  scanId?: string
  retestId?: string
}

export type FindingState = Pick<
  StoredFinding,
  | 'status'
  | 'severity'
  | 'publishedAt'
  | 'sla'
  | 'slaState'
  | 'closedAt'
  | 'fixedAt'
  | 'fixedWithinSla'
  | 'retestId'
  | 'lastRetestOutcome'
  | 'riskAcceptance'
  | 'previousStatus'
  | 'regression'
>

export type Plan = { ok: true; patch: Partial<FindingState>; change: FindingChange } | { ok: false; reason: string }

/** Whether the role may make the move from the finding's status (what the pages show as buttons). */
export function mayMakeMove(role: FindingRole | null, action: FindingAction, status: FindingStatus): boolean {
  const move = FINDING_ACTIONS[action]
  return role !== null && (move.by as readonly FindingRole[]).includes(role) && (move.from as readonly FindingStatus[]).includes(status)
}

/** The moves a role may make on a finding in this status, in the table's order. */
export const availableMoves = (role: FindingRole | null, status: FindingStatus) =>
  FINDING_ACTION_NAMES.filter(
    (action) => mayMakeMove(role, action, status) && !(RETEST_OUTCOME_ACTIONS as readonly string[]).includes(action),
  )

const clockOf = (state: FindingState): SlaClock => ({
  startedAt: state.sla.startedAt,
  dueAt: state.sla.dueAt,
  pausedAt: state.sla.pausedAt,
})

/** The patch that moves a finding to `to` at `now`: SLA clock, closing times and the SLA state. */
function moveTo(state: FindingState, to: FindingStatus, now: number): Partial<FindingState> {
  let clock = clockOf(state)
  if (to === 'retest_requested') clock = pauseSlaClock(clock, now)
  else clock = resumeSlaClock(clock, now)
  const closing = CLOSED_BY[to] === true
  const patch: Partial<FindingState> = { status: to, sla: clock }
  if (closing) {
    patch.closedAt = now
    patch.slaState = 'none'
  } else {
    patch.closedAt = null
    patch.slaState = slaStateAt(clock, now)
  }
  if (to === 'fixed') {
    patch.fixedAt = now
    patch.fixedWithinSla = clock.dueAt === null || now <= clock.dueAt
  } else if (!closing) {
    patch.fixedAt = null
    patch.fixedWithinSla = null
  }
  return patch
}

export const acceptanceEndMessages = {
  missing: 'Choose when the acceptance ends: a date in the future.',
  tooLate: `A risk is accepted for ${MAX_ACCEPTANCE_DAYS} days at most.`,
} as const

/** A risk acceptance chosen to end on a day (`YYYY-MM-DD`) ends at that day's last second, UTC (NaN for no day). */
export const acceptanceEndOfDay = (day: string) => Date.parse(`${day}T23:59:59Z`)

/** Why a risk acceptance cannot end at `expiresAt` (epoch ms), or null when it can: in the future, within the longest acceptance. */
export function acceptanceEndProblem(expiresAt: number | undefined, now: number): string | null {
  if (expiresAt === undefined || !Number.isFinite(expiresAt) || expiresAt <= now) return acceptanceEndMessages.missing
  if (expiresAt > now + MAX_ACCEPTANCE_DAYS * 86_400_000) return acceptanceEndMessages.tooLate
  return null
}

function refuse(reason: string): Plan {
  return { ok: false, reason }
}

/**
 * What a person's move does to a finding, or why it is refused: role, status, note and expiry
 * are all checked here, so every caller refuses alike.
 */
export function planFindingAction(state: FindingState, action: FindingAction, actor: Actor, input: ActionInput, now: number): Plan {
  const move = FINDING_ACTIONS[action]
  if (actor.role === 'system' || !(move.by as readonly FindingRole[]).includes(actor.role))
    return refuse(`Your role may not ${findingActionLabels[action].toLowerCase()}.`)
  if (!(move.from as readonly FindingStatus[]).includes(state.status))
    return refuse(`A finding that is ${state.status.replaceAll('_', ' ')} cannot take "${findingActionLabels[action]}".`)
  const note = input.note?.trim() ?? ''
  if (ACTIONS_NEEDING_A_NOTE.includes(action) && note === '') return refuse('Say why: a note is required for this step.')

  const to: FindingStatus = move.to === 'previous' ? (state.previousStatus ?? 'open') : move.to
  const patch: Partial<FindingState> = moveTo(state, to, now)

  switch (action) {
    case 'request_retest':
      if (!input.retestId) return refuse('A retest request is needed.')
      patch.retestId = input.retestId
      break
    case 'request_acceptance': {
      const expiresAt = input.expiresAt
      const problem = acceptanceEndProblem(expiresAt, now)
      if (problem !== null || expiresAt === undefined) return refuse(problem ?? acceptanceEndMessages.missing)
      const acceptance: RiskAcceptance = {
        requestedByUid: actor.uid,
        requestedByName: actor.name,
        requestedAt: now,
        reason: note,
        expiresAt,
      }
      patch.riskAcceptance = acceptance
      patch.previousStatus = state.status
      break
    }
    case 'approve_acceptance':
      if (!state.riskAcceptance) return refuse('There is no risk acceptance to decide.')
      if (state.riskAcceptance.expiresAt <= now) return refuse('The requested acceptance has already ended: ask again with a new date.')
      patch.riskAcceptance = {
        ...state.riskAcceptance,
        decidedByUid: actor.uid,
        decidedByName: actor.name,
        decidedAt: now,
        decisionNote: note || undefined,
      }
      patch.previousStatus = null
      break
    case 'reject_acceptance':
      patch.riskAcceptance = null
      patch.previousStatus = null
      break
    case 'dispute':
      patch.previousStatus = state.status
      break
    case 'uphold':
      patch.previousStatus = null
      break
    case 'retest_fixed':
    case 'retest_partially_fixed':
    case 'retest_not_fixed':
      patch.retestId = null
      patch.lastRetestOutcome = action === 'retest_fixed' ? 'fixed' : action === 'retest_partially_fixed' ? 'partially_fixed' : 'not_fixed'
      break
    case 'reopen':
      patch.riskAcceptance = null
      break
    default:
      break
  }

  return {
    ok: true,
    patch,
    change: {
      action,
      from: state.status,
      to,
      at: now,
      byUid: actor.uid,
      byName: actor.name,
      role: actor.role,
      note: note || null,
      ...(input.retestId ? { retestId: input.retestId } : {}),
    },
  }
}

/** What scans and the clock do without a person. */
export type SystemMove = 'first_seen' | 'seen_again' | 'not_seen' | 'acceptance_expired'

const SYSTEM: Actor = { uid: 'system', name: 'Bulwark', role: 'system' }

/** Open statuses a later comparable scan can stop seeing. Pending requests wait for a person. */
export const SCAN_CAN_CLEAR: readonly FindingStatus[] = ['open', 'in_remediation', 'reopened', 'partially_fixed']

function systemChange(move: SystemMove, from: FindingStatus, to: FindingStatus, now: number, scanId?: string): FindingChange {
  return {
    action: move,
    from,
    to,
    at: now,
    byUid: SYSTEM.uid,
    byName: SYSTEM.name,
    role: 'system',
    note: null,
    ...(scanId ? { scanId } : {}),
  }
}

/**
 * A later comparable scan did not see the finding: open ones become `not_detected` (never fixed
 * without a person); others stay as they are (null).
 */
export function planNotSeen(state: FindingState, scanId: string, now: number): Plan | null {
  if (!SCAN_CAN_CLEAR.includes(state.status)) return null
  return {
    ok: true,
    patch: moveTo(state, 'not_detected', now),
    change: systemChange('not_seen', state.status, 'not_detected', now, scanId),
  }
}

/**
 * A scan saw the finding again: a fixed one is `reopened` and a regression, a not-detected one is
 * open again; others keep their status (null).
 */
export function planSeenAgain(state: FindingState, scanId: string, now: number): Plan | null {
  if (state.status === 'fixed') {
    const patch = { ...moveTo(state, 'reopened', now), regression: true }
    return { ok: true, patch, change: systemChange('seen_again', 'fixed', 'reopened', now, scanId) }
  }
  if (state.status === 'not_detected')
    return { ok: true, patch: moveTo(state, 'open', now), change: systemChange('seen_again', 'not_detected', 'open', now, scanId) }
  return null
}

/** An accepted risk whose expiry passed is open again (null while it holds). */
export function planAcceptanceExpiry(state: FindingState, now: number): Plan | null {
  if (state.status !== 'risk_accepted' || !state.riskAcceptance || state.riskAcceptance.expiresAt > now) return null
  const patch = { ...moveTo(state, 'open', now), riskAcceptance: null }
  return { ok: true, patch, change: systemChange('acceptance_expired', 'risk_accepted', 'open', now) }
}

/** The SLA state a still-open finding has now (for the scheduled refresh); null if unchanged. */
export function planSlaRefresh(state: FindingState, now: number): Partial<FindingState> | null {
  if (CLOSED_BY[state.status]) return null
  const next = slaStateAt(clockOf(state), now)
  return next === state.slaState ? null : { slaState: next }
}

/** Time to remediate of a fixed finding, in days (for the monthly figures). */
export const remediationDays = (state: Pick<FindingState, 'publishedAt' | 'fixedAt'>) =>
  state.fixedAt === null || state.fixedAt === undefined ? null : daysToRemediate(state.publishedAt, state.fixedAt)
