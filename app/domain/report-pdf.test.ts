import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TDocumentDefinitions } from 'pdfmake/interfaces'
import { describe, expect, it } from 'vitest'
import { exportFinding, exportFindings, exportMonths, exportScan, exportStats, T0 } from '../../tests/unit/export-fixtures.ts'
import { renderPdfInNode } from '../../tests/unit/pdf-render-node.ts'
import {
  boundedEvidence,
  markdownContent,
  remediationBySeverity,
  reportPdfCollector,
  reportPdfDocument,
  type ReportPdfInput,
} from './report-pdf-collector.ts'
import {
  PDF_ASSETS_IN_FULL,
  PDF_ASSETS_IN_ROW,
  PDF_EVIDENCE_CHARS,
  PDF_EVIDENCE_LINES,
  pdfFontFiles,
  withScripts,
  figureLabel,
  PDF_LIST_ALL_UP_TO,
  PDF_TABLE_ROWS,
  PDF_WORST_IN_FULL,
  reportPdfLayout,
  wrappable,
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

/** A node's text as printed: its runs (code, links, scripts) joined. */
function joined(node: unknown): string {
  if (typeof node === 'string') return node.replace(/\u200b/g, '')
  if (Array.isArray(node)) return node.map(joined).join('')
  if (node && typeof node === 'object') {
    const n = node as Record<string, unknown>
    if ('text' in n) return joined(n.text)
    if (Array.isArray(n.stack)) return n.stack.map(joined).join('\n')
    if (Array.isArray(n.ul)) return n.ul.map(joined).join('\n')
    const body = (n.table as { body?: unknown[][] } | undefined)?.body
    if (body) return body.map((row) => row.map(joined).join(' ')).join('\n')
  }
  return ''
}

/** The text of every text node of the document, its runs joined. */
function joinedTexts(doc: TDocumentDefinitions): string[] {
  const out: string[] = []
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk)
    else if (node && typeof node === 'object') {
      if ('text' in node) out.push(joined(node))
      else Object.values(node).forEach(walk)
    }
  }
  walk(doc.content)
  return out
}

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

  it('prints text from findings as written: Markdown as structure, raw HTML as text, no control characters', () => {
    const hostile = exportFinding('dast', 1, {
      title: '{"text":"x","pageBreak":"before"} <b>bold</b>\u0007',
      description: '# Heading\n\n<img src=x onerror=alert(1)> **strong** [link](javascript:alert(1))',
    })
    const doc = reportPdfDocument(input({ service: 'dast', findings: [hostile], scan: exportScan('dast') }))
    const all = strings(doc)
    expect(all).toContain('{"text":"x","pageBreak":"before"} <b>bold</b>')
    expect(all.join('\n')).not.toContain('\u0007')
    const texts = joinedTexts(doc)
    expect(texts).toContain('Heading')
    expect(texts).toContain('<img src=x onerror=alert(1)> strong link')
    // A link goes only to a web or mail address.
    expect(JSON.stringify(doc.content)).not.toContain('"link":"javascript')
    // Exactly the report's own page breaks: the cover's end, the summary's and the findings'.
    expect(JSON.stringify(doc.content).match(/"pageBreak"/g)).toHaveLength(2)
  })

  it('describes each issue once, with its CVSS, its assets, evidence, remediation and references', () => {
    const same = { title: 'OS command injection', templateSlug: 'os-command-injection', severity: 'critical' as const }
    const findings = [
      ...Array.from({ length: PDF_ASSETS_IN_FULL + 5 }, (_, n) =>
        exportFinding('dast', n, { ...same, evidence: n === 0 ? '' : `GET /ping?host=x;id HTTP/1.1\n\nuid=33(www-data) ${n}` }),
      ),
      exportFinding('dast', 99, { title: 'OS command injection', templateSlug: 'os-command-injection', severity: 'high' }),
    ]
    const found = reportPdfCollector({ ...input({ service: 'dast' }), withFindings: true })
    found.add(findings)
    const digest = found.digest()
    const groups = digest.findings!.groups
    // Same issue, same severity: one group; the same issue rated high: its own.
    expect(groups.map((g) => [g.severity, g.count])).toEqual([
      ['critical', PDF_ASSETS_IN_FULL + 5],
      ['high', 1],
    ])
    expect(groups[0]!.instances).toHaveLength(PDF_ASSETS_IN_FULL)
    // The first evidence there is, from the asset it was seen on.
    expect(groups[0]!.details!.evidence).toEqual({
      asset: findings[1]!.asset,
      text: 'GET /ping?host=x;id HTTP/1.1\n\nuid=33(www-data) 1',
      shortened: false,
    })
    // Plain data, code blocks and tables too: the digest crosses to the worker that renders the file.
    const rich = reportPdfCollector({ ...input({ service: 'dast' }), withFindings: true })
    rich.add([exportFinding('dast', 1, { description: '```\ncode\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n> quote' })])
    expect(structuredClone(rich.digest())).toEqual(rich.digest())
    const doc = reportPdfLayout(digest)
    const texts = joinedTexts(doc)
    const description = texts.filter((t) => t.startsWith('Description of finding 0'))
    expect(description).toHaveLength(1)
    expect(texts).toContain('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')
    expect(texts.some((t) => t.includes('CVSS 3.1 9.8') && t.includes(`${PDF_ASSETS_IN_FULL + 5} assets (`))).toBe(true)
    expect(texts).toContain('and 5 more: the CSV and JSON exports list every one.')
    expect(texts).toContain('Upgrade the component.')
    expect(texts).toContain('https://owasp.org/Top10/A03_2021-Injection/')
    expect(JSON.stringify(doc.content)).toContain('"link":"https://owasp.org/Top10/A03_2021-Injection/"')
    // "not a url" is printed, and links nowhere.
    expect(texts).toContain('not a url')
    // The executive summary names the top risks.
    expect(texts).toContain('Top risks')
  })

  it('bounds evidence in characters and lines, and says so', () => {
    expect(boundedEvidence('a\n'.repeat(PDF_EVIDENCE_LINES + 5))).toEqual({
      text: 'a\n'.repeat(PDF_EVIDENCE_LINES).trimEnd(),
      shortened: true,
    })
    expect(boundedEvidence('x'.repeat(PDF_EVIDENCE_CHARS + 1)).text).toHaveLength(PDF_EVIDENCE_CHARS)
    expect(boundedEvidence('HTTP/1.1 200 OK\r\n\r\n<html>')).toEqual({ text: 'HTTP/1.1 200 OK\n\n<html>', shortened: false })
  })

  it('keeps angle brackets and code as written, code in a monospaced font, CJK runs in a font that has them', () => {
    const content = markdownContent(
      'Run `ping -c 1 <host>` then <host> again.\n\n```sh\ncurl -H "X: <y>" \\\n  https://a.example\n```\n\n- 日本語のテキスト and Кириллица',
    )
    const [paragraph, code, list] = withScripts(content) as unknown[]
    expect(joined(paragraph)).toBe('Run ping -c 1 <host> then <host> again.')
    expect(JSON.stringify(paragraph)).toContain('{"text":"ping -c 1 <host>","font":"RobotoMono"')
    expect(joined(code)).toBe('curl -H "X: <y>" \\\n  https://a.example')
    expect(JSON.stringify(code)).toContain('"style":"code"')
    expect(joined(list)).toBe('日本語のテキスト and Кириллица')
    expect(JSON.stringify(list)).toContain('{"text":"日本語のテキスト","font":"NotoSansJP"}')
    // The CJK font is fetched only for a report that needs it.
    const plain = reportPdfDocument(input())
    expect(pdfFontFiles(plain)).toEqual(['RobotoMono-Regular.ttf', 'RobotoMono-Bold.ttf'])
    const japanese = reportPdfDocument(input({ findings: [exportFinding('network', 1, { title: '古いTLS' })] }))
    expect(pdfFontFiles(japanese)).toContain('NotoSansJP-Regular.ttf')
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
    const pdf = (await renderPdfInNode(reportPdfDocument(input({ findings: exportFindings('network', 40) })))).toString('latin1')
    expect(pdf.startsWith('%PDF-')).toBe(true)
    expect(pdf.match(/\/Type \/Page\n/g)?.length ?? 0).toBeGreaterThan(3)
  }, 20_000)

  it('prints hostile and odd text exactly as written, as pdftotext reads it back', async () => {
    const odd = exportFinding('dast', 0, {
      title: 'OS command injection in <host> パラメータ',
      severity: 'critical',
      asset: 'https://app.acme.example/ping?host=<x>&a=1',
      description:
        'A diagnostic feature builds a shell command from user input, for example `ping -c 1 <host>`. Also <host> bare, & "quotes".',
      remediation: 'Call `execFile("ping", ["-c", "1", host])`; Кириллица и 日本語 stay.',
      evidence: 'GET /ping?host=127.0.0.1;id HTTP/1.1\nHost: app.acme.example\n\nuid=33(www-data) gid=33(www-data) <pre>',
      references: ['https://cwe.mitre.org/data/definitions/78.html'],
    })
    const pdf = await renderPdfInNode(reportPdfDocument(input({ service: 'dast', scan: exportScan('dast'), findings: [odd] })))
    const folder = mkdtempSync(path.join(tmpdir(), 'report-pdf-'))
    const file = path.join(folder, 'report.pdf')
    writeFileSync(file, pdf)
    // pdftotext wraps where the page does; the words and every character in them are what counts.
    const printed = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
      .replace(/\u200b/g, '')
      .replace(/\s+/g, ' ')
    for (const expected of [
      'OS command injection in <host> パラメータ',
      'for example ping -c 1 <host>. Also <host> bare, & "quotes".',
      'Call execFile("ping", ["-c", "1", host]); Кириллица и 日本語 stay.',
      'GET /ping?host=127.0.0.1;id HTTP/1.1 Host: app.acme.example uid=33(www-data) gid=33(www-data) <pre>',
      'https://app.acme.example/ping?host=<x>&a=1',
      'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      'https://cwe.mitre.org/data/definitions/78.html',
    ])
      expect(printed).toContain(expected)
    // Every font it uses is embedded: the page reads the same on any machine.
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' })
    for (const font of ['Roboto', 'RobotoMono', 'NotoSansJP']) expect(fonts).toContain(font)
    expect(
      fonts
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .every((line) => /\byes\s+yes\s+(yes|no)\s+\d+/.test(line)),
    ).toBe(true)
  }, 60_000)

  describe('with many findings', () => {
    const many = exportFindings('network', 1_000)
    const collected = (findings: readonly (typeof many)[number][], pageSize: number) => {
      const collector = reportPdfCollector({ ...input(), withFindings: true })
      for (let i = 0; i < findings.length; i += pageSize) collector.add(findings.slice(i, i + pageSize))
      return collector.digest()
    }

    it('describes the worst groups in full, critical before high and bounded, and lists the rest as rows', () => {
      const digest = collected(many, 500)
      const found = digest.findings!
      expect(found.count).toBe(1_000)
      expect(found.complete).toBe(false)
      // Every fifth finding is critical, the next high, each its own issue: 400 of the 1,000.
      expect(found.worstTotal).toBe(400)
      expect(found.groups).toHaveLength(PDF_WORST_IN_FULL)
      expect(found.groups.every((g) => g.severity === 'critical' && g.details !== null)).toBe(true)
      expect(found.restFindings).toBe(1_000 - PDF_WORST_IN_FULL)
      expect(found.rows).toHaveLength(1_000 - PDF_WORST_IN_FULL)
      expect(found.rows.every((g) => g.details === null && g.instances.length <= PDF_ASSETS_IN_ROW)).toBe(true)
      // The table comes most severe first: the critical ones that found no place, then the high ones.
      expect(found.rows[0]!.severity).toBe('critical')
      const all = strings(reportPdfLayout(digest))
      expect(all).toContain('Findings (1,000)')
      expect(all).toContain('Critical and high findings in full')
      expect(all).toContain('Other findings (950)')
      expect(all.join('\n')).toContain(
        'The 50 most severe of the 400 groups of critical and high findings (50 findings) are described in full',
      )
      expect(all).toContain(many[1]!.title) // a high one, in the table
      // The same report whatever the page size it was read in.
      expect(collected(many, 7)).toEqual(digest)
      expect(JSON.stringify(reportPdfLayout(digest).content)).toBe(JSON.stringify(reportPdfDocument(input({ findings: many })).content))
      // A thousand findings laid out several times: seconds on a machine busy with the other suites.
    }, 60_000)

    it(`describes every group in full up to ${PDF_LIST_ALL_UP_TO} findings`, () => {
      const found = collected(many.slice(0, PDF_LIST_ALL_UP_TO), 50).findings!
      expect(found.complete).toBe(true)
      expect(found.groups).toHaveLength(PDF_LIST_ALL_UP_TO)
      expect(found.groups.every((g) => g.details !== null)).toBe(true)
      expect(found.rows).toEqual([])
    })

    it('says where the table stops, and how to get the rest', () => {
      const lows = Array.from({ length: PDF_TABLE_ROWS + 30 }, (_, n) => exportFinding('network', n, { severity: 'low' }))
      const found = collected(lows, 500).findings!
      expect(found.rows).toHaveLength(PDF_TABLE_ROWS)
      expect(found.unlisted).toBe(30)
      const all = strings(reportPdfLayout(collected(lows, 500))).join('\n')
      expect(all).toContain(
        'The table lists 10,000 findings in 10,000 groups; 30 more findings are not listed. Narrow the filters, or export CSV for all of them.',
      )
    })

    it('keeps a group of many assets to one row naming a few of them', () => {
      const spread = Array.from({ length: 500 }, (_, n) =>
        exportFinding('network', n, { severity: 'medium', title: 'Outdated TLS', templateSlug: 'outdated-tls' }),
      )
      const found = collected(spread, 100).findings!
      expect(found.rows).toHaveLength(1)
      expect(found.rows[0]!.count).toBe(500)
      expect(found.rows[0]!.instances.map((i) => i.asset)).toEqual(spread.slice(0, PDF_ASSETS_IN_ROW).map((f) => f.asset))
      expect(strings(reportPdfLayout(collected(spread, 100))).join('\n')).toContain(`and 497 more`)
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
