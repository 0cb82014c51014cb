// The CSV, JSON and SARIF writers, fed a page at a time, write what the whole-list writers wrote
// before they were streamed: the golden files in __golden__ are the earlier writers' output for
// the same findings (tests/unit/export-golden.ts), whatever the page sizes.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { goldenFindings, goldenHistory, GOLDEN_AT } from '../../tests/unit/export-golden.ts'
import { findingsCsv, findingsCsvEncoder } from './report-csv.ts'
import type { FindingsEncoder } from './report-export.ts'
import { findingsJson, findingsJsonEncoder, parseFindingsExport } from './report-json.ts'
import { findingsSarifEncoder, findingsSarifText } from './report-sarif.ts'
import type { Finding } from './findings.ts'

const golden = (name: string) => readFileSync(new URL(`./__golden__/${name}`, import.meta.url), 'utf8')

/** The text of an encoder fed the findings in pages of `size` (0: no page at all). */
function streamed(encoder: FindingsEncoder, findings: readonly Finding[], size: number, history = goldenHistory()): string {
  let out = encoder.head()
  for (let i = 0; size > 0 && i < findings.length; i += size) {
    const page = findings.slice(i, i + size)
    out += encoder.page(page, new Map(page.flatMap((f) => (history.has(f.id) ? [[f.id, history.get(f.id)!]] : []))))
  }
  return out + encoder.tail()
}

const company = { slug: 'acme', name: 'Acme Ltd' }
const findings = goldenFindings()
const SIZES = [1, 3, 5, findings.length, 500]

describe('streamed exports equal the whole-list exports', () => {
  it('CSV, byte for byte, in any page size', () => {
    for (const size of SIZES) expect(streamed(findingsCsvEncoder(), findings, size)).toBe(golden('findings.csv'))
    expect(findingsCsv(findings)).toBe(golden('findings.csv'))
    expect(streamed(findingsCsvEncoder(), [], 0)).toBe(golden('empty.csv'))
  })

  it('JSON, byte for byte, each page bringing its histories', () => {
    const meta = { company, service: 'dast' as const, exportedAt: GOLDEN_AT, filters: { severity: ['high'], q: 'sql' } }
    for (const size of SIZES) expect(streamed(findingsJsonEncoder(meta), findings, size)).toBe(golden('findings.json'))
    expect(findingsJson({ ...meta, findings, history: goldenHistory() })).toBe(golden('findings.json'))
    const empty = { company, service: 'dast' as const, exportedAt: GOLDEN_AT, filters: {} }
    expect(streamed(findingsJsonEncoder(empty), [], 0)).toBe(golden('empty.json'))
    expect(streamed(findingsJsonEncoder(empty), [], 3)).toBe(golden('empty.json'))
  })

  it('JSON names its order when it is given one, and still reads back', () => {
    const text = streamed(
      findingsJsonEncoder({ company, service: 'dast', exportedAt: GOLDEN_AT, filters: {}, order: 'Most severe first' }),
      findings,
      4,
    )
    const parsed = parseFindingsExport(text)
    expect(parsed.success).toBe(true)
    expect(parsed.output).toMatchObject({ order: 'Most severe first' })
    expect((parsed.output as { findings: unknown[] }).findings).toHaveLength(findings.length)
  })

  it('SARIF, the same log (its results written before the rules they end up with)', () => {
    const meta = { service: 'dast' as const, company: 'acme', exportedAt: GOLDEN_AT, informationUri: 'https://bulwark.example' }
    const expected = JSON.parse(golden('findings.sarif'))
    for (const size of SIZES) {
      const text = streamed(findingsSarifEncoder(meta), findings, size)
      expect(JSON.parse(text)).toEqual(expected)
      expect(text).toBe(findingsSarifText({ ...meta, findings }))
    }
    const empty = { service: 'dast' as const, company: 'acme', exportedAt: GOLDEN_AT }
    expect(JSON.parse(streamed(findingsSarifEncoder(empty), [], 0))).toEqual(JSON.parse(golden('empty.sarif')))
  })
})
