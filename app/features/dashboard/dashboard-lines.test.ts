import { describe, expect, it } from 'vitest'
import type { CompanyActivity } from '#domain/company-activity.ts'
import { readServiceStats } from '#domain/service-stats.ts'
import { activityLines, slaLines } from './dashboard-lines'

const item = (id: string, over: Partial<CompanyActivity>): CompanyActivity => ({
  id,
  type: 'scan_published',
  service: 'dast',
  summary: '',
  count: 1,
  scanId: null,
  findingId: null,
  retestId: null,
  at: 1000,
  byName: '',
  ...over,
})

describe('activityLines', () => {
  it('sums each kind of change per service, the latest first, each a link to its report', () => {
    const lines = activityLines([
      item('a', { type: 'findings_new', count: 3, at: 100 }),
      item('b', { type: 'findings_new', count: 2, at: 300 }),
      item('c', { type: 'findings_fixed', service: 'network', count: 1, at: 200 }),
      item('d', { type: 'scan_published', at: 50 }),
    ])
    expect(lines.map((l) => [l.text, l.href, l.at])).toEqual([
      ['5 new findings in DAST', '/reports/dast', 300],
      ['1 finding fixed in Network', '/reports/network', 200],
      ['1 scan published in DAST', '/reports/dast', 50],
    ])
  })

  it('counts a published scan or a retest once, not by the findings it holds', () => {
    const lines = activityLines([
      item('a', { type: 'scan_published', count: 8, at: 300 }),
      item('b', { type: 'retest_requested', service: 'network', count: 12, at: 200 }),
      item('c', { type: 'retest_completed', service: 'network', count: 12, at: 250 }),
      item('d', { type: 'retest_completed', service: 'network', count: 3, at: 260 }),
    ])
    expect(lines.map((l) => l.text)).toEqual([
      '1 scan published in DAST',
      '2 retests completed in Network',
      '1 retest requested in Network',
    ])
  })

  it('says nothing when nothing happened', () => {
    expect(activityLines([])).toEqual([])
  })
})

describe('slaLines', () => {
  it('names the services with SLAs due soon or breached, in the given order', () => {
    const lines = slaLines(
      {
        dast: readServiceStats({ dueSoon: { high: 2, low: 1 } }),
        network: readServiceStats({ breached: { critical: 1 }, dueSoon: { medium: 1 } }),
        cloud: readServiceStats({}),
      },
      ['network', 'dast', 'cloud'],
    )
    expect(lines.map((l) => [l.text, l.href, l.tone])).toEqual([
      ['1 finding past its SLA, 1 finding due soon in Network', '/reports/network', 'danger'],
      ['3 findings due soon in DAST', '/reports/dast', 'warning'],
    ])
  })
})
