import { createRequire } from 'node:module'
import type { TDocumentDefinitions } from 'pdfmake/interfaces'
import { describe, expect, it } from 'vitest'
import { exportFinding, exportFindings, exportMonths, exportScan, exportStats, T0 } from '../../tests/unit/export-fixtures.ts'
import {
  figureLabel,
  PDF_LIST_ALL_UP_TO,
  PDF_TABLE_ROWS,
  PDF_WORST_IN_FULL,
  remediationBySeverity,
  reportPdfCollector,
  reportPdfDocument,
  reportPdfLayout,
  wrappable,
  type ReportPdfInput,
} from './report-pdf.ts'

const input = (overrides: Partial<ReportPdfInput> = {}): ReportPdfInput => ({
  company: { slug: 'acme', name: 'Acme Ltd' },
  service: 'network',
  exportedAt: T0 + 41 * 86_400_000,
  stats: exportStats(),
  scan: exportScan('network'),
  months: exportMonths(),
  findings: exportFindings('network', 12),
  filters: {},
  formatDate: (at) => `<date ${at}>`,
  ...overrides,
})

/** Every string the layout will print, wherever it sits in the document. */
function strings(doc: TDocumentDefinitions): string[] {
  const out: string[] = []
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.push(node.replace(/\u200b/g, ''))
    else if (Array.isArray(node)) node.forEach(walk)
    else if (node && typeof node === 'object') Object.values(node).forEach(walk)
  }
  walk(doc.content)
  return out
}

describe('reportPdfDocument', () => {
  it("writes every date with the formatter it is given, the product's one format, and no other", () => {
    // A scan title without a month name, so only dates could bring one in.
    const doc = reportPdfDocument(input({ scan: { ...exportScan('network'), title: 'Quarterly scan' } }))
    const all = [
      ...strings(doc),
      JSON.stringify(
        doc.footer && typeof doc.footer === 'function' ? doc.footer(2, 3, { width: 595, height: 842, orientation: 'portrait' }) : '',
      ),
    ]
    const text = all.join('\n')
    expect(text).toContain(`Prepared`)
    expect(text).toContain(`<date ${T0 + 41 * 86_400_000}>`)
    // No date written any other way: month names, day/month/year or ISO dates.
    expect(text).not.toMatch(/\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/)
    expect(text).not.toMatch(/\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b/)
    expect(text).not.toMatch(/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b/)
  })

  it('has a cover, an executive summary with its figures, and every finding', () => {
    const doc = reportPdfDocument(input())
    const all = strings(doc)
    expect(all).toContain('Network report')
    expect(all).toContain('Acme Ltd')
    expect(all).toContain('All 12 findings')
    expect(all).toContain('Executive summary')
    expect(all).toContain('179') // open findings
    expect(all).toContain('Findings (12)')
    for (const f of exportFindings('network', 12)) expect(all).toContain(f.title)
    expect(all).toContain('Hosts up')
  })

  it('says when the findings are filtered', () => {
    const all = strings(reportPdfDocument(input({ filters: { severity: ['critical'] }, findings: exportFindings('network', 3) })))
    expect(all).toContain('3 filtered findings (severity: critical)')
  })

  it('numbers its pages after the cover', () => {
    const doc = reportPdfDocument(input())
    const footer = doc.footer as (page: number, pages: number) => unknown
    expect(footer(1, 5)).toBe('')
    expect(JSON.stringify(footer(3, 5))).toContain('Page 3 of 5')
  })

  it('shows readers of the figures no finding at all', () => {
    const findings = exportFindings('network', 5)
    const doc = reportPdfDocument(input({ findings: null }))
    const all = strings(doc).join('\n')
    expect(all).toContain('Figures only')
    expect(all).toContain('Executive summary')
    for (const f of findings) expect(all).not.toContain(f.title)
    expect(all).not.toMatch(/Findings \(/)
  })

  it('prints text from findings as plain strings: no markup, no layout, no control characters', () => {
    const hostile = exportFinding('dast', 1, {
      title: '{"text":"x","pageBreak":"before"} <b>bold</b>\u0007',
      description: '# Heading\n\n<img src=x onerror=alert(1)> **strong** [link](javascript:alert(1))',
    })
    const doc = reportPdfDocument(input({ service: 'dast', findings: [hostile], scan: exportScan('dast') }))
    const all = strings(doc)
    expect(all).toContain('{"text":"x","pageBreak":"before"} <b>bold</b>')
    expect(all.join('\n')).not.toContain('\u0007')
    const description = all.find((s) => s.startsWith('Heading'))
    expect(description).toBe('Heading strong link')
    // Exactly the report's own page breaks: the cover's end, the summary's and the findings'.
    expect(JSON.stringify(doc.content).match(/"pageBreak"/g)).toHaveLength(2)
  })

  it('never prints a password audit finding’s evidence', () => {
    const finding = exportFinding('password_cracking', 2, { evidence: 'Password: Spring2026!' })
    const doc = reportPdfDocument(input({ service: 'password_cracking', scan: exportScan('password_cracking'), findings: [finding] }))
    expect(JSON.stringify(doc)).not.toContain('Spring2026!')
  })

  it('computes the time to remediate from the monthly figures, or from the findings without them', () => {
    expect(remediationBySeverity(exportMonths(), null).high).toEqual({ count: 2, meanDays: 15, medianDays: 15 })
    const fixed = [exportFinding('network', 2, { publishedAt: T0, fixedAt: T0 + 4 * 86_400_000, severity: 'high' })]
    expect(remediationBySeverity(undefined, fixed).high).toEqual({ count: 1, meanDays: 4, medianDays: 4 })
  })

  it('lets long URLs and hashes wrap and names figures in words', () => {
    expect(wrappable('https://a.example/path?x=1')).toBe('https:/\u200b/\u200ba.example/\u200bpath?\u200bx=\u200b1')
    expect(wrappable('a'.repeat(30))).toBe(`${'a'.repeat(24)}\u200b${'a'.repeat(6)}`)
    expect(figureLabel('certificatesExpiringSoon')).toBe('Certificates expiring soon')
    expect(figureLabel('ips')).toBe('IP addresses')
  })

  it('renders to a PDF of several pages with the browser build of the PDF library', async () => {
    const require = createRequire(import.meta.url)
    const pdfMake = require('pdfmake/build/pdfmake.js')
    pdfMake.addVirtualFileSystem(require('pdfmake/build/vfs_fonts.js'))
    const buffer: Uint8Array = await pdfMake.createPdf(reportPdfDocument(input({ findings: exportFindings('network', 40) }))).getBuffer()
    const pdf = Buffer.from(buffer).toString('latin1')
    expect(pdf.startsWith('%PDF-')).toBe(true)
    expect(pdf.match(/\/Type \/Page\n/g)?.length ?? 0).toBeGreaterThan(3)
  }, 20_000)

  describe('with many findings', () => {
    const many = exportFindings('network', 1_000)
    const collected = (findings: readonly (typeof many)[number][], pageSize: number) => {
      const collector = reportPdfCollector({ ...input(), withFindings: true })
      for (let i = 0; i < findings.length; i += pageSize) collector.add(findings.slice(i, i + pageSize))
      return collector.digest()
    }

    it('describes the worst in full, critical before high and bounded, and lists the rest as rows', () => {
      const digest = collected(many, 500)
      const found = digest.findings!
      expect(found.count).toBe(1_000)
      expect(found.all).toBeNull()
      // Every fifth finding is critical, the next high: 400 of the 1,000.
      expect(found.worstTotal).toBe(400)
      expect(found.worst).toHaveLength(PDF_WORST_IN_FULL)
      expect(found.worst.every((f) => f.severity === 'critical')).toBe(true)
      expect(found.restTotal).toBe(1_000 - PDF_WORST_IN_FULL)
      expect(found.rows).toHaveLength(1_000 - PDF_WORST_IN_FULL)
      const all = strings(reportPdfLayout(digest))
      expect(all).toContain('Findings (1,000)')
      expect(all).toContain('Critical and high findings in full')
      expect(all).toContain('Other findings (950)')
      expect(all.join('\n')).toContain('the 50 most severe of the 400 critical and high findings are described in full')
      expect(all).toContain(many[1]!.title) // a high one, in the table
      // The same report whatever the page size it was read in.
      expect(collected(many, 7)).toEqual(digest)
      expect(JSON.stringify(reportPdfLayout(digest).content)).toBe(JSON.stringify(reportPdfDocument(input({ findings: many })).content))
    })

    it(`lists every finding with its description up to ${PDF_LIST_ALL_UP_TO}`, () => {
      const found = collected(many.slice(0, PDF_LIST_ALL_UP_TO), 50).findings!
      expect(found.all).toHaveLength(PDF_LIST_ALL_UP_TO)
      expect(found.rows).toEqual([])
    })

    it('says where the table stops, and how to get the rest', () => {
      const lows = Array.from({ length: PDF_TABLE_ROWS + 30 }, (_, n) => exportFinding('network', n, { severity: 'low' }))
      const found = collected(lows, 500).findings!
      expect(found.rows).toHaveLength(PDF_TABLE_ROWS)
      const all = strings(reportPdfLayout(collected(lows, 500))).join('\n')
      expect(all).toContain(`The table lists the first 10,000 of 10,030. Narrow the filters, or export CSV for all of them.`)
    })

    it('prints text from findings as plain strings in full and in rows alike', () => {
      const hostile = many.map((f) => ({ ...f, title: `{"text":"x","pageBreak":"before"}\u0007 ${f.title}` }))
      const doc = reportPdfDocument(input({ findings: hostile }))
      expect(JSON.stringify(doc.content)).not.toContain('\\u0007')
      // The cover's end, the summary's, the findings' and the table's: no other page break.
      expect(JSON.stringify(doc.content).match(/"pageBreak":"before"/g)).toHaveLength(3)
    })
  })
})
