import { describe, expect, it } from 'vitest'
import { readServiceMonth } from '#domain/service-stats.ts'
import { monthFigures } from './report-data'

describe('monthFigures', () => {
  it("keeps each severity's count, mean and median days, not the days themselves", () => {
    const month = readServiceMonth('2026-10', {
      opened: { high: 4 },
      fixed: { high: 3, low: 1 },
      remediationDays: { high: [10, 2, 30], low: [5] },
    })
    const figures = monthFigures(month)
    expect(figures).not.toHaveProperty('remediationDays')
    expect(figures.month).toBe('2026-10')
    expect(figures.fixed).toEqual(month.fixed)
    expect(figures.remediation.high).toEqual({ count: 3, meanDays: 14, medianDays: 10 })
    expect(figures.remediation.low).toEqual({ count: 1, meanDays: 5, medianDays: 5 })
    expect(figures.remediation.critical).toEqual({ count: 0, meanDays: null, medianDays: null })
  })
})
