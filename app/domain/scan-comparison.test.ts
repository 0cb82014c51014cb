import { describe, expect, it } from 'vitest'
import { comparable, compareScans, reopenCandidates } from './scan-comparison.ts'
import { scanFromDocument, type Scan, type ScanMembers } from './scans.ts'

const DAY = 86_400_000

function scan(id: string, startedAt: number, over: Partial<Scan> = {}): Scan {
  const parsed = scanFromDocument(id, {
    service: 'network',
    state: 'published',
    title: id,
    scopeKey: 'external',
    startedAt,
    counts: { bySeverity: {} },
    stats: { service: 'network' },
    updatedAt: startedAt,
    updatedBy: 'test',
  })
  if (!parsed) throw new Error('bad scan')
  return { ...parsed, ...over }
}

const members = (m: Partial<ScanMembers>): ScanMembers => ({ findings: [], assets: [], ...m })

describe('compareScans', () => {
  const base = {
    scan: scan('s1', 10 * DAY),
    members: members({
      findings: [
        { id: 'a', severity: 'high' },
        { id: 'b', severity: 'medium' },
        { id: 'c', severity: 'low' },
      ],
      assets: [
        { id: 'h1', label: '10.0.0.1', ports: [22, 443] },
        { id: 'h2', label: '10.0.0.2', ports: [80] },
      ],
    }),
  }
  const target = {
    scan: scan('s2', 40 * DAY),
    members: members({
      findings: [
        { id: 'a', severity: 'critical' },
        { id: 'b', severity: 'medium' },
        { id: 'd', severity: 'high' },
        { id: 'e', severity: 'info' },
      ],
      assets: [
        { id: 'h1', label: '10.0.0.1', ports: [443, 3389] },
        { id: 'h3', label: '10.0.0.3', ports: [8080] },
      ],
    }),
  }

  it('sorts findings into new, persisting, not detected and reopened', () => {
    const result = compareScans(
      base,
      target,
      new Map([
        ['e', 2 * DAY],
        ['d', 35 * DAY],
      ]),
    )
    expect(result.new).toEqual([{ id: 'd', severity: 'high' }])
    expect(result.reopened).toEqual([{ id: 'e', severity: 'info' }])
    expect(result.persisting).toEqual([
      { id: 'a', severity: 'critical' },
      { id: 'b', severity: 'medium' },
    ])
    expect(result.notDetected).toEqual([{ id: 'c', severity: 'low' }])
    expect(result.severityChanged).toEqual([{ id: 'a', from: 'high', to: 'critical' }])
    expect(result.baseScanId).toBe('s1')
    expect(result.targetScanId).toBe('s2')
  })

  it('counts nothing as reopened without first-seen times', () => {
    const result = compareScans(base, target)
    expect(result.reopened).toEqual([])
    expect(result.new.map((f) => f.id)).toEqual(['d', 'e'])
  })

  it('tells a finding back after an absence from a new one by the first-seen times of the candidates only', () => {
    // e was fixed before the base ran and is seen again; d first appeared between the two scans.
    const candidates = reopenCandidates(base.members, target.members)
    expect(candidates).toEqual(['d', 'e'])
    const stored = new Map([
      ['a', 1 * DAY],
      ['b', 1 * DAY],
      ['c', 1 * DAY],
      ['d', 25 * DAY],
      ['e', 2 * DAY],
    ])
    const read = new Map(candidates.map((id) => [id, stored.get(id)!]))
    const result = compareScans(base, target, read)
    expect(result.reopened).toEqual([{ id: 'e', severity: 'info' }])
    expect(result.new).toEqual([{ id: 'd', severity: 'high' }])
    // The same answer as with every finding's time: nothing outside the candidates decides.
    expect(compareScans(base, target, stored)).toEqual(result)
    // First seen the moment the base started is not before it: new, not reopened.
    expect(compareScans(base, target, new Map([['e', 10 * DAY]])).reopened).toEqual([])
    expect(reopenCandidates(target.members, target.members)).toEqual([])
  })

  it('lists assets and ports that came and went', () => {
    const result = compareScans(base, target)
    expect(result.assetsNew).toEqual([{ id: 'h3', label: '10.0.0.3' }])
    expect(result.assetsGone).toEqual([{ id: 'h2', label: '10.0.0.2' }])
    expect(result.portsOpened).toEqual([
      { assetId: 'h1', label: '10.0.0.1', port: 3389 },
      { assetId: 'h3', label: '10.0.0.3', port: 8080 },
    ])
    expect(result.portsClosed).toEqual([
      { assetId: 'h1', label: '10.0.0.1', port: 22 },
      { assetId: 'h2', label: '10.0.0.2', port: 80 },
    ])
  })

  it('finds no change between a scan and itself', () => {
    const result = compareScans(base, base)
    expect(result.new).toEqual([])
    expect(result.notDetected).toEqual([])
    expect(result.portsOpened).toEqual([])
    expect(result.persisting).toHaveLength(3)
  })
})

describe('comparable', () => {
  it('needs the same service and scope', () => {
    const a = scan('a', 0)
    expect(comparable(a, scan('b', 1))).toBe(true)
    expect(comparable(a, scan('c', 1, { scopeKey: 'internal' }))).toBe(false)
    expect(comparable(a, scan('d', 1, { service: 'dast' }))).toBe(false)
  })
})
