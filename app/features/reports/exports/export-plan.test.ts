import { describe, expect, it } from 'vitest'
import { OPEN_STATUSES } from '#domain/findings.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { exportFinding, exportFindings } from '../../../../tests/unit/export-fixtures.ts'
import { exportPlan } from './export-plan'

describe('exportPlan', () => {
  it('reads most severe first by default: one query per severity, over the open statuses', () => {
    const plan = exportPlan({})
    expect(plan.segments).toEqual(SEVERITIES.map((severity) => ({ statuses: OPEN_STATUSES, severity })))
    expect(plan.order).toBe('Most severe first, then most recently seen')
    expect(plan.orderNote).toBeNull()
    expect(plan.exactCount).toBe(true)
  })

  it('asks only for the chosen severities and statuses, least severe first when the table says so', () => {
    const plan = exportPlan({ severity: ['high', 'critical'], status: ['fixed'], sort: '-severity' })
    expect(plan.segments).toEqual([
      { statuses: ['fixed'], severity: 'high' },
      { statuses: ['fixed'], severity: 'critical' },
    ])
    expect(plan.exactCount).toBe(true)
  })

  it('keeps the order by status and the most recently seen first, naming one severity in each query', () => {
    expect(exportPlan({ sort: 'status', status: ['fixed', 'open'], severity: ['low'] }).segments).toEqual([
      { statuses: ['open'], severity: 'low' },
      { statuses: ['fixed'], severity: 'low' },
    ])
    const recent = exportPlan({ sort: '-lastSeen', severity: ['low', 'high'] })
    expect(recent.segments).toEqual([{ statuses: OPEN_STATUSES }])
    expect(recent.order).toBe('Most recently seen first')
    // Two severities outside the severity order: the browser keeps those of them.
    expect(recent.exactCount).toBe(false)
    const findings = exportFindings('network', 10)
    expect(findings.filter((f) => recent.keep(f)).map((f) => f.severity)).toEqual(['high', 'low', 'high', 'low'])
  })

  it('says when the table’s order cannot be kept, and exports most severe first', () => {
    const plan = exportPlan({ sort: 'title' })
    expect(plan.order).toBe('Most severe first, then most recently seen')
    expect(plan.orderNote).toBe('Ordering by title cannot be kept while the export reads page by page: it comes most severe first.')
    expect(plan.segments).toHaveLength(5)
  })

  it('leaves the text, asset and tag filters to the browser, as the table applies them', () => {
    const plan = exportPlan({ q: ' TLS ', tag: ['pci'], asset: ['10.0.0.1:444'] })
    expect(plan.exactCount).toBe(false)
    const kept = exportFinding('network', 1, { tags: ['pci'] })
    expect(plan.keep(kept)).toBe(true)
    expect(plan.keep({ ...kept, tags: [] })).toBe(false)
    expect(plan.keep({ ...kept, title: 'SQL injection' })).toBe(false)
  })
})
