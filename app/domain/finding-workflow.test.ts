import { describe, expect, it } from 'vitest'
import type { FindingRole } from './access.ts'
import {
  ACTIONS_NEEDING_A_NOTE,
  availableMoves,
  FINDING_ACTION_NAMES,
  FINDING_ACTIONS,
  MAX_ACCEPTANCE_DAYS,
  planAcceptanceExpiry,
  planFindingAction,
  planNotSeen,
  planSeenAgain,
  planSlaRefresh,
  remediationDays,
  RETEST_OUTCOME_ACTIONS,
  type Actor,
  type FindingAction,
  type FindingState,
} from './finding-workflow.ts'
import { FINDING_STATUSES, type FindingStatus } from './findings.ts'
import { DAY_MS } from './sla.ts'

const ROLES: FindingRole[] = ['viewer', 'manager', 'company-admin', 'analyst']
const T0 = Date.UTC(2026, 0, 1)
const NOW = T0 + 10 * DAY_MS

function state(status: FindingStatus, overrides: Partial<FindingState> = {}): FindingState {
  return {
    status,
    severity: 'high',
    publishedAt: T0,
    sla: { startedAt: T0, dueAt: T0 + 30 * DAY_MS, pausedAt: status === 'retest_requested' ? T0 + 5 * DAY_MS : null },
    slaState: status === 'retest_requested' ? 'paused' : 'ok',
    closedAt: null,
    fixedAt: null,
    fixedWithinSla: null,
    retestId: status === 'retest_requested' ? 'retest-1' : null,
    lastRetestOutcome: null,
    riskAcceptance:
      status === 'acceptance_requested' || status === 'risk_accepted'
        ? { requestedByUid: 'm', requestedByName: 'Manager', requestedAt: T0, reason: 'Compensating control', expiresAt: NOW + 30 * DAY_MS }
        : null,
    previousStatus: status === 'acceptance_requested' || status === 'disputed' ? 'in_remediation' : null,
    regression: false,
    ...overrides,
  }
}

const actor = (role: FindingRole): Actor => ({ uid: `${role}-uid`, name: role, role })

// Everything a move can need: a note, an expiry, a retest request.
const fullInput = { note: 'Because', expiresAt: NOW + 30 * DAY_MS, retestId: 'retest-2' }

describe('planFindingAction, every move × role × status', () => {
  for (const action of FINDING_ACTION_NAMES) {
    const move = FINDING_ACTIONS[action]
    for (const role of ROLES) {
      for (const status of FINDING_STATUSES) {
        const allowed = (move.by as readonly string[]).includes(role) && (move.from as readonly string[]).includes(status)
        it(`${action} by ${role} from ${status}: ${allowed ? 'allowed' : 'refused'}`, () => {
          const plan = planFindingAction(state(status), action, actor(role), fullInput, NOW)
          expect(plan.ok).toBe(allowed)
          if (!plan.ok) return
          const to = move.to === 'previous' ? 'in_remediation' : move.to
          expect(plan.patch.status).toBe(to)
          expect(plan.change).toMatchObject({ action, from: status, to, at: NOW, byUid: `${role}-uid`, role })
        })
      }
    }
  }

  it('refuses system actors every move', () => {
    for (const action of FINDING_ACTION_NAMES)
      expect(planFindingAction(state('open'), action, { uid: 's', name: 'S', role: 'system' }, fullInput, NOW).ok).toBe(false)
  })

  it('lists as buttons the allowed moves only, without retest outcomes', () => {
    expect(availableMoves('viewer', 'open')).toEqual([])
    expect(availableMoves('manager', 'open')).toEqual(['start_remediation', 'request_retest', 'request_acceptance', 'dispute'])
    expect(availableMoves('analyst', 'retest_requested')).toEqual([])
    expect(availableMoves(null, 'open')).toEqual([])
  })
})

describe('planFindingAction, what moves must carry', () => {
  const firstAllowed = (action: FindingAction) => {
    const move = FINDING_ACTIONS[action]
    return { role: move.by[0] as FindingRole, status: move.from[0] as FindingStatus }
  }

  for (const action of FINDING_ACTION_NAMES) {
    const needsNote = ACTIONS_NEEDING_A_NOTE.includes(action)
    it(`${action} ${needsNote ? 'needs' : 'does not need'} a note`, () => {
      const { role, status } = firstAllowed(action)
      for (const note of ['', '   ', undefined]) {
        const plan = planFindingAction(state(status), action, actor(role), { ...fullInput, note }, NOW)
        expect(plan.ok).toBe(!needsNote)
        if (!plan.ok) expect(plan.reason).toMatch(/note is required/)
      }
    })
  }

  it('keeps the trimmed note in the history entry', () => {
    const plan = planFindingAction(state('open'), 'dispute', actor('manager'), { note: '  Not ours  ' }, NOW)
    expect(plan.ok && plan.change.note).toBe('Not ours')
  })

  it('needs a retest request to request a retest', () => {
    const plan = planFindingAction(state('open'), 'request_retest', actor('manager'), { note: 'Patched' }, NOW)
    expect(plan).toEqual({ ok: false, reason: 'A retest request is needed.' })
  })

  it('needs an expiry in the future, within the longest acceptance', () => {
    const ask = (expiresAt: number | undefined) =>
      planFindingAction(
        state('open'),
        'request_acceptance',
        actor('manager'),
        { note: 'Low value', ...(expiresAt === undefined ? {} : { expiresAt }) },
        NOW,
      )
    expect(ask(undefined).ok).toBe(false)
    expect(ask(NOW).ok).toBe(false)
    expect(ask(NOW - 1).ok).toBe(false)
    expect(ask(Number.NaN).ok).toBe(false)
    expect(ask(NOW + MAX_ACCEPTANCE_DAYS * DAY_MS + 1).ok).toBe(false)
    const plan = ask(NOW + MAX_ACCEPTANCE_DAYS * DAY_MS)
    expect(plan.ok).toBe(true)
    if (!plan.ok) return
    expect(plan.patch.riskAcceptance).toMatchObject({
      requestedByUid: 'manager-uid',
      reason: 'Low value',
      expiresAt: NOW + MAX_ACCEPTANCE_DAYS * DAY_MS,
    })
    expect(plan.patch.previousStatus).toBe('open')
  })

  it('refuses to approve an acceptance whose expiry already passed', () => {
    const lapsed = state('acceptance_requested', {
      riskAcceptance: { requestedByUid: 'm', requestedByName: 'M', requestedAt: T0, reason: 'r', expiresAt: NOW - 1 },
    })
    expect(planFindingAction(lapsed, 'approve_acceptance', actor('company-admin'), {}, NOW).ok).toBe(false)
  })

  it('approving records the decision; refusing returns to the status before the request', () => {
    const approve = planFindingAction(state('acceptance_requested'), 'approve_acceptance', actor('company-admin'), { note: 'OK' }, NOW)
    expect(approve.ok && approve.patch).toMatchObject({
      status: 'risk_accepted',
      closedAt: NOW,
      slaState: 'none',
      riskAcceptance: { decidedByUid: 'company-admin-uid', decidedAt: NOW, decisionNote: 'OK' },
      previousStatus: null,
    })
    const reject = planFindingAction(state('acceptance_requested'), 'reject_acceptance', actor('company-admin'), { note: 'No' }, NOW)
    expect(reject.ok && reject.patch).toMatchObject({ status: 'in_remediation', riskAcceptance: null, previousStatus: null })
  })

  it('a retest request pauses the clock; its outcome resumes it and moves the due date by the pause', () => {
    const request = planFindingAction(state('open'), 'request_retest', actor('manager'), { note: 'Patched', retestId: 'r1' }, NOW)
    expect(request.ok && request.patch).toMatchObject({ status: 'retest_requested', slaState: 'paused', retestId: 'r1' })
    const paused = state('retest_requested', { sla: { startedAt: T0, dueAt: T0 + 30 * DAY_MS, pausedAt: NOW } })
    const notFixed = planFindingAction(paused, 'retest_not_fixed', actor('analyst'), { note: 'Still there' }, NOW + 3 * DAY_MS)
    expect(notFixed.ok && notFixed.patch).toMatchObject({
      status: 'open',
      retestId: null,
      lastRetestOutcome: 'not_fixed',
      sla: { dueAt: T0 + 33 * DAY_MS, pausedAt: null },
    })
    const fixed = planFindingAction(paused, 'retest_fixed', actor('analyst'), {}, NOW + 3 * DAY_MS)
    expect(fixed.ok && fixed.patch).toMatchObject({
      status: 'fixed',
      fixedAt: NOW + 3 * DAY_MS,
      fixedWithinSla: true,
      lastRetestOutcome: 'fixed',
    })
  })

  it('a fix after the due date is kept as outside the SLA', () => {
    const late = T0 + 31 * DAY_MS
    const plan = planFindingAction(state('not_detected'), 'confirm_fixed', actor('analyst'), {}, late)
    expect(plan.ok && plan.patch).toMatchObject({ status: 'fixed', fixedWithinSla: false, closedAt: late })
  })

  it('every retest outcome is an analyst move from retest requested', () => {
    for (const action of RETEST_OUTCOME_ACTIONS)
      expect(FINDING_ACTIONS[action]).toMatchObject({ by: ['analyst'], from: ['retest_requested'] })
  })
})

describe('system moves', () => {
  it('a scan that does not see a finding never makes it fixed', () => {
    for (const status of FINDING_STATUSES) {
      const plan = planNotSeen(state(status), 'scan-2', NOW)
      if (['open', 'in_remediation', 'reopened', 'partially_fixed'].includes(status)) {
        expect(plan?.ok && plan.patch.status, status).toBe('not_detected')
        expect(plan?.ok && plan.change).toMatchObject({
          action: 'not_seen',
          from: status,
          to: 'not_detected',
          scanId: 'scan-2',
          role: 'system',
        })
      } else {
        expect(plan, status).toBeNull()
      }
      expect(plan?.ok ? plan.patch.status : null).not.toBe('fixed')
    }
  })

  it('a fixed finding seen again is reopened and a regression; a not-detected one is open again', () => {
    const fixed = state('fixed', { fixedAt: NOW - DAY_MS, fixedWithinSla: true, closedAt: NOW - DAY_MS })
    const again = planSeenAgain(fixed, 'scan-3', NOW)
    expect(again?.ok && again.patch).toMatchObject({ status: 'reopened', regression: true, fixedAt: null, closedAt: null })
    expect(again?.ok && again.change).toMatchObject({ action: 'seen_again', from: 'fixed', to: 'reopened', scanId: 'scan-3' })
    const back = planSeenAgain(state('not_detected'), 'scan-3', NOW)
    expect(back?.ok && back.patch.status).toBe('open')
    expect(back?.ok && back.patch.regression).toBeUndefined()
    for (const status of FINDING_STATUSES.filter((s) => s !== 'fixed' && s !== 'not_detected'))
      expect(planSeenAgain(state(status), 'scan-3', NOW)).toBeNull()
  })

  it('an accepted risk reopens once its expiry passes, not before', () => {
    const accepted = state('risk_accepted')
    const expiry = accepted.riskAcceptance!.expiresAt
    expect(planAcceptanceExpiry(accepted, expiry - 1)).toBeNull()
    const plan = planAcceptanceExpiry(accepted, expiry)
    expect(plan?.ok && plan.patch).toMatchObject({ status: 'open', riskAcceptance: null, closedAt: null })
    expect(plan?.ok && plan.change).toMatchObject({ action: 'acceptance_expired', from: 'risk_accepted', to: 'open' })
    expect(planAcceptanceExpiry(state('open'), expiry)).toBeNull()
  })

  it('refreshes the SLA state of open findings only, when it changes', () => {
    expect(planSlaRefresh(state('open'), NOW)).toBeNull()
    expect(planSlaRefresh(state('open'), T0 + 25 * DAY_MS)).toEqual({ slaState: 'due_soon' })
    expect(planSlaRefresh(state('open'), T0 + 31 * DAY_MS)).toEqual({ slaState: 'breached' })
    expect(planSlaRefresh(state('fixed'), T0 + 31 * DAY_MS)).toBeNull()
  })

  it('counts the days to remediate of fixed findings', () => {
    expect(remediationDays({ publishedAt: T0, fixedAt: T0 + 3 * DAY_MS })).toBe(3)
    expect(remediationDays({ publishedAt: T0, fixedAt: null })).toBeNull()
  })
})
