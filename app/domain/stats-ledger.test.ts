import { describe, expect, it } from 'vitest'
import type { StoredFinding } from './findings.ts'
import { planScanPublication, type ObservedFinding, type PublishedScan } from './scan-publication.ts'
import { findingContribution, readServiceStats, sumContributions } from './service-stats.ts'
import { DAY_MS, DEFAULT_SLA_POLICY, monthKey } from './sla.ts'
import {
  addToMonth,
  aggregatePacer,
  AGGREGATE_WRITE_INTERVAL_MS,
  FOLD_ENTRIES,
  foldEntries,
  mergeStatsDeltas,
  statsDelta,
  type PendingEntry,
  type StatsDelta,
} from './stats-ledger.ts'
import { SEVERITIES } from './template-vocabulary.ts'
import { readServiceMonth } from './service-stats.ts'

const T0 = Date.UTC(2026, 0, 5)
const SEVERITY_CYCLE = SEVERITIES
const observed = (n: number): ObservedFinding => ({
  fingerprint: `f${String(n).padStart(6, '0')}`,
  title: `Finding ${n % 500}`,
  severity: SEVERITY_CYCLE[n % SEVERITY_CYCLE.length]!,
  asset: `10.1.${(n >> 8) & 255}.${n & 255}:443`,
})

/** Counter paths as the stored document nests them. */
const nested = (delta: Record<string, number>) => {
  const out: Record<string, unknown> = {}
  for (const [path, n] of Object.entries(delta)) {
    const [head, tail] = path.split('.') as [string, string | undefined]
    if (tail === undefined) out[head] = n
    else out[head] = { ...((out[head] as Record<string, number>) ?? {}), [tail]: n }
  }
  return out
}

describe('the stats ledger', () => {
  it('adds a delta per finding change that sums to a recount', () => {
    const scan: PublishedScan = { id: 's1', service: 'network', startedAt: T0 }
    const plan = planScanPublication({
      scan,
      observed: [observed(0), observed(1), observed(2)],
      current: new Map(),
      policy: DEFAULT_SLA_POLICY,
      now: T0,
      by: 'a',
    })
    const fixedAt = T0 + 3 * DAY_MS
    const first = plan.writes[0]!.after
    const fixed: StoredFinding = { ...first, status: 'fixed', fixedAt, closedAt: fixedAt, fixedWithinSla: true }
    const delta = statsDelta([...plan.writes.map((w) => ({ before: w.before, after: w.after })), { before: first, after: fixed }])
    const after = [fixed, plan.writes[1]!.after, plan.writes[2]!.after]
    expect(readServiceStats(nested(delta.services.network!))).toEqual(sumContributions(after.map((f) => findingContribution(f))))
    expect(delta.months[`network/${monthKey(T0)}`]).toEqual({
      opened: { critical: 1, high: 1, medium: 1 },
      fixed: { critical: 1 },
      fixedWithinSla: { critical: 1 },
      remediationDays: { critical: [3] },
    })
  })

  it("adds a month's fixes as counts per tenth of a day, and reads a month stored with each fix's days into the counts", () => {
    const legacy = readServiceMonth('2026-01', { fixed: { high: 3 }, remediationDays: { high: [2, 2.04, 10] } })
    expect(legacy.remediationTenths.high).toEqual({ '20': 2, '100': 1 })
    expect(legacy).not.toHaveProperty('remediationDays')
    const delta = { opened: {}, fixed: { high: 2 }, fixedWithinSla: { high: 1 }, remediationDays: { high: [10, 3.3] } }
    const month = addToMonth(legacy, delta)
    expect(month.fixed.high).toBe(5)
    expect(month.remediationTenths.high).toEqual({ '20': 2, '33': 1, '100': 2 })
    // What is written back holds the counts only: a month no longer grows with each fix.
    expect(month).not.toHaveProperty('remediationDays')
    expect(readServiceMonth('2026-01', month).remediationTenths.high).toEqual(month.remediationTenths.high)
  })

  it('drops counters that add up to nought when merged', () => {
    const a: StatsDelta = { services: { dast: { 'open.high': 2, 'byStatus.open': 1 } }, months: {} }
    const b: StatsDelta = { services: { dast: { 'open.high': -2, 'byStatus.open': -1 } }, months: {} }
    expect(mergeStatsDeltas(a, b)).toEqual({ services: {}, months: {} })
  })

  it('publishes 100,000 findings writing each aggregate at most once a second, and folds to a recount', async () => {
    const FINDINGS = 100_000
    const STEP = 120
    // Each step (a transaction of 120 findings) takes 40 ms: 25 steps a second, well above what
    // one document sustains, so only the fold's pacing keeps the aggregates below it.
    const STEP_MS = 40
    const FOLD_MS = 60
    let clock = 0
    const pacer = aggregatePacer(
      () => clock,
      async (ms) => {
        clock += ms
      },
    )
    const scan: PublishedScan = { id: 'big', service: 'network', startedAt: T0 }
    const writes = new Map<string, number[]>()
    const wrote = (path: string) => writes.set(path, [...(writes.get(path) ?? []), clock])
    let pending: PendingEntry[] = []
    const stats: Record<string, number> = {}
    let month = readServiceMonth(monthKey(T0), {})
    const scanCounts = { new: 0, total: 0 }
    const all: StoredFinding[] = []
    let entries = 0

    const fold = async () => {
      while (pending.length > 0) {
        await pacer.wait()
        const taken = pending.slice(0, FOLD_ENTRIES)
        pending = pending.slice(FOLD_ENTRIES)
        const plan = foldEntries(taken)
        // One fold: each aggregate it touches written once.
        for (const service of Object.keys(plan.delta.services)) wrote(`service_stats/${service}`)
        for (const key of Object.keys(plan.delta.months)) wrote(`service_stats/${key}`)
        for (const id of plan.scans.keys()) wrote(`scans/${id}`)
        for (const [path, n] of Object.entries(plan.delta.services.network ?? {})) stats[path] = (stats[path] ?? 0) + n
        const delta = plan.delta.months[`network/${month.month}`]
        if (delta) month = addToMonth(month, delta)
        const step = plan.scans.get('big')
        if (step) {
          scanCounts.new += step.counts.new
          scanCounts.total += step.counts.total
        }
        clock += FOLD_MS
        pacer.wrote()
      }
    }

    for (let start = 0, step = 0; start < FINDINGS; start += STEP, step++) {
      const slice = Array.from({ length: Math.min(STEP, FINDINGS - start) }, (_, n) => observed(start + n))
      const plan = planScanPublication({ scan, observed: slice, current: new Map(), policy: DEFAULT_SLA_POLICY, now: T0, by: 'a' })
      all.push(...plan.writes.map((w) => w.after))
      const delta = statsDelta(plan.writes.map((w) => ({ before: w.before, after: w.after })))
      pending.push({
        id: `e${step}`,
        ...delta,
        scan: { id: 'big', step, counts: plan.counts, done: slice.length, newSevere: 0, phase: 'seen', cursor: null, page: 0 },
      })
      entries++
      clock += STEP_MS
      if (pacer.due()) await fold()
    }
    await fold()

    expect(entries).toBe(Math.ceil(FINDINGS / STEP))
    const runSeconds = clock / 1000
    for (const [path, times] of writes) {
      for (let n = 1; n < times.length; n++) expect(times[n]! - times[n - 1]!, path).toBeGreaterThanOrEqual(AGGREGATE_WRITE_INTERVAL_MS)
      expect(times.length, path).toBeLessThanOrEqual(Math.ceil(runSeconds))
    }
    // Without the ledger every step would have written the figures: 834 writes in about 36 s.
    expect(writes.get('service_stats/network')!.length).toBeLessThan(entries / 10)
    expect(readServiceStats(nested(stats))).toEqual(sumContributions(all.map((f) => findingContribution(f))))
    expect(month.opened).toEqual(Object.fromEntries(SEVERITIES.map((s) => [s, FINDINGS / SEVERITIES.length])))
    expect(scanCounts).toEqual({ new: FINDINGS, total: FINDINGS })
  })

  it('paces writes by the clock, waiting out early timers', async () => {
    let clock = 0
    let early = true
    const pacer = aggregatePacer(
      () => clock,
      async (ms) => {
        // The first timer fires a few milliseconds early.
        clock += early ? ms - 5 : ms
        early = false
      },
    )
    expect(pacer.due()).toBe(true)
    pacer.wrote()
    expect(pacer.due()).toBe(false)
    await pacer.wait()
    expect(clock).toBeGreaterThanOrEqual(AGGREGATE_WRITE_INTERVAL_MS)
    expect(pacer.due()).toBe(true)
  })
})
