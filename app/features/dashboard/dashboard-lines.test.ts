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
  it('sums each kind of change per service, the latest first, each a link to the place it names', () => {
    const lines = activityLines([
      item('b', { type: 'findings_new', count: 2, at: 300, scanId: 'dast-2' }),
      item('c', { type: 'findings_fixed', service: 'network', count: 1, at: 200 }),
      item('a', { type: 'findings_new', count: 3, at: 100, scanId: 'dast-1' }),
      item('d', { type: 'scan_published', at: 50, scanId: 'dast-1', summary: 'Monthly web scan, March 2026 published: 3 new' }),
    ])
    expect(lines.map((l) => [l.text, l.href, l.at])).toEqual([
      ['5 new findings in DAST', '/reports/dast?scan=dast-2', 300],
      ['1 finding fixed in Network', '/reports/network?status=fixed', 200],
      ['DAST: Monthly web scan, March 2026 published: 3 new', '/reports/dast?scan=dast-1', 50],
    ])
    expect(lines.map((l) => l.where)).toEqual([
      'Opens the DAST report at the latest scan',
      'Opens the Network findings: fixed',
      'Opens the DAST report at this scan',
    ])
  })

  it('gives each published scan its own line, linked to that scan, however many findings it holds', () => {
    const lines = activityLines([
      item('a', { type: 'scan_published', count: 8, at: 300, scanId: 'dast-13', summary: 'Scan 13 published' }),
      item('b', { type: 'scan_published', count: 5, at: 200, scanId: 'dast-12', summary: 'Scan 12 published' }),
    ])
    expect(lines.map((l) => [l.text, l.href])).toEqual([
      ['DAST: Scan 13 published', '/reports/dast?scan=dast-13'],
      ['DAST: Scan 12 published', '/reports/dast?scan=dast-12'],
    ])
  })

  it('counts a retest once, not by the findings it holds', () => {
    const lines = activityLines([
      item('b', { type: 'retest_requested', service: 'network', count: 12, at: 200 }),
      item('c', { type: 'retest_completed', service: 'network', count: 12, at: 250 }),
      item('d', { type: 'retest_completed', service: 'network', count: 3, at: 260 }),
    ])
    expect(lines.map((l) => l.text)).toEqual(['2 retests completed in Network', '1 retest requested in Network'])
  })

  it('opens the finding a change names, the scan the findings came from, or the findings the change left in a status', () => {
    const lines = activityLines([
      item('a', { type: 'acceptance_requested', count: 1, at: 500, findingId: 'f-1' }),
      item('b', { type: 'findings_new', count: 4, at: 400, scanId: 'dast-7' }),
      item('c', { type: 'retest_requested', count: 6, at: 300, service: 'network' }),
      item('d', { type: 'sla_breached', count: 2, at: 200, service: 'network' }),
      item('e', { type: 'retest_completed', count: 6, at: 100, service: 'network' }),
    ])
    expect(lines.map((l) => [l.text, l.href, l.where])).toEqual([
      ['1 risk acceptance requested in DAST', '/reports/dast/f-1', 'Opens the finding'],
      ['4 new findings in DAST', '/reports/dast?scan=dast-7', 'Opens the DAST report at the scan they came from'],
      ['1 retest requested in Network', '/reports/network?status=retest_requested', 'Opens the Network findings: retest requested'],
      ['2 SLAs breached in Network', '/reports/network?sort=sla', 'Opens the Network findings, the nearest their due date first'],
      ['1 retest completed in Network', '/reports/network', 'Opens the Network report'],
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
      ['1 finding past its SLA, 1 finding due soon in Network', '/reports/network?sort=sla', 'danger'],
      ['3 findings due soon in DAST', '/reports/dast?sort=sla', 'warning'],
    ])
  })
})
