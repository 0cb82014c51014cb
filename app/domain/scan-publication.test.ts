import { describe, expect, it } from 'vitest'
import { findingFromDocument, FINDING_STATUSES, type StoredFinding } from './findings.ts'
import { chunkMembers, planScanPublication, type ObservedFinding, type PublishedScan } from './scan-publication.ts'
import { SCAN_MEMBERS_PER_DOCUMENT } from './scans.ts'
import { DAY_MS, DEFAULT_SLA_POLICY } from './sla.ts'

const T0 = Date.UTC(2026, 0, 5)
const scan1: PublishedScan = { id: 'scan-1', service: 'network', startedAt: T0 }
const scan2: PublishedScan = { id: 'scan-2', service: 'network', startedAt: T0 + 30 * DAY_MS }

const observed = (fingerprint: string, over: Partial<ObservedFinding> = {}): ObservedFinding => ({
  fingerprint,
  title: `Finding ${fingerprint}`,
  severity: 'high',
  asset: `10.0.0.1:${fingerprint.length}`,
  evidence: `seen ${fingerprint}`,
  ...over,
})

function publishFirst(fingerprints: string[]) {
  const result = planScanPublication({
    scan: scan1,
    observed: fingerprints.map((f) => observed(f)),
    current: new Map(),
    policy: DEFAULT_SLA_POLICY,
    now: T0 + DAY_MS,
    by: 'analyst@sectest.example',
  })
  return new Map(result.writes.map((w) => [w.id, w.after]))
}

describe('planScanPublication', () => {
  it('opens new findings with their SLA clock started at publication', () => {
    const now = T0 + DAY_MS
    const result = planScanPublication({
      scan: scan1,
      observed: [
        observed('a', { severity: 'critical', templateSlug: 'rdp-exposed-to-internet' }),
        observed('b', { severity: 'info' }),
        observed('a'),
      ],
      current: new Map(),
      policy: DEFAULT_SLA_POLICY,
      now,
      by: 'analyst@sectest.example',
    })
    expect(result.writes.map((w) => w.id)).toEqual(['a', 'b'])
    const a = result.writes[0]!.after
    expect(findingFromDocument('a', a)).not.toBeNull()
    expect(a).toMatchObject({ status: 'open', publishedAt: now, firstSeenScanId: 'scan-1', firstSeenAt: T0, seenCount: 1, slaState: 'ok' })
    expect(a.templateSlug).toBe('rdp-exposed-to-internet')
    expect(a.sla).toEqual({ startedAt: now, dueAt: now + 7 * DAY_MS, pausedAt: null })
    expect(result.writes[1]!.after).toMatchObject({ sla: { dueAt: null }, slaState: 'none' })
    expect('templateSlug' in result.writes[1]!.after).toBe(false)
    expect(result.writes[0]!.changes).toMatchObject([{ action: 'first_seen', to: 'open', scanId: 'scan-1' }])
    expect(result.counts).toEqual({
      bySeverity: { critical: 1, high: 0, medium: 0, low: 0, info: 1 },
      total: 2,
      new: 2,
      persisting: 0,
      notDetected: 0,
      reopened: 0,
    })
    expect(result.members).toEqual([
      {
        findings: [
          { id: 'a', severity: 'critical' },
          { id: 'b', severity: 'info' },
        ],
        assets: [],
      },
    ])
    expect(result.occurrences.map((o) => o.findingId)).toEqual(['a', 'b'])
  })

  it('updates persisting ones, reopens fixed ones, reopens not-detected ones and marks missed ones not detected', () => {
    const first = publishFirst(['keep', 'fixed', 'gone', 'away', 'retest', 'fp'])
    const current = new Map<string, StoredFinding>(first)
    current.set('fixed', { ...first.get('fixed')!, status: 'fixed', fixedAt: T0 + 5 * DAY_MS, closedAt: T0 + 5 * DAY_MS, slaState: 'none' })
    current.set('away', { ...first.get('away')!, status: 'not_detected', closedAt: T0 + 5 * DAY_MS, slaState: 'none' })
    current.set('retest', { ...first.get('retest')!, status: 'retest_requested' })
    current.set('fp', { ...first.get('fp')!, status: 'false_positive' })
    const now = scan2.startedAt + DAY_MS
    const result = planScanPublication({
      scan: scan2,
      observed: [
        observed('keep', { severity: 'critical', evidence: 'new evidence' }),
        observed('fixed'),
        observed('away'),
        observed('fp'),
        observed('new'),
      ],
      current,
      assets: [{ id: 'h1', label: '10.0.0.1', ports: [22, 3389] }],
      policy: DEFAULT_SLA_POLICY,
      now,
      by: 'analyst@sectest.example',
    })
    const after = new Map(result.writes.map((w) => [w.id, w]))
    expect(after.get('keep')!.after).toMatchObject({
      status: 'open',
      seenCount: 2,
      lastSeenScanId: 'scan-2',
      evidence: 'new evidence',
      severity: 'critical',
    })
    expect(after.get('keep')!.changes).toMatchObject([{ action: 'severity_changed', severityFrom: 'high', severityTo: 'critical' }])
    // The SLA window shrinks from 30 to 7 days, from the same start.
    expect(after.get('keep')!.after.sla.dueAt).toBe(T0 + DAY_MS + 7 * DAY_MS)
    expect(after.get('fixed')!.after).toMatchObject({ status: 'reopened', regression: true, closedAt: null, fixedAt: null })
    expect(after.get('away')!.after).toMatchObject({ status: 'open', regression: false })
    expect(after.get('fp')!.after.status).toBe('false_positive')
    expect(after.get('gone')!.after).toMatchObject({ status: 'not_detected', closedAt: now })
    expect(after.get('gone')!.changes).toMatchObject([{ action: 'not_seen', from: 'open', to: 'not_detected', scanId: 'scan-2' }])
    // A finding waiting for its retest stays as it is.
    expect(after.has('retest')).toBe(false)
    expect(after.get('new')!.before).toBeNull()
    expect(result.counts).toEqual({
      bySeverity: { critical: 1, high: 3, medium: 0, low: 0, info: 0 },
      total: 4,
      new: 1,
      persisting: 2,
      notDetected: 2,
      reopened: 2,
    })
    expect(result.members[0]!.assets).toEqual([{ id: 'h1', label: '10.0.0.1', ports: [22, 3389] }])
    for (const write of result.writes) {
      expect(findingFromDocument(write.id, write.after), write.id).not.toBeNull()
      expect(FINDING_STATUSES).toContain(write.after.status)
    }
  })
})

describe('planScanPublication of CVE ids', () => {
  it('keeps the CVE ids a scan named, and the latest scan that names any', () => {
    const plan = (scan: PublishedScan, found: ObservedFinding[], current = new Map<string, StoredFinding>()) =>
      new Map(
        planScanPublication({
          scan,
          observed: found,
          current,
          policy: DEFAULT_SLA_POLICY,
          now: scan.startedAt,
          by: 'a@sectest.example',
        }).writes.map((w) => [w.id, w.after]),
      )
    const first = plan(scan1, [observed('a', { cve: ['cve-2021-44228', 'CVE-2021-44228'] }), observed('b')])
    expect(first.get('a')).toMatchObject({ cve: ['CVE-2021-44228'], hasCves: true, intel: null })
    expect(first.get('b')).toMatchObject({ cve: [], hasCves: false })
    const again = plan(scan2, [observed('a', { cve: ['CVE-2021-45046'] }), observed('b', { cve: [] })], first)
    expect(again.get('a')).toMatchObject({ cve: ['CVE-2021-45046'], hasCves: true })
    expect(again.get('b')).toMatchObject({ cve: [], hasCves: false })
  })
})

describe("planScanPublication of an analyst's text", () => {
  it('gives a finding seen before the text the analyst wrote for this scan, and keeps its text otherwise', () => {
    const first = publishFirst(['a', 'b'])
    const writes = planScanPublication({
      scan: scan2,
      observed: [
        observed('a', {
          title: 'Analyst title',
          description: 'Analyst text.',
          rewritten: { title: 'Analyst title', description: 'Analyst text.' },
        }),
        observed('b', { title: 'Scanner title again', description: 'Scanner text again.' }),
      ],
      current: first,
      policy: DEFAULT_SLA_POLICY,
      now: scan2.startedAt,
      by: 'a@sectest.example',
    }).writes
    const after = new Map(writes.map((w) => [w.id, w.after]))
    expect(after.get('a')).toMatchObject({ title: 'Analyst title', description: 'Analyst text.', seenCount: 2 })
    expect(after.get('b')).toMatchObject({ title: 'Finding b', seenCount: 2 })
  })
})

describe('planScanPublication in a scope', () => {
  it('marks as not detected only the missed findings last seen in its scope, and still matches the others', () => {
    const first = publishFirst(['ours', 'theirs', 'shared'])
    const current = new Map<string, StoredFinding>(first)
    current.set('theirs', { ...first.get('theirs')!, lastSeenScanId: 'other-scope-scan' })
    current.set('shared', { ...first.get('shared')!, lastSeenScanId: 'other-scope-scan' })
    const result = planScanPublication({
      scan: scan2,
      observed: [observed('shared')],
      current,
      inScope: (finding) => finding.lastSeenScanId === 'scan-1',
      policy: DEFAULT_SLA_POLICY,
      now: scan2.startedAt,
      by: 'analyst@sectest.example',
    })
    const after = new Map(result.writes.map((w) => [w.id, w.after]))
    expect(after.get('ours')?.status).toBe('not_detected')
    expect(after.has('theirs')).toBe(false)
    expect(after.get('shared')).toMatchObject({ status: 'open', seenCount: 2 })
    expect(result.counts).toMatchObject({ new: 0, persisting: 1, notDetected: 1 })
  })
})

describe('chunkMembers', () => {
  it('splits long lists over documents', () => {
    const findings = Array.from({ length: SCAN_MEMBERS_PER_DOCUMENT * 2 + 1 }, (_, i) => ({ id: `f${i}`, severity: 'low' as const }))
    const chunks = chunkMembers({ findings, assets: [{ id: 'a', label: 'a', ports: [] }] })
    expect(chunks.map((c) => c.findings.length)).toEqual([SCAN_MEMBERS_PER_DOCUMENT, SCAN_MEMBERS_PER_DOCUMENT, 1])
    expect(chunks.map((c) => c.assets.length)).toEqual([1, 0, 0])
    expect(chunks.flatMap((c) => c.findings)).toEqual(findings)
    expect(chunkMembers({ findings: [], assets: [] })).toEqual([{ findings: [], assets: [] }])
  })
})
