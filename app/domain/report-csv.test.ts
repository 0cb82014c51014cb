import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { exportFinding, exportFindings } from '../../tests/unit/export-fixtures.ts'
import { CSV_COLUMNS, csvField, findingsCsv } from './report-csv.ts'

const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data

describe('findingsCsv', () => {
  it('writes a header row and one row per finding, with the columns people need', () => {
    const findings = exportFindings('network', 7)
    const rows = parse(findingsCsv(findings))
    expect(rows[0]).toEqual([
      'ID',
      'Title',
      'Severity',
      'CVSS score',
      'CVSS vector',
      'Status',
      'SLA',
      'Due',
      'Asset',
      'First seen',
      'Last seen',
      'Tags',
      'Template',
    ])
    expect(rows).toHaveLength(8)
    const first = rows[1]!
    expect(first).toEqual([
      'f00000',
      'Finding 0: SQL injection',
      'Critical',
      '9.8',
      'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      'Open',
      'Breached',
      '2026-02-04',
      '10.0.0.0:443',
      '2026-01-05',
      '2026-02-14',
      'external; group-0',
      'template-0',
    ])
    expect(rows[5]![3]).toBe('') // informational: no CVSS
  })

  it('ends every line with CRLF', () => {
    const csv = findingsCsv(exportFindings('dast', 2))
    expect(csv.endsWith('\r\n')).toBe(true)
    expect(csv.split('\r\n')).toHaveLength(4)
  })

  it('quotes commas, quotes and line breaks the RFC 4180 way, and reads back the same', () => {
    const title = 'Comma, "quoted" and\r\na line break'
    const csv = findingsCsv([exportFinding('dast', 1, { title })])
    expect(csv).toContain('"Comma, ""quoted"" and\r\na line break"')
    expect(parse(csv)[1]![1]).toBe(title)
  })

  it('keeps spreadsheet formulas from running', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const field = csvField(`${start}HYPERLINK("http://evil.example","x")`)
      const read = parse(`${field}\r\n`)[0]![0]!
      expect(read.startsWith(`'${start}`)).toBe(true)
    }
    const csv = findingsCsv([exportFinding('network', 1, { title: '=1+1', tags: ['@SUM(A1)'], asset: '-2+3' })])
    const row = parse(csv)[1]!
    expect(row[1]).toBe("'=1+1")
    expect(row[8]).toBe("'-2+3")
    expect(row[11]).toBe("'@SUM(A1)")
    expect(csvField('a=1')).toBe('a=1')
  })

  it('has as many columns in every row as in the header', () => {
    const rows = parse(findingsCsv(exportFindings('cloud', 20)))
    for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length)
  })
})
