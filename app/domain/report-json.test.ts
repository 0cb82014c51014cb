import { describe, expect, it } from 'vitest'
import { exportFinding, exportFindings, exportHistory, T0 } from '../../tests/unit/export-fixtures.ts'
import { FINDINGS_EXPORT_SCHEMA, findingsJson, parseFindingsExport } from './report-json.ts'

const company = { slug: 'acme', name: 'Acme Ltd' }

describe('findingsJson', () => {
  it('writes a versioned document that parses back with its own schema', () => {
    const findings = exportFindings('dast', 12)
    const history = new Map(findings.map((f) => [f.id, exportHistory(f).reverse()]))
    const text = findingsJson({
      company,
      service: 'dast',
      exportedAt: T0,
      filters: { severity: ['critical', 'high'], q: 'sql' },
      findings,
      history,
    })
    const parsed = parseFindingsExport(text)
    expect(parsed.success).toBe(true)
    if (!parsed.success) return
    const doc = parsed.output
    expect(doc.schema).toBe(FINDINGS_EXPORT_SCHEMA)
    expect(doc.version).toBe(1)
    expect(doc.company).toEqual(company)
    expect(doc.service).toEqual({ id: 'dast', label: 'DAST' })
    expect(doc.exportedAt).toBe('2026-01-05T00:00:00.000Z')
    expect(doc.filters).toEqual({ severity: ['critical', 'high'], q: 'sql' })
    expect(doc.findings.map((f) => f.id)).toEqual(findings.map((f) => f.id))
    const first = doc.findings[0]!
    expect(first.cvss?.score).toBe(9.8)
    expect(first.location).toEqual({ url: 'https://app.acme.example/api/items/0?q=1', method: 'GET', parameter: 'q' })
    expect(first.sla.dueAt).toBe('2026-02-04T00:00:00.000Z')
    // History comes oldest first whatever order it was read in, with who, when, from, to and why.
    expect(first.history.map((h) => [h.action, h.from, h.to, h.by, h.note])).toEqual([
      ['published', 'open', 'open', 'Bulwark', null],
      ['start_remediation', 'open', 'in_remediation', 'Mia Manager', 'On it'],
    ])
  })

  it('exports an empty history for findings whose history was not given', () => {
    const parsed = parseFindingsExport(
      findingsJson({ company, service: 'network', exportedAt: T0, filters: {}, findings: exportFindings('network', 2) }),
    )
    expect(parsed.success && parsed.output.findings.every((f) => f.history.length === 0)).toBe(true)
  })

  it('is refused by the schema when it is not an export of this version', () => {
    const text = findingsJson({ company, service: 'network', exportedAt: T0, filters: {}, findings: exportFindings('network', 1) })
    const doc = JSON.parse(text)
    expect(parseFindingsExport(JSON.stringify({ ...doc, version: 2 })).success).toBe(false)
    expect(parseFindingsExport(JSON.stringify({ ...doc, findings: [{ ...doc.findings[0], severity: 'urgent' }] })).success).toBe(false)
  })

  it('never carries a password audit finding’s evidence', () => {
    const finding = exportFinding('password_cracking', 3, { evidence: 'Cracked: Summer2024!' })
    const text = findingsJson({ company, service: 'password_cracking', exportedAt: T0, filters: {}, findings: [finding] })
    expect(text).not.toContain('Summer2024!')
    expect(text).toContain('u*****3')
  })
})
