import { describe, expect, it } from 'vitest'
import {
  DAY_MS,
  DEFAULT_SLA_POLICY,
  daysToRemediate,
  kevSlaClock,
  monthKey,
  pauseSlaClock,
  reprioritiseSlaClock,
  resumeSlaClock,
  slaDaysLeft,
  slaPolicyFor,
  slaStateAt,
  slaStateChangesAt,
  slaText,
  startSlaClock,
  remediationTenthsOf,
  summariseRemediation,
  withRemediationDays,
} from './sla.ts'

const T0 = Date.UTC(2026, 2, 1)

describe('due dates', () => {
  it('follow the days per severity from publication, none for informational', () => {
    expect(startSlaClock('critical', T0, DEFAULT_SLA_POLICY)).toEqual({ startedAt: T0, dueAt: T0 + 7 * DAY_MS, pausedAt: null })
    expect(startSlaClock('high', T0, DEFAULT_SLA_POLICY).dueAt).toBe(T0 + 30 * DAY_MS)
    expect(startSlaClock('medium', T0, DEFAULT_SLA_POLICY).dueAt).toBe(T0 + 90 * DAY_MS)
    expect(startSlaClock('low', T0, DEFAULT_SLA_POLICY).dueAt).toBe(T0 + 180 * DAY_MS)
    expect(startSlaClock('info', T0, DEFAULT_SLA_POLICY).dueAt).toBeNull()
  })

  it("take a company's own days where it sets them", () => {
    const policy = slaPolicyFor({ critical: 3, info: 365 })
    expect(policy).toEqual({ ...DEFAULT_SLA_POLICY, critical: 3, info: 365 })
    expect(startSlaClock('critical', T0, policy).dueAt).toBe(T0 + 3 * DAY_MS)
    expect(slaPolicyFor(null)).toEqual(DEFAULT_SLA_POLICY)
  })
})

describe('pause and resume', () => {
  it('moves the due date by the time the clock stood still', () => {
    const clock = startSlaClock('high', T0, DEFAULT_SLA_POLICY)
    const paused = pauseSlaClock(clock, T0 + 10 * DAY_MS)
    expect(paused.pausedAt).toBe(T0 + 10 * DAY_MS)
    expect(slaStateAt(paused, T0 + 40 * DAY_MS)).toBe('paused')
    expect(slaDaysLeft(paused, T0 + 40 * DAY_MS)).toBe(20)
    // Pausing again keeps the first pause.
    expect(pauseSlaClock(paused, T0 + 12 * DAY_MS)).toBe(paused)
    const resumed = resumeSlaClock(paused, T0 + 14 * DAY_MS)
    expect(resumed).toEqual({ startedAt: T0, dueAt: T0 + 34 * DAY_MS, pausedAt: null })
    expect(resumeSlaClock(resumed, T0 + 20 * DAY_MS)).toBe(resumed)
  })

  it('a clock without a deadline stays without one', () => {
    const clock = startSlaClock('info', T0, DEFAULT_SLA_POLICY)
    expect(resumeSlaClock(pauseSlaClock(clock, T0), T0 + DAY_MS).dueAt).toBeNull()
    expect(slaStateAt(clock, T0 + 1000 * DAY_MS)).toBe('none')
    expect(slaDaysLeft(clock, T0)).toBeNull()
  })
})

describe('states', () => {
  const clock = startSlaClock('high', T0, DEFAULT_SLA_POLICY) // 30 days: due soon from day 24

  it('is due soon when a fifth of the window or less is left', () => {
    expect(slaStateAt(clock, T0)).toBe('ok')
    expect(slaStateAt(clock, T0 + 24 * DAY_MS - 1)).toBe('ok')
    expect(slaStateAt(clock, T0 + 24 * DAY_MS)).toBe('due_soon')
    expect(slaStateAt(clock, T0 + 30 * DAY_MS)).toBe('due_soon')
  })

  it('is breached after the due date', () => {
    expect(slaStateAt(clock, T0 + 30 * DAY_MS + 1)).toBe('breached')
    expect(slaDaysLeft(clock, T0 + 32 * DAY_MS)).toBe(-2)
  })
})

describe('the moment the state moves on', () => {
  it('is the first millisecond of due soon, then of breached, and never for a clock that stands still', () => {
    const clock = startSlaClock('high', T0, DEFAULT_SLA_POLICY)
    expect(slaStateChangesAt(clock, 'ok')).toBe(T0 + 24 * DAY_MS)
    expect(slaStateChangesAt(clock, 'due_soon')).toBe(T0 + 30 * DAY_MS + 1)
    expect(slaStateChangesAt(clock, 'breached')).toBeNull()
    expect(slaStateChangesAt(pauseSlaClock(clock, T0 + DAY_MS), 'paused')).toBeNull()
    expect(slaStateChangesAt(startSlaClock('info', T0, DEFAULT_SLA_POLICY), 'none')).toBeNull()
  })

  it('agrees with slaStateAt to the millisecond, whatever the window and the pauses', () => {
    // Windows whose fifth is not a whole millisecond, a clock resumed after a pause, one due at once.
    const clocks = [
      { startedAt: T0, dueAt: T0 + 7, pausedAt: null },
      { startedAt: T0, dueAt: T0 + 3 * DAY_MS + 13, pausedAt: null },
      resumeSlaClock(pauseSlaClock(startSlaClock('critical', T0, DEFAULT_SLA_POLICY), T0 + 1_234), T0 + 5 * DAY_MS + 17),
      { startedAt: T0, dueAt: T0, pausedAt: null },
    ]
    for (const clock of clocks)
      for (const state of ['ok', 'due_soon'] as const) {
        const at = slaStateChangesAt(clock, state)!
        if (state === 'ok' && clock.dueAt === clock.startedAt) expect(slaStateAt(clock, at)).toBe('breached')
        else expect(slaStateAt(clock, at)).toBe(state === 'ok' ? 'due_soon' : 'breached')
        expect(slaStateAt(clock, at - 1)).not.toBe(slaStateAt(clock, at))
      }
  })
})

describe('reprioritise', () => {
  it('keeps the start and the pauses, and takes the new window', () => {
    const clock = resumeSlaClock(pauseSlaClock(startSlaClock('medium', T0, DEFAULT_SLA_POLICY), T0), T0 + 5 * DAY_MS)
    expect(clock.dueAt).toBe(T0 + 95 * DAY_MS)
    expect(reprioritiseSlaClock(clock, 'medium', 'critical', DEFAULT_SLA_POLICY).dueAt).toBe(T0 + 12 * DAY_MS)
    expect(reprioritiseSlaClock(clock, 'medium', 'info', DEFAULT_SLA_POLICY).dueAt).toBeNull()
    const none = startSlaClock('info', T0, DEFAULT_SLA_POLICY)
    expect(reprioritiseSlaClock(none, 'info', 'high', DEFAULT_SLA_POLICY).dueAt).toBe(T0 + 30 * DAY_MS)
  })
})

describe('time to remediate', () => {
  it('is fixed minus published, in days, never negative', () => {
    expect(daysToRemediate(T0, T0 + 36 * 3_600_000)).toBe(1.5)
    expect(daysToRemediate(T0, T0 - DAY_MS)).toBe(0)
  })

  it('summarises by mean and median, over the counts of several months', () => {
    expect(summariseRemediation([])).toEqual({ count: 0, meanDays: null, medianDays: null })
    expect(summariseRemediation([remediationTenthsOf([10, 2, 3])])).toEqual({ count: 3, meanDays: 5, medianDays: 3 })
    expect(summariseRemediation([remediationTenthsOf([1, 2]), remediationTenthsOf([3, 100])])).toEqual({
      count: 4,
      meanDays: 26.5,
      medianDays: 2.5,
    })
    // Counted to the tenth of a day, as the pages show them; a zero count is no fix.
    expect(summariseRemediation([{ '14': 1, '16': 0 }, withRemediationDays({}, 1.66)])).toEqual({
      count: 2,
      meanDays: 1.55,
      medianDays: 1.55,
    })
  })

  it('keeps a month small whatever the number of fixes: one count per tenth of a day', () => {
    let tenths = {}
    for (let i = 0; i < 10_000; i++) tenths = withRemediationDays(tenths, (i % 50) / 10)
    expect(Object.keys(tenths)).toHaveLength(50)
    expect(summariseRemediation([tenths])).toMatchObject({ count: 10_000, medianDays: 2.45 })
  })

  it('files each time under its UTC month', () => {
    expect(monthKey(Date.UTC(2026, 0, 31, 23, 59))).toBe('2026-01')
    expect(monthKey(Date.UTC(2026, 1, 1))).toBe('2026-02')
  })
})

describe('slaText', () => {
  it('says the days left, or over once breached', () => {
    expect(slaText('ok', 12)).toBe('12 days left')
    expect(slaText('due_soon', 1)).toBe('Due soon, 1 day left')
    expect(slaText('breached', -120)).toBe('Breached 120 days ago')
    expect(slaText('none', null)).toBe('No deadline')
  })

  it('says a paused clock is overdue when it was paused past its due date, not that no day is left', () => {
    // Breached 110 days before a retest was requested: the clock stood still from then on.
    const clock = pauseSlaClock(startSlaClock('critical', T0, DEFAULT_SLA_POLICY), T0 + 117 * DAY_MS)
    const now = T0 + 127 * DAY_MS
    expect(slaText(slaStateAt(clock, now), slaDaysLeft(clock, now))).toBe('Paused, 110 days late')
    expect(slaText('paused', -1)).toBe('Paused, 1 day late')
    expect(slaText('paused', 0)).toBe('Paused, 0 days left')
    expect(slaText('paused', 20)).toBe('Paused, 20 days left')
  })
})

describe('the clock of a finding known to be exploited', () => {
  const start = Date.UTC(2026, 0, 1)
  const clock = startSlaClock('high', start, DEFAULT_SLA_POLICY)
  it('is due within the days from when it became known, or from publication when later, never later than before', () => {
    expect(kevSlaClock(clock, 7, start + 20 * DAY_MS)).toEqual({ ...clock, dueAt: start + 27 * DAY_MS })
    expect(kevSlaClock(clock, 7, start - DAY_MS)).toEqual({ ...clock, dueAt: start + 7 * DAY_MS })
    expect(kevSlaClock(clock, 14, start + 25 * DAY_MS)).toBe(clock)
    expect(kevSlaClock({ startedAt: start, dueAt: null, pausedAt: null }, 7, start)).toEqual({
      startedAt: start,
      dueAt: start + 7 * DAY_MS,
      pausedAt: null,
    })
  })
})
