import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { compareScans } from './scan-comparison.ts'
import {
  COMPARISON_CSV_HEADERS,
  COMPARISON_EXPORT_SCHEMA,
  comparisonCsv,
  comparisonFileName,
  comparisonJson,
  comparisonRows,
  parseComparisonExport,
} from './scan-comparison-export.ts'
import { scanFromDocument, type Scan } from './scans.ts'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 5)

function scan(id: string, startedAt: number): Scan {
  const parsed = scanFromDocument(id, {
    service: 'network',
    state: 'published',
    title: `Scan ${id}`,
    scopeKey: 'external',
    startedAt,
    publishedAt: startedAt + DAY,
    counts: { bySeverity: {} },
    stats: { service: 'network' },
    updatedAt: startedAt,
    updatedBy: 'test',
  })
  if (!parsed) throw new Error('bad scan')
  return parsed
}

const base = {
  scan: scan('s1', T0),
  members: {
    findings: [
      { id: 'a', severity: 'high' as const },
      { id: 'c', severity: 'low' as const },
    ],
    assets: [{ id: 'h1', label: '10.0.0.1', ports: [22] }],
  },
}
const target = {
  scan: scan('s2', T0 + 30 * DAY),
  members: {
    findings: [
      { id: 'a', severity: 'critical' as const },
      { id: 'd', severity: 'medium' as const },
      { id: 'e', severity: 'high' as const },
    ],
    assets: [
      { id: 'h1', label: '10.0.0.1', ports: [443] },
      { id: 'h2', label: '=10.0.0.2', ports: [] },
    ],
  },
}
const comparison = compareScans(base, target, new Map([['e', T0 - 10 * DAY]]))
const details = new Map([['e', { title: 'Outdated TLS, again', asset: '10.0.0.1:443' }]])

describe('comparisonRows', () => {
  it('lists every change once, findings first, with what is known of each finding', () => {
    const rows = comparisonRows(comparison, details)
    expect(rows.map((r) => [r.change, r.id, r.port])).toEqual([
      ['new', 'd', null],
      ['reopened', 'e', null],
      ['persisting', 'a', null],
      ['not_detected', 'c', null],
      ['severity_changed', 'a', null],
      ['asset_new', 'h2', null],
      ['port_opened', 'h1', 443],
      ['port_closed', 'h1', 22],
    ])
    expect(rows[1]).toMatchObject({ label: 'Outdated TLS, again', asset: '10.0.0.1:443', severity: 'high' })
    expect(rows[4]).toMatchObject({ severity: 'critical', previousSeverity: 'high' })
  })
})

describe('comparisonCsv', () => {
  it('writes a header and one quoted, formula-safe row per change', () => {
    const text = comparisonCsv(comparisonRows(comparison, details))
    expect(text.endsWith('\r\n')).toBe(true)
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data
    expect(rows[0]).toEqual([...COMPARISON_CSV_HEADERS])
    expect(rows).toHaveLength(9)
    expect(rows[2]).toEqual(['Reopened', 'e', 'Outdated TLS, again', '10.0.0.1:443', 'High', '', ''])
    expect(rows[5]).toEqual(['Severity changed', 'a', '', '', 'Critical', 'High', ''])
    // An asset label a spreadsheet would run as a formula is defused.
    expect(rows[6]).toEqual(['Asset new', 'h2', "'=10.0.0.2", "'=10.0.0.2", '', '', ''])
    expect(rows[7]?.[6]).toBe('443')
  })
})

describe('comparisonJson', () => {
  it('writes a versioned document that parses back, with the scans and the counts', () => {
    const rows = comparisonRows(comparison, details)
    const parsed = parseComparisonExport(
      comparisonJson({
        company: { slug: 'acme', name: 'Acme Ltd' },
        service: 'network',
        exportedAt: T0,
        base: base.scan,
        target: target.scan,
        rows,
      }),
    )
    expect(parsed.success, JSON.stringify(parsed.issues?.slice(0, 2))).toBe(true)
    if (!parsed.success) return
    const doc = parsed.output
    expect(doc).toMatchObject({ schema: COMPARISON_EXPORT_SCHEMA, version: 1, service: { id: 'network', label: 'Network' } })
    expect(doc.base).toEqual({
      id: 's1',
      title: 'Scan s1',
      scopeKey: 'external',
      startedAt: '2026-01-05T00:00:00.000Z',
      publishedAt: '2026-01-06T00:00:00.000Z',
    })
    expect(doc.counts).toEqual({
      new: 1,
      reopened: 1,
      persisting: 1,
      not_detected: 1,
      severity_changed: 1,
      asset_new: 1,
      asset_gone: 0,
      port_opened: 1,
      port_closed: 1,
    })
    expect(doc.changes).toEqual(rows)
  })

  it('refuses a document of another schema', () => {
    expect(parseComparisonExport(JSON.stringify({ schema: 'bulwark.findings', version: 1 })).success).toBe(false)
  })
})

describe('comparisonFileName', () => {
  it('names the company, the service and the comparison', () => {
    expect(comparisonFileName('Acme Ltd', 'password_cracking', T0, 'csv')).toBe('acme-ltd-password-cracking-comparison-2026-01-05.csv')
  })
})
