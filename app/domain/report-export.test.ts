import { describe, expect, it } from 'vitest'
import { exportFinding, T0 } from '../../tests/unit/export-fixtures.ts'
import { findingsCsv } from './report-csv.ts'
import { describeFilters, exportFileName, exportFormatsFor, isFiltered } from './report-export.ts'
import { findingsJson } from './report-json.ts'
import { findingsSarifText } from './report-sarif.ts'

describe('exportFormatsFor', () => {
  it('offers SARIF for DAST and network only, and only the PDF without results', () => {
    expect(exportFormatsFor('dast', true)).toEqual(['pdf', 'csv', 'json', 'sarif'])
    expect(exportFormatsFor('network', true)).toEqual(['pdf', 'csv', 'json', 'sarif'])
    expect(exportFormatsFor('cloud', true)).toEqual(['pdf', 'csv', 'json'])
    expect(exportFormatsFor('password_cracking', true)).toEqual(['pdf', 'csv', 'json'])
    expect(exportFormatsFor('dast', false)).toEqual(['pdf'])
  })
})

describe('exportFileName', () => {
  it('is company-service-date.ext with nothing a file system could trip on', () => {
    expect(exportFileName('Acme Ltd', 'dast', T0, 'pdf')).toBe('acme-ltd-dast-2026-01-05.pdf')
    expect(exportFileName('../../Ünïcorn & Co./', 'password_cracking', T0, 'csv')).toBe('unicorn-co-password-cracking-2026-01-05.csv')
    expect(exportFileName('***', 'network', T0, 'sarif')).toBe('export-network-2026-01-05.sarif')
  })
})

describe('filters', () => {
  it('counts only filters that narrow', () => {
    expect(isFiltered({})).toBe(false)
    expect(isFiltered({ severity: [], q: '  ', asset: null })).toBe(false)
    expect(isFiltered({ severity: ['high'] })).toBe(true)
    expect(isFiltered({ q: 'sql' })).toBe(true)
    expect(describeFilters({ severity: ['critical', 'high'], q: 'sql', tag: [] })).toBe('severity: critical, high; q: sql')
  })
})

describe('password audit exports', () => {
  it('never contain a password, only the masked account, its tags and figures', () => {
    const password = 'Winter2025!Acme'
    const finding = exportFinding('password_cracking', 4, {
      title: 'Cracked privileged account',
      asset: 'ACME\\a*****in',
      location: { account: 'ACME\\a*****in' },
      tags: ['season_year', 'length:15', 'classes:4'],
      evidence: `Cracked in 3 minutes: ${password}`,
    })
    const outputs = [
      findingsCsv([finding]),
      findingsJson({
        company: { slug: 'acme', name: 'Acme' },
        service: 'password_cracking',
        exportedAt: T0,
        filters: {},
        findings: [finding],
      }),
      findingsSarifText({ service: 'password_cracking', company: 'acme', exportedAt: T0, findings: [finding] }),
    ]
    for (const output of outputs) {
      expect(output).not.toContain(password)
      expect(output).toContain('a*****in')
    }
    // Other services keep their evidence: it is what proves a web or network finding.
    const dast = exportFinding('dast', 1, { evidence: 'HTTP/1.1 500 SQL syntax error' })
    expect(findingsJson({ company: { slug: 'a', name: 'A' }, service: 'dast', exportedAt: T0, filters: {}, findings: [dast] })).toContain(
      'SQL syntax error',
    )
  })
})
