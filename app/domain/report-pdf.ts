// The PDF report of one service, as a page layout description (pdfmake's document definition):
// a cover, an executive summary with its charts drawn as vector shapes and its top risks, and the
// findings grouped by issue, each issue once with its CVSS, affected assets, evidence, remediation
// and references. Pure: the export menu hands it to the PDF library, loaded only when someone
// exports. Every text from a finding or a company goes in as the layout's text nodes (Markdown
// read by the product's parser, control characters removed): never as markup or layout, so nothing
// in a finding can restyle or break the report, and every character prints as written.
// The findings are taken a page at a time (report-pdf-collector.ts) into a plain digest that keeps
// what the report prints: every group up to a few hundred findings; beyond that the worst groups
// in full and the others as table rows. The layout is made from the digest alone (it can cross to
// a worker). Decision 0040.
import type { Content, ContentTable, TDocumentDefinitions, TableCell } from 'pdfmake/interfaces'
import { findingStatusLabels, FINDING_STATUSES, type Finding } from './findings.ts'
import { formatNumber } from './numbers.ts'
import { passwordPatternLabels } from './password-audit.ts'
import { cleanText, describeFilters, isFiltered, type ExportFilters } from './report-export.ts'
import type { Scan, ServiceScanStats } from './scans.ts'
import { openTotal, type ServiceStats } from './service-stats.ts'
import { services, type ServiceId } from './services.ts'
import type { RemediationSummary } from './sla.ts'
import { SEVERITIES, severityLabels, type Severity } from './template-vocabulary.ts'

/** Up to this many findings, every group of them is described in full. */
export const PDF_LIST_ALL_UP_TO = 200
/** Beyond that, at most this many groups of critical and high findings are described in full… */
export const PDF_WORST_IN_FULL = 50
/** …and at most this many other groups are rows of a table (the CSV export holds any number). */
export const PDF_TABLE_ROWS = 10_000
/** A group in full lists this many of its assets, a row of the table this many. */
export const PDF_ASSETS_IN_FULL = 30
export const PDF_ASSETS_IN_ROW = 3
/** Evidence is printed up to this many characters and lines (the JSON export holds it whole). */
export const PDF_EVIDENCE_CHARS = 2_000
export const PDF_EVIDENCE_LINES = 30
/** One affected asset of a group: a finding. */
export interface PdfInstance {
  asset: string
  status: Finding['status']
  lastSeen: string
}

/** What a group of findings says in full: its texts (laid out from their Markdown), references and one evidence. */
export interface PdfDetails {
  description: Content[]
  impact: Content[]
  remediation: Content[]
  references: string[]
  evidence: null | { asset: string; text: string; shortened: boolean }
}

/** Findings that are the same issue (same template or title, same severity) on several assets. */
export interface PdfGroup {
  title: string
  severity: Severity
  cvss: { version: string; vector: string; score: number } | null
  cwe: string[]
  /** How many findings it groups, and how many of them are in each status. */
  count: number
  statuses: Partial<Record<Finding['status'], number>>
  /** The first findings read, at most PDF_ASSETS_IN_FULL (PDF_ASSETS_IN_ROW in the table). */
  instances: PdfInstance[]
  lastSeen: string
  /** Null for a row of the table. */
  details: PdfDetails | null
}

/** Everything the report prints, as plain data: what the layout is made from. */
export interface ReportPdfDigest {
  company: { slug: string; name: string }
  service: ServiceId
  stats: ServiceStats
  scan: Scan | null
  filters: ExportFilters
  order?: string
  dates: { period: string; latestScan: string | null; prepared: string }
  remediation: Record<Severity, RemediationSummary>
  overall: RemediationSummary
  /** Null for readers of the figures only. */
  findings: null | {
    count: number
    /** Every group is in full (there are at most PDF_LIST_ALL_UP_TO findings). */
    complete: boolean
    /** The groups in full: all of them, or the worst. */
    groups: PdfGroup[]
    /** How many groups of critical or high findings there were. */
    worstTotal: number
    /** The other groups, as rows of the table, and how many findings they hold. */
    rows: PdfGroup[]
    restFindings: number
    /** Findings of groups beyond the table's bound, not in the report. */
    unlisted: number
  }
}

/** Print colours of the severities: distinct in greyscale too, and always printed with their word. */
export const severityColours: Record<Severity, string> = {
  critical: '#9f1d1d',
  high: '#dc4c0f',
  medium: '#c98a04',
  low: '#2f6fdb',
  info: '#6b7280',
}

const INK = '#1f2933'
export const MUTED = '#5b6673'
const RULE = '#d5dae1'
export const SOFT = '#f2f4f7'
export const LINK = '#1d4ed8'
const PAGE_WIDTH = 595.28 // A4
const MARGIN = 48
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN

const days = (value: number | null) => (value === null ? '–' : `${value < 10 ? value.toFixed(1) : Math.round(value)} d`)

/** A long unbroken run (a URL, a hash) gets break opportunities so it wraps inside its cell. */
export function wrappable(text: string, run = 24): string {
  return cleanText(text)
    .replace(new RegExp(`([^\\s/?&=._-]{${run}})(?=\\S)`, 'g'), '$1\u200b')
    .replace(/([/?&=])(?=\S)/g, '$1\u200b')
}

/** A plain text node: the string is data whatever it contains. */
const text = (value: string, style?: string | string[]): Content => ({ text: cleanText(value), ...(style ? { style } : {}) })

const heading = (value: string, pageBreak = false): Content => ({
  text: value,
  style: 'h1',
  ...(pageBreak ? { pageBreak: 'before' as const } : {}),
})
const subheading = (value: string): Content => ({ text: value, style: 'h2' })

const serviceLabel = (id: ServiceId) => services.find((s) => s.id === id)?.label ?? id

const sum = (counts: Partial<Record<Severity, number>>) => SEVERITIES.reduce((total, s) => total + (counts[s] ?? 0), 0)

function kpiCards(cards: readonly { label: string; value: string; note?: string }[]): Content {
  return {
    table: {
      widths: cards.map(() => '*'),
      body: [
        cards.map((card): TableCell => ({
          stack: [
            { text: card.label, style: 'kpiLabel' },
            { text: card.value, style: 'kpiValue' },
            ...(card.note ? [{ text: card.note, style: 'kpiNote' }] : []),
          ],
          fillColor: SOFT,
          margin: [10, 8, 10, 8],
        })),
      ],
    },
    layout: { hLineWidth: () => 0, vLineWidth: () => 6, vLineColor: () => '#ffffff', paddingLeft: () => 0, paddingRight: () => 0 },
    margin: [0, 4, 0, 14],
  }
}

/** A horizontal bar chart drawn as vector rectangles, each bar with its label and value in words. */
export function barChart(title: string, rows: readonly { label: string; value: number; colour?: string }[], labelWidth = 150): Content {
  const max = Math.max(1, ...rows.map((r) => r.value))
  const barWidth = CONTENT_WIDTH - labelWidth - 60
  return {
    stack: [
      subheading(title),
      {
        table: {
          widths: [labelWidth, barWidth, 50],
          body: rows.map((row): TableCell[] => [
            { text: wrappable(row.label), style: 'chartLabel' },
            {
              canvas: [
                { type: 'rect', x: 0, y: 2, w: barWidth, h: 10, color: SOFT },
                ...(row.value > 0
                  ? [{ type: 'rect' as const, x: 0, y: 2, w: Math.max(1.5, (row.value / max) * barWidth), h: 10, color: row.colour ?? INK }]
                  : []),
              ],
            },
            { text: formatNumber(row.value), style: 'chartValue' },
          ]),
        },
        layout: 'noBorders',
      },
    ],
    margin: [0, 0, 0, 12],
    unbreakable: true,
  }
}

function dataTable(headers: readonly string[], rows: readonly (readonly string[])[], widths?: ContentTable['table']['widths']): Content {
  return {
    table: {
      headerRows: 1,
      widths: widths ?? headers.map((_, i) => (i === 0 ? '*' : 'auto')),
      body: [
        headers.map((h, i): TableCell => ({ text: h, style: 'th', alignment: i === 0 ? 'left' : 'right' })),
        ...rows.map((row) =>
          row.map((cell, i): TableCell => ({ text: wrappable(cell), style: 'td', alignment: i === 0 ? 'left' : 'right' })),
        ),
      ],
    },
    layout: tableLayout,
    margin: [0, 0, 0, 14],
  }
}

export const tableLayout = {
  hLineWidth: (i: number) => (i === 1 ? 1 : 0.5),
  vLineWidth: () => 0,
  hLineColor: (i: number) => (i === 1 ? INK : RULE),
  paddingTop: () => 4,
  paddingBottom: () => 4,
}

const FIGURE_WORDS: Record<string, string> = {
  ips: 'IP addresses',
  lmHashes: 'LM hashes',
  owaspTop10: 'OWASP Top 10',
  hostsUp: 'Hosts up',
  checksRun: 'Checks run',
  policyMinLength: 'Policy minimum length',
  usernameAsPassword: 'Username as password',
}

/** `certificatesExpiringSoon` → `Certificates expiring soon`. */
export const figureLabel = (key: string) =>
  FIGURE_WORDS[key] ??
  key
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase())

const patternLabel = (name: string) => (passwordPatternLabels as Record<string, string>)[name] ?? name

/** Per-index counts (password lengths, character classes) as chart rows, the empty ones left out. */
function histogramRows(key: string, counts: readonly number[]) {
  const last = counts.length - 1
  const label =
    key === 'classCounts'
      ? (i: number) => `${i} character class${i === 1 ? '' : 'es'}`
      : (i: number) => (key === 'lengthHistogram' && i === last && last >= 32 ? `${i} or more characters` : `${i} characters`)
  return counts.flatMap((value, i) => (value > 0 ? [{ label: label(i), value }] : []))
}

const HISTOGRAM_TITLES: Record<string, string> = {
  lengthHistogram: 'Cracked passwords by length',
  classCounts: 'Cracked passwords by character classes',
}

/** The scan's own figures: its counts as a table, its named lists and distributions as bar charts. */
function serviceFigures(stats: ServiceScanStats): Content[] {
  const numbers: [string, string][] = []
  const charts: Content[] = []
  for (const [key, value] of Object.entries(stats)) {
    if (key === 'service') continue
    if (typeof value === 'number') numbers.push([figureLabel(key), formatNumber(value)])
    else if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number')) {
      const rows = histogramRows(key, value as number[])
      if (rows.length) charts.push(barChart(HISTOGRAM_TITLES[key] ?? figureLabel(key), rows))
    } else if (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((item) => typeof item === 'object' && item && 'name' in item && 'count' in item)
    ) {
      const named = (value as { name: string; count: number }[]).slice().sort((a, b) => b.count - a.count)
      const label = key === 'patterns' ? patternLabel : (name: string) => name
      charts.push(
        barChart(
          figureLabel(key),
          named.slice(0, 10).map((n) => ({ label: label(n.name), value: n.count })),
        ),
      )
    }
  }
  return [...(numbers.length ? [subheading('Key figures of the latest scan'), dataTable(['Figure', 'Value'], numbers)] : []), ...charts]
}

const scopeOf = (digest: ReportPdfDigest) =>
  digest.findings === null
    ? 'Figures only'
    : isFiltered(digest.filters)
      ? `${formatNumber(digest.findings.count)} filtered findings (${describeFilters(digest.filters)})`
      : `All ${formatNumber(digest.findings.count)} findings`

function cover(digest: ReportPdfDigest): Content[] {
  const { scan, dates } = digest
  const rows: [string, string][] = [
    ['Company', digest.company.name],
    ['Service', serviceLabel(digest.service)],
    ['Period', dates.period],
    ['Latest scan', scan && dates.latestScan ? `${scan.title}, ${dates.latestScan}` : 'No published scan yet'],
    ['Contents', scopeOf(digest)],
    ...(digest.order && digest.findings?.count ? [['Order', digest.order] as [string, string]] : []),
    ['Prepared', dates.prepared],
  ]
  return [
    { text: 'BULWARK', style: 'brand', margin: [0, 40, 0, 120] },
    { text: `${serviceLabel(digest.service)} report`, style: 'title' },
    text(digest.company.name, 'coverCompany'),
    { canvas: [{ type: 'line', x1: 0, y1: 0, x2: CONTENT_WIDTH, y2: 0, lineWidth: 2, lineColor: INK }], margin: [0, 24, 0, 24] },
    {
      table: {
        widths: [110, '*'],
        body: rows.map(([label, value]): TableCell[] => [
          { text: label, style: 'coverLabel' },
          { text: wrappable(value), style: 'coverValue' },
        ]),
      },
      layout: 'noBorders',
    },
    {
      text: 'Confidential: prepared for the company named above. Severity is always given in words; colours only repeat it.',
      style: 'small',
      margin: [0, 160, 0, 0],
    },
  ]
}

/** The report's most severe issues, each once with how many assets it affects. */
export const TOP_RISKS = 5
function topRisks(digest: ReportPdfDigest): Content[] {
  const top = (digest.findings?.groups ?? []).filter((g) => g.severity !== 'info').slice(0, TOP_RISKS)
  if (!top.length) return []
  return [
    subheading('Top risks'),
    dataTable(
      ['Finding', 'Severity', 'CVSS', 'Assets'],
      top.map((g) => [g.title, severityLabels[g.severity], g.cvss ? g.cvss.score.toFixed(1) : '–', formatNumber(g.count)]),
    ),
  ]
}

function summary(digest: ReportPdfDigest): Content[] {
  const { stats, scan } = digest
  const open = openTotal(stats.open)
  const breached = sum(stats.breached)
  const dueSoon = sum(stats.dueSoon)
  const urgent = (stats.open.critical ?? 0) + (stats.open.high ?? 0)
  const mttr = digest.overall
  const counts = scan?.counts
  const trend = counts ? counts.new + counts.reopened - counts.notDetected : null
  const sentence = [
    `${formatNumber(open)} findings are open, ${formatNumber(urgent)} of them critical or high; ${formatNumber(breached)} are past their due date and ${formatNumber(dueSoon)} are due soon.`,
    counts
      ? `Since the previous scan: ${formatNumber(counts.new)} new, ${formatNumber(counts.reopened)} reopened and ${formatNumber(counts.notDetected)} no longer detected.`
      : '',
    mttr.count && mttr.medianDays !== null ? `Fixed findings took a median of ${Math.round(mttr.medianDays)} days to remediate.` : '',
  ]
    .filter(Boolean)
    .join(' ')
  const remediation = digest.remediation
  const content: Content[] = [
    heading('Executive summary', true),
    kpiCards([
      { label: 'Open findings', value: formatNumber(open), note: `${formatNumber(urgent)} critical or high` },
      { label: 'SLA breached', value: formatNumber(breached), note: `${formatNumber(dueSoon)} due soon` },
      {
        label: 'Since last scan',
        value: trend === null ? '–' : `${trend > 0 ? '+' : ''}${formatNumber(trend)}`,
        note: counts ? `${formatNumber(counts.new)} new, ${formatNumber(counts.notDetected)} gone` : 'No earlier scan',
      },
      { label: 'Median time to fix', value: days(mttr.medianDays), note: mttr.count ? `mean ${days(mttr.meanDays)}` : 'Nothing fixed yet' },
    ]),
    { text: sentence, style: 'lead' },
    barChart(
      'Open findings by severity',
      SEVERITIES.map((s) => ({ label: severityLabels[s], value: stats.open[s] ?? 0, colour: severityColours[s] })),
      110,
    ),
    ...topRisks(digest),
    subheading('Service levels by severity'),
    dataTable(
      ['Severity', 'Open', 'Due soon', 'Breached', 'Fixed', 'Mean time to fix', 'Median time to fix'],
      SEVERITIES.map((s) => [
        severityLabels[s],
        formatNumber(stats.open[s] ?? 0),
        formatNumber(stats.dueSoon[s] ?? 0),
        formatNumber(stats.breached[s] ?? 0),
        formatNumber(remediation[s].count),
        days(remediation[s].meanDays),
        days(remediation[s].medianDays),
      ]),
    ),
  ]
  if (counts)
    content.push(
      subheading('Compared with the previous scan'),
      dataTable(
        ['Findings', 'Count'],
        [
          ['New', formatNumber(counts.new)],
          ['Persisting', formatNumber(counts.persisting)],
          ['Reopened', formatNumber(counts.reopened)],
          ['No longer detected', formatNumber(counts.notDetected)],
          ['Seen in the latest scan', formatNumber(counts.total)],
        ],
      ),
    )
  const statuses = FINDING_STATUSES.filter((s) => (stats.byStatus[s] ?? 0) > 0)
  if (statuses.length)
    content.push(
      barChart(
        'Findings by status',
        statuses.map((s) => ({ label: findingStatusLabels[s], value: stats.byStatus[s] ?? 0, colour: '#44546a' })),
        130,
      ),
    )
  if (scan) content.push(...serviceFigures(scan.stats))
  return content
}

// ── Text from findings ─────────────────────────────────────────────────────────────────────────
// The pieces the collector lays a finding's Markdown out with (report-pdf-collector.ts), and the
// fonts every run of text is written in.

export const MONO = 'RobotoMono'
const CJK_FONT = 'NotoSansJP'

/** Long unbroken runs in code get break opportunities (every 64 characters) so they wrap in the column. */
export const codeWrappable = (value: string) =>
  cleanText(value)
    .replace(/\t/g, '  ')
    .replace(/(\S{64})(?=\S)/g, '$1\u200b')

export const linkTarget = (url: string) => (/^(https?:|mailto:)/i.test(url.trim()) ? url.trim() : undefined)

export type Inline = {
  text: string | Inline[]
  bold?: boolean
  italics?: boolean
  font?: string
  link?: string
  color?: string
  decoration?: 'underline' | 'lineThrough'
  background?: string
}

// Plain data only (no layout functions): code blocks of a finding's texts cross to the worker in the digest.
export const codeBlock = (value: string, style = 'code'): Content => ({
  table: {
    widths: ['*'],
    body: [[{ text: codeWrappable(value), style, preserveLeadingSpaces: true, fillColor: SOFT, margin: [4, 3, 4, 3] }]],
  },
  layout: 'noBorders',
  margin: [0, 2, 0, 6],
})

// Runs of Japanese and Chinese characters are written in a font that has them (Roboto has Latin,
// Greek and Cyrillic); the rest of the text keeps its own font.
const CJK = /[\u2e80-\u2fdf\u3000-\u30ff\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/
const CJK_RUNS = new RegExp(`((?:${CJK.source})+)`, 'g')

function scripted(value: string): string | Inline {
  if (!CJK.test(value)) return value
  return {
    text: value
      .split(CJK_RUNS)
      .flatMap((part, i): (string | Inline)[] => (part === '' ? [] : i % 2 ? [{ text: part, font: CJK_FONT }] : [part])) as Inline[],
  }
}

function scriptedText(text: unknown): unknown {
  if (typeof text === 'string') {
    const out = scripted(text)
    return typeof out === 'string' ? out : out.text
  }
  return Array.isArray(text) ? text.map((item) => (typeof item === 'string' ? scripted(item) : withScripts(item))) : text
}

/** The content with every run of CJK characters given the font that has them. */
export function withScripts<T>(node: T): T {
  if (typeof node === 'string') return scripted(node) as T
  if (Array.isArray(node)) return node.map(withScripts) as T
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = { ...(node as Record<string, unknown>) }
  if ('text' in out) out.text = scriptedText(out.text)
  for (const key of ['stack', 'columns', 'ul', 'ol'] as const)
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(withScripts)
  const table = out.table as { body?: unknown[][] } | undefined
  if (table?.body) out.table = { ...table, body: table.body.map((row) => row.map(withScripts)) }
  return out as T
}

// ── Findings ───────────────────────────────────────────────────────────────────────────────────

const statusesInWords = (statuses: PdfGroup['statuses']) =>
  FINDING_STATUSES.filter((s) => statuses[s])
    .map((s) => `${formatNumber(statuses[s]!)} ${findingStatusLabels[s].toLowerCase()}`)
    .join(', ')

const cvssInWords = (cvss: PdfGroup['cvss']) => (cvss ? `CVSS ${cvss.version} ${cvss.score.toFixed(1)}` : null)

const MORE_IN_EXPORTS = 'the CSV and JSON exports list every one'

function groupInFull(g: PdfGroup, first: boolean): Content {
  const d = g.details!
  // A part's label stays on the page of its first block (all of it bounded to well under a page).
  const part = (label: string, content: Content[]): Content[] =>
    content.length ? [{ stack: [{ text: label, style: 'partLabel' }, content[0]!], unbreakable: true }, ...content.slice(1)] : []
  const more = g.count - g.instances.length
  const assets: Content = {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: ['*', 90, 70],
      body: [
        ['Asset', 'Status', 'Last seen'].map((h): TableCell => ({ text: h, style: 'th' })),
        ...g.instances.map((i): TableCell[] => [
          { text: wrappable(i.asset), style: 'row' },
          { text: findingStatusLabels[i.status], style: 'row' },
          { text: i.lastSeen, style: 'row' },
        ]),
      ],
    },
    layout: { ...tableLayout, paddingTop: () => 2, paddingBottom: () => 2 },
  }
  return {
    stack: [
      {
        // The heading stays on the page of its figures.
        stack: [
          { text: wrappable(g.title), style: 'h2' },
          {
            text: [
              { text: severityLabels[g.severity], bold: true, color: severityColours[g.severity] },
              ...(g.cvss ? [`  ·  ${cvssInWords(g.cvss)}`] : []),
              `  ·  ${formatNumber(g.count)} ${g.count === 1 ? 'asset' : 'assets'} (${statusesInWords(g.statuses)})`,
              ...(g.cwe.length ? [`  ·  ${g.cwe.map(cleanText).join(', ')}`] : []),
            ],
            style: 'td',
          },
          ...(g.cvss ? [{ text: wrappable(g.cvss.vector), style: 'vector' }] : []),
        ],
        unbreakable: true,
      },
      ...part('Description', d.description),
      ...part('Impact', d.impact),
      ...part(`Affected assets (${formatNumber(g.count)})`, [assets]),
      ...(more > 0
        ? [{ text: `and ${formatNumber(more)} more: ${MORE_IN_EXPORTS}.`, style: 'small', margin: [0, 2, 0, 0] } as Content]
        : []),
      ...(d.evidence
        ? [
            ...part(`Evidence (${d.evidence.asset})`, [codeBlock(d.evidence.text, 'evidence')]),
            ...(d.evidence.shortened
              ? [{ text: 'Shortened: the JSON export holds the evidence of every finding in full.', style: 'small' } as Content]
              : []),
          ]
        : []),
      ...part('Remediation', d.remediation),
      ...part('References', [
        ...(d.references.length
          ? [
              {
                ul: d.references.map((r): Content => {
                  const link = linkTarget(r)
                  return { text: wrappable(r), style: 'partText', ...(link ? { link, color: LINK } : {}) }
                }),
              } as Content,
            ]
          : []),
      ]),
    ],
    margin: [0, first ? 0 : 14, 0, 4],
  }
}

function groupsTable(rows: readonly PdfGroup[]): Content {
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: ['*', 46, 28, 140, 66, 58],
      body: [
        ['Finding', 'Severity', 'CVSS', 'Assets', 'Status', 'Last seen'].map((h): TableCell => ({ text: h, style: 'th' })),
        ...rows.map((g): TableCell[] => {
          const more = g.count - g.instances.length
          return [
            { text: wrappable(g.title), style: 'row' },
            { text: severityLabels[g.severity], style: 'rowSeverity', color: severityColours[g.severity] },
            { text: g.cvss ? g.cvss.score.toFixed(1) : '–', style: 'row' },
            {
              text: wrappable(g.instances.map((i) => i.asset).join('\n') + (more > 0 ? `\nand ${formatNumber(more)} more` : '')),
              style: 'row',
            },
            { text: statusesInWords(g.statuses), style: 'row' },
            { text: g.lastSeen, style: 'row' },
          ]
        }),
      ],
    },
    layout: { ...tableLayout, paddingTop: () => 2, paddingBottom: () => 2 },
  }
}

const groupsInWords = (groups: number, findings: number) =>
  `${formatNumber(findings)} ${findings === 1 ? 'finding' : 'findings'} in ${formatNumber(groups)} ${groups === 1 ? 'group' : 'groups'}`

function findingsSection(found: NonNullable<ReportPdfDigest['findings']>): Content[] {
  if (found.count === 0) return [heading('Findings', true), text('No findings match the filters of this export.', 'lead')]
  const inFull = found.groups.reduce((n, g) => n + g.count, 0)
  const lead = found.complete
    ? `${groupsInWords(found.groups.length, found.count)}: each issue once, with the assets it affects, its evidence, how to fix it and where to read more.`
    : `This report holds ${formatNumber(found.count)} findings. ` +
      (found.groups.length
        ? `${found.groups.length < found.worstTotal ? `The ${formatNumber(found.groups.length)} most severe of the ${formatNumber(found.worstTotal)}` : `The ${formatNumber(found.groups.length)}`} groups of critical and high findings (${formatNumber(inFull)} findings) are described in full, the others listed in a table.`
        : 'They are listed in a table, one row per issue.') +
      ' The CSV and JSON exports hold every finding with all its details.'
  const out: Content[] = [heading(`Findings (${formatNumber(found.count)})`, true), { text: lead, style: 'lead' }]
  if (found.groups.length) {
    if (!found.complete) out.push(subheading('Critical and high findings in full'))
    found.groups.forEach((g, i) => out.push(groupInFull(g, i === 0)))
  }
  if (found.rows.length || found.unlisted) {
    out.push(heading(found.groups.length ? `Other findings (${formatNumber(found.restFindings + found.unlisted)})` : 'All findings', true))
    if (found.unlisted)
      out.push({
        text: `The table lists ${groupsInWords(found.rows.length, found.restFindings)}; ${formatNumber(found.unlisted)} more findings are not listed. Narrow the filters, or export CSV for all of them.`,
        style: 'lead',
      })
    out.push(groupsTable(found.rows))
  }
  return out
}

/** The fonts the report writes in beyond the PDF library's own Roboto, and their files. */
export const PDF_FONTS = {
  [MONO]: {
    normal: 'RobotoMono-Regular.ttf',
    bold: 'RobotoMono-Bold.ttf',
    italics: 'RobotoMono-Regular.ttf',
    bolditalics: 'RobotoMono-Bold.ttf',
  },
  [CJK_FONT]: {
    normal: 'NotoSansJP-Regular.ttf',
    bold: 'NotoSansJP-Bold.ttf',
    italics: 'NotoSansJP-Regular.ttf',
    bolditalics: 'NotoSansJP-Bold.ttf',
  },
} as const
export type PdfFontFile = (typeof PDF_FONTS)[keyof typeof PDF_FONTS]['normal' | 'bold']

/** The font files a document needs: the monospaced font always, the CJK one only when it has such text (5 MB each weight). */
export function pdfFontFiles(doc: TDocumentDefinitions): PdfFontFile[] {
  const mono = [PDF_FONTS[MONO].normal, PDF_FONTS[MONO].bold]
  const cjk = JSON.stringify([doc.content, doc.info]).includes(`"font":"${CJK_FONT}"`) || CJK.test(doc.info?.title ?? '')
  return cjk ? [...mono, PDF_FONTS[CJK_FONT].normal, PDF_FONTS[CJK_FONT].bold] : mono
}

/** The report's document definition, from its digest. */
export function reportPdfLayout(digest: ReportPdfDigest): TDocumentDefinitions {
  const found = digest.findings
  const title = `${serviceLabel(digest.service)} report: ${cleanText(digest.company.name)}`
  return {
    pageSize: 'A4',
    pageMargins: [MARGIN, 56, MARGIN, 56],
    info: { title, author: 'Bulwark', subject: serviceLabel(digest.service), creator: 'Bulwark' },
    content: withScripts([...cover(digest), ...summary(digest), ...(found === null ? [] : findingsSection(found))]),
    header: (page) =>
      page === 1
        ? ''
        : withScripts({
            columns: [
              { text: cleanText(digest.company.name), style: 'running' },
              { text: `${serviceLabel(digest.service)} report`, style: 'running', alignment: 'right' },
            ],
            margin: [MARGIN, 24, MARGIN, 0],
          }),
    footer: (page, pages) =>
      page === 1
        ? ''
        : {
            columns: [
              { text: `Prepared ${digest.dates.prepared}`, style: 'running' },
              { text: `Page ${page} of ${pages}`, style: 'running', alignment: 'right' },
            ],
            margin: [MARGIN, 20, MARGIN, 0],
          },
    defaultStyle: { font: 'Roboto', fontSize: 10, color: INK, lineHeight: 1.2 },
    styles: {
      brand: { fontSize: 12, bold: true, characterSpacing: 3, color: MUTED },
      title: { fontSize: 30, bold: true, margin: [0, 0, 0, 8] },
      coverCompany: { fontSize: 20, color: MUTED },
      coverLabel: { fontSize: 11, color: MUTED, margin: [0, 3, 0, 3] },
      coverValue: { fontSize: 12, bold: true, margin: [0, 3, 0, 3] },
      h1: { fontSize: 20, bold: true, margin: [0, 0, 0, 12] },
      h2: { fontSize: 13, bold: true, margin: [0, 8, 0, 6] },
      lead: { fontSize: 11.5, lineHeight: 1.35, margin: [0, 0, 0, 14] },
      kpiLabel: { fontSize: 9, color: MUTED, bold: true },
      kpiValue: { fontSize: 22, bold: true, margin: [0, 2, 0, 0] },
      kpiNote: { fontSize: 8.5, color: MUTED },
      chartLabel: { fontSize: 10 },
      chartValue: { fontSize: 10, bold: true, alignment: 'right' },
      th: { fontSize: 9, bold: true, color: MUTED },
      td: { fontSize: 9.5 },
      running: { fontSize: 8.5, color: MUTED },
      small: { fontSize: 8.5, color: MUTED },
      partLabel: { fontSize: 8.5, bold: true, color: MUTED, margin: [0, 4, 0, 1] },
      partText: { fontSize: 9.5 },
      row: { fontSize: 8 },
      rowSeverity: { fontSize: 8, bold: true },
      code: { font: MONO, fontSize: 8.5, lineHeight: 1.15 },
      evidence: { font: MONO, fontSize: 7.5, lineHeight: 1.1 },
      vector: { font: MONO, fontSize: 8, color: MUTED, margin: [0, 2, 0, 2] },
    },
  }
}
