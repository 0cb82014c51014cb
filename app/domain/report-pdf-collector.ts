// The findings of a PDF report, taken a page at a time into the report's digest (report-pdf.ts):
// grouped by issue, every list bounded, each group's Markdown read with the product's parser (as
// the report pages render it) and laid out as the layout's text nodes: code in a monospaced font,
// `<host>` and any other angle brackets as written (the PDF is no browser: raw HTML is text here),
// links only to web and mail addresses. The digest is plain data, so the page reads the Markdown
// and the worker that renders the file needs no parser (the parser's browser build needs a DOM).
import type { PhrasingContent, RootContent } from 'mdast'
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces'
import type { Finding } from './findings.ts'
import { parseMarkdown } from './markdown.ts'
import { cleanText, exportableFinding, type ExportFilters } from './report-export.ts'
import {
  codeBlock,
  codeWrappable,
  LINK,
  linkTarget,
  MONO,
  MUTED,
  PDF_ASSETS_IN_FULL,
  PDF_ASSETS_IN_ROW,
  PDF_EVIDENCE_CHARS,
  PDF_EVIDENCE_LINES,
  PDF_LIST_ALL_UP_TO,
  PDF_TABLE_ROWS,
  PDF_WORST_IN_FULL,
  reportPdfLayout,
  SOFT,
  wrappable,
  type Inline,
  type PdfDetails,
  type PdfGroup,
  type ReportPdfDigest,
} from './report-pdf.ts'
import type { Scan } from './scans.ts'
import type { ServiceMonth, ServiceStats } from './service-stats.ts'
import type { ServiceId } from './services.ts'
import { countRemediationDays, daysToRemediate, summariseRemediation, type RemediationSummary, type RemediationTenths } from './sla.ts'
import { SEVERITIES, type Severity } from './template-vocabulary.ts'

export interface ReportPdfInput {
  company: { slug: string; name: string }
  service: ServiceId
  exportedAt: number
  stats: ServiceStats
  /** The latest published scan, or null before the first. */
  scan: Scan | null
  /** Monthly figures, for the time to remediate; without them it is computed from the findings. */
  months?: readonly ServiceMonth[]
  /** The findings as filtered on screen; null for readers of the figures only. */
  findings: readonly Finding[] | null
  filters: ExportFilters
  /** The product's one date format (the reader's, from ~/ui/local-time): the PDF writes no other. */
  formatDate: (at: number) => string
  /** The order the findings are in, in words, when the export names it. */
  order?: string
}

/** The Markdown of a group's texts is kept up to this many characters. */
const TEXT_KEPT = { description: 4_000, impact: 2_000, remediation: 3_000 }
const REFERENCES_KEPT = 20

const fixedDays = (f: Finding) => (f.fixedAt != null ? daysToRemediate(f.publishedAt, f.fixedAt) : null)

/** Time to remediate per severity, from the monthly figures or, without them, the findings. */
export function remediationBySeverity(months: readonly ServiceMonth[] | undefined, findings: readonly Finding[] | null) {
  const collector = remediationCollector(months)
  collector.add(findings ?? [])
  return collector.bySeverity()
}

/** The times to remediate, counted a page of findings at a time unless the monthly figures hold them. */
function remediationCollector(months: readonly ServiceMonth[] | undefined) {
  const fromMonths = Boolean(months?.length)
  // From the findings: one count per severity, added to in place.
  const fromFindings = Object.fromEntries(SEVERITIES.map((s) => [s, {}])) as Record<Severity, Record<string, number>>
  const counted = Object.fromEntries(
    SEVERITIES.map((s) => [s, fromMonths ? months!.map((m) => m.remediationTenths[s]) : [fromFindings[s]]]),
  ) as Record<Severity, RemediationTenths[]>
  return {
    add(findings: readonly Finding[]) {
      if (fromMonths) return
      for (const f of findings) {
        const d = fixedDays(f)
        if (d !== null) countRemediationDays(fromFindings[f.severity], d)
      }
    },
    bySeverity: () =>
      Object.fromEntries(SEVERITIES.map((s) => [s, summariseRemediation(counted[s])])) as Record<Severity, RemediationSummary>,
    overall: () => summariseRemediation(SEVERITIES.flatMap((s) => counted[s])),
  }
}

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1).trimEnd()}…` : value)

function inlines(nodes: readonly PhrasingContent[]): Inline[] {
  return nodes.flatMap((node): Inline[] => {
    switch (node.type) {
      case 'text':
        return [{ text: wrappable(node.value) }]
      case 'inlineCode':
        return [{ text: codeWrappable(node.value), font: MONO, background: SOFT }]
      case 'html':
        return [{ text: wrappable(node.value) }]
      case 'break':
        return [{ text: '\n' }]
      case 'emphasis':
        return [{ text: inlines(node.children), italics: true }]
      case 'strong':
        return [{ text: inlines(node.children), bold: true }]
      case 'delete':
        return [{ text: inlines(node.children), decoration: 'lineThrough' }]
      case 'link': {
        const link = linkTarget(node.url)
        return [{ text: inlines(node.children), ...(link ? { link, color: LINK, decoration: 'underline' as const } : {}) }]
      }
      case 'linkReference':
        return inlines(node.children)
      case 'image':
      case 'imageReference':
        return node.alt ? [{ text: wrappable(node.alt) }] : []
      default:
        return []
    }
  })
}

function blocks(nodes: readonly RootContent[]): Content[] {
  return nodes.flatMap((node): Content[] => {
    switch (node.type) {
      case 'paragraph':
        return [{ text: inlines(node.children), style: 'partText' }]
      case 'heading':
        return [{ text: inlines(node.children), style: 'partText', bold: true }]
      case 'code':
        return [codeBlock(node.value)]
      case 'html':
        return [{ text: wrappable(node.value), style: 'partText' }]
      case 'blockquote':
        return [{ stack: blocks(node.children), margin: [10, 0, 0, 4], color: MUTED }]
      case 'list': {
        const items = node.children.map((item): Content => ({ stack: blocks(item.children) }))
        return [
          node.ordered ? { ol: items, style: 'partText', margin: [0, 0, 0, 4] } : { ul: items, style: 'partText', margin: [0, 0, 0, 4] },
        ]
      }
      case 'table':
        return [
          {
            table: {
              body: node.children.map((row) => row.children.map((cell): TableCell => ({ text: inlines(cell.children), style: 'td' }))),
            },
            layout: 'lightHorizontalLines',
            margin: [0, 2, 0, 6],
          },
        ]
      case 'footnoteDefinition':
        return blocks(node.children)
      default:
        return []
    }
  })
}

/** Markdown from a finding as the layout's text: structure kept, every character as written. */
export const markdownContent = (markdown: string): Content[] => blocks(parseMarkdown(cleanText(markdown)).children)

/** The start of a text, cut at a word when it is longer than `max`. */
function cut(value: string, max: number): string {
  if (value.length <= max) return value
  const part = value.slice(0, max)
  const space = part.lastIndexOf(' ')
  return `${(space > max * 0.6 ? part.slice(0, space) : part).trimEnd()}…`
}

/** Scanner output, bounded in characters and lines. */
export function boundedEvidence(text: string): { text: string; shortened: boolean } {
  const lines = cleanText(text).replace(/\r\n?/g, '\n').trimEnd().split('\n')
  let out = lines.slice(0, PDF_EVIDENCE_LINES).join('\n')
  let shortened = lines.length > PDF_EVIDENCE_LINES
  if (out.length > PDF_EVIDENCE_CHARS) {
    out = out.slice(0, PDF_EVIDENCE_CHARS)
    shortened = true
  }
  return { text: out, shortened }
}

type Collected = Omit<ReportPdfInput, 'findings'> & { withFindings: boolean }

type Gathered = Omit<PdfGroup, 'lastSeen'> & { lastSeenAt: number; rank: number; inFull: boolean }

const severityRank = (s: Severity) => SEVERITIES.indexOf(s)

/**
 * Takes the findings a page at a time and keeps only what the report prints, grouped by issue:
 * every group in full up to PDF_LIST_ALL_UP_TO findings; beyond that the first groups of critical
 * and high findings in full and the other groups as rows, every list bounded.
 */
export function reportPdfCollector(input: Collected) {
  const remediation = remediationCollector(input.months)
  let count = 0
  let firstSeen: number | null = null
  let complete = true
  const groups = new Map<string, Gathered>()
  const slots = { critical: 0, high: 0 }
  let unlisted = 0
  const detailsOf = (f: Finding): PdfDetails => ({
    description: markdownContent(cut(f.description, TEXT_KEPT.description)),
    impact: markdownContent(cut(f.impact, TEXT_KEPT.impact)),
    remediation: markdownContent(cut(f.remediation, TEXT_KEPT.remediation)),
    references: f.references.slice(0, REFERENCES_KEPT).map((r) => cut(cleanText(r), 300)),
    evidence: null,
  })
  const instanceCap = (g: Gathered) => (complete || g.inFull ? PDF_ASSETS_IN_FULL : PDF_ASSETS_IN_ROW)
  return {
    add(findings: readonly Finding[]) {
      if (!input.withFindings) return
      remediation.add(findings)
      for (const raw of findings) {
        const f = exportableFinding(raw)
        count++
        firstSeen = firstSeen === null ? f.firstSeenAt : Math.min(firstSeen, f.firstSeenAt)
        if (complete && count > PDF_LIST_ALL_UP_TO) {
          // Too many to describe all: only the groups holding a place among the worst keep their details.
          complete = false
          for (const g of groups.values())
            if (!g.inFull) {
              g.details = null
              g.instances.length = Math.min(g.instances.length, PDF_ASSETS_IN_ROW)
            }
        }
        const key = `${f.severity}\u0000${f.templateSlug ?? ''}\u0000${f.title}`
        let g = groups.get(key)
        if (!g) {
          const worst = f.severity === 'critical' || f.severity === 'high' ? f.severity : null
          const inFull = worst !== null && slots[worst] < PDF_WORST_IN_FULL
          if (!inFull && groups.size - slots.critical - slots.high >= PDF_TABLE_ROWS) {
            unlisted++
            continue
          }
          if (inFull) slots[worst!]++
          g = {
            title: clip(cleanText(f.title), 300),
            severity: f.severity,
            cvss: f.cvss ? { version: f.cvss.version, vector: cleanText(f.cvss.vector), score: f.cvss.score } : null,
            cwe: f.cwe.slice(0, 10),
            count: 0,
            statuses: {},
            instances: [],
            lastSeenAt: f.lastSeenAt,
            details: complete || inFull ? detailsOf(f) : null,
            rank: groups.size,
            inFull,
          }
          groups.set(key, g)
        }
        g.count++
        g.statuses[f.status] = (g.statuses[f.status] ?? 0) + 1
        g.lastSeenAt = Math.max(g.lastSeenAt, f.lastSeenAt)
        if (g.instances.length < instanceCap(g))
          g.instances.push({ asset: clip(cleanText(f.asset), 200), status: f.status, lastSeen: input.formatDate(f.lastSeenAt) })
        if (g.details && !g.details.evidence && f.evidence.trim())
          g.details.evidence = { asset: clip(cleanText(f.asset), 200), ...boundedEvidence(f.evidence) }
      }
    },
    digest(): ReportPdfDigest {
      const { scan, formatDate: longDate } = input
      const from = firstSeen ?? scan?.startedAt ?? null
      const to = scan?.publishedAt ?? scan?.finishedAt ?? input.exportedAt
      const ordered = [...groups.values()].sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.rank - b.rank)
      const plain = ({ lastSeenAt, rank: _rank, inFull: _inFull, ...g }: Gathered): PdfGroup => ({ ...g, lastSeen: longDate(lastSeenAt) })
      const inFull = complete ? ordered : ordered.filter((g) => g.inFull).slice(0, PDF_WORST_IN_FULL)
      const shown = new Set(inFull)
      // A high group that lost its place to critical ones is a row; the rows stay within their bound.
      const rest = complete ? [] : ordered.filter((g) => !shown.has(g))
      const rows = rest.slice(0, PDF_TABLE_ROWS)
      const sumOf = (list: readonly Gathered[]) => list.reduce((n, g) => n + g.count, 0)
      return {
        company: input.company,
        service: input.service,
        stats: input.stats,
        scan,
        filters: input.filters,
        ...(input.order !== undefined ? { order: input.order } : {}),
        dates: {
          period: from !== null && longDate(from) !== longDate(to) ? `${longDate(Math.min(from, to))} – ${longDate(to)}` : longDate(to),
          latestScan: scan ? longDate(scan.publishedAt ?? scan.startedAt) : null,
          prepared: longDate(input.exportedAt),
        },
        remediation: remediation.bySeverity(),
        overall: remediation.overall(),
        findings: input.withFindings
          ? {
              count,
              complete,
              groups: inFull.map((g) => ({ ...plain(g), instances: g.instances.slice(0, PDF_ASSETS_IN_FULL) })),
              worstTotal: complete ? 0 : ordered.filter((g) => g.severity === 'critical' || g.severity === 'high').length,
              rows: rows.map((g) => ({ ...plain(g), details: null, instances: g.instances.slice(0, PDF_ASSETS_IN_ROW) })),
              restFindings: sumOf(rows),
              unlisted: unlisted + sumOf(rest.slice(PDF_TABLE_ROWS)),
            }
          : null,
      }
    },
  }
}

/** The report of a list of findings held whole: the collector over one page, then the layout. */
export function reportPdfDocument(input: ReportPdfInput): TDocumentDefinitions {
  const collector = reportPdfCollector({ ...input, withFindings: input.findings !== null })
  collector.add(input.findings ?? [])
  return reportPdfLayout(collector.digest())
}
