import { describe, expect, it } from 'vitest'
import { readServiceMonth } from '#domain/service-stats.ts'
import { monthFigures, monthsToFollow, recentMonths } from './report-data'

describe('monthFigures', () => {
  it("keeps each severity's count, mean and median days, not the days themselves", () => {
    const month = readServiceMonth('2026-10', {
      opened: { high: 4 },
      fixed: { high: 3, low: 1 },
      remediationDays: { high: [10, 2, 30], low: [5] },
    })
    const figures = monthFigures(month)
    expect(figures).not.toHaveProperty('remediationDays')
    expect(figures).not.toHaveProperty('remediationTenths')
    expect(figures.month).toBe('2026-10')
    expect(figures.fixed).toEqual(month.fixed)
    expect(figures.remediation.high).toEqual({ count: 3, meanDays: 14, medianDays: 10 })
    expect(figures.remediation.low).toEqual({ count: 1, meanDays: 5, medianDays: 5 })
    expect(figures.remediation.critical).toEqual({ count: 0, meanDays: null, medianDays: null })
  })
})

describe('monthsToFollow', () => {
  const months = recentMonths(Date.UTC(2026, 11, 2), 12)
  const figures = (month: string) => monthFigures(readServiceMonth(month, {}))

  it('follows only the months that can still change when the first paint has the others', () => {
    expect(monthsToFollow(months, months.map(figures))).toEqual(['2026-11', '2026-12'])
  })

  it('follows every month without a first paint, and any month the first paint lacks (one from before a month began)', () => {
    expect(monthsToFollow(months, undefined)).toEqual(months)
    const lastMonths = recentMonths(Date.UTC(2026, 10, 30), 12).map(figures)
    expect(lastMonths[0]!.month).toBe('2025-12')
    expect(monthsToFollow(months, lastMonths)).toEqual(['2026-11', '2026-12'])
    expect(monthsToFollow(months, lastMonths.slice(2))).toEqual(['2026-01', '2026-11', '2026-12'])
  })
})
