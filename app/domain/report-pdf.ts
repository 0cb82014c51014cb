// The PDF report of one service, as a page layout description (pdfmake's document definition):
// a cover, an executive summary with its charts drawn as vector shapes, and the findings. Pure:
// the export menu hands it to the PDF library, loaded only when someone exports. Every text from
// a finding or a company goes in as a plain string (Markdown reduced to words, control characters
// removed): never as markup or layout, so nothing in a finding can restyle or break the report.
// The findings are taken a page at a time (`reportPdfCollector`) into a plain digest that keeps
// what the report prints: every finding up to a few hundred; beyond that the worst in full and
// the rest as table rows. The layout is made from the digest alone (it can cross to a worker).
import type { Content, ContentTable, TDocumentDefinitions, TableCell } from 'pdfmake/interfaces'
import { findingStatusLabels, FINDING_STATUSES, type Finding } from './findings.ts'
import { formatNumber } from './numbers.ts'
import { passwordPatternLabels } from './password-audit.ts'
import { cleanText, describeFilters, excerpt, exportableFinding, isFiltered, type ExportFilters } from './report-export.ts'
import type { Scan, ServiceScanStats } from './scans.ts'
import { openTotal, type ServiceMonth, type ServiceStats } from './service-stats.ts'
import { services, type ServiceId } from './services.ts'
import { daysToRemediate, summariseRemediation, type RemediationSummary } from './sla.ts'
import { SEVERITIES, severityLabels, type Severity } from './template-vocabulary.ts'

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

/** Up to this many findings, each is listed with its description. */
export const PDF_LIST_ALL_UP_TO = 200
/** Beyond that, at most this many critical and high findings are printed in full… */
export const PDF_WORST_IN_FULL = 50
/** …and at most this many of the rest as rows of a table (the CSV export holds any number). */
export const PDF_TABLE_ROWS = 10_000

/** A finding as one row of the compact table. */
export interface PdfRow {
  id: string
  title: string
  severity: Severity
  status: Finding['status']
  asset: string
  lastSeen: string
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
    /** Every finding, when there are at most PDF_LIST_ALL_UP_TO. */
    all: Finding[] | null
    /** Otherwise: the worst in full, how many critical or high there were, and the rest as rows. */
    worst: PdfFullFinding[]
    worstTotal: number
    rows: PdfRow[]
    restTotal: number
  }
}

/** A finding printed in full: its words and figures, its dates in the reader's format. */
export interface PdfFullFinding {
  title: string
  severity: Severity
  status: Finding['status']
  asset: string
  cvss: string | null
  seen: string
  description: string
  impact: string
  remediation: string
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
const MUTED = '#5b6673'
const RULE = '#d5dae1'
const SOFT = '#f2f4f7'
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

const fixedDays = (f: Finding) => (f.fixedAt != null ? daysToRemediate(f.publishedAt, f.fixedAt) : null)

/** Time to remediate per severity, from the monthly figures or, without them, the findings. */
export function remediationBySeverity(months: readonly ServiceMonth[] | undefined, findings: readonly Finding[] | null) {
  const collector = remediationCollector(months)
  collector.add(findings ?? [])
  return collector.bySeverity()
}

/** The times to remediate, gathered a page of findings at a time unless the monthly figures hold them. */
function remediationCollector(months: readonly ServiceMonth[] | undefined) {
  const fromMonths = Boolean(months?.length)
  const values = Object.fromEntries(
    SEVERITIES.map((s) => [s, fromMonths ? months!.flatMap((m) => m.remediationDays[s] ?? []) : []]),
  ) as Record<Severity, number[]>
  return {
    add(findings: readonly Finding[]) {
      if (fromMonths) return
      for (const f of findings) {
        const d = fixedDays(f)
        if (d !== null) values[f.severity].push(d)
      }
    },
    bySeverity: () =>
      Object.fromEntries(SEVERITIES.map((s) => [s, summariseRemediation(values[s])])) as Record<Severity, RemediationSummary>,
    overall: () => summariseRemediation(SEVERITIES.flatMap((s) => values[s])),
  }
}

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

const tableLayout = {
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

function findingsSection(findings: readonly Finding[]): Content[] {
  if (findings.length === 0) return [heading('Findings', true), text('No findings match the filters of this export.', 'lead')]
  const body: TableCell[][] = [
    [
      { text: 'Finding', style: 'th' },
      { text: 'Severity', style: 'th' },
      { text: 'Status', style: 'th' },
      { text: 'Asset', style: 'th' },
    ],
  ]
  for (const raw of findings) {
    const f = exportableFinding(raw)
    const description = excerpt(f.description, 220)
    body.push([
      {
        stack: [
          { text: wrappable(f.title), style: 'findingTitle' },
          ...(description ? [{ text: wrappable(description), style: 'findingText' }] : []),
        ],
      },
      { text: severityLabels[f.severity], style: 'severity', color: severityColours[f.severity] },
      { text: findingStatusLabels[f.status], style: 'td' },
      { text: wrappable(f.asset), style: 'td' },
    ])
  }
  return [
    heading(`Findings (${formatNumber(findings.length)})`, true),
    {
      table: { headerRows: 1, dontBreakRows: true, widths: ['*', 62, 78, 120], body },
      layout: { ...tableLayout, paddingTop: () => 5, paddingBottom: () => 5 },
    },
  ]
}

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1).trimEnd()}…` : value)

function fullFinding(f: PdfFullFinding, first: boolean): Content {
  const part = (label: string, value: string): Content[] =>
    value
      ? [
          { text: label, style: 'partLabel' },
          { text: wrappable(value), style: 'partText' },
        ]
      : []
  return {
    stack: [
      { text: wrappable(f.title), style: 'h2' },
      {
        text: [
          { text: severityLabels[f.severity], bold: true, color: severityColours[f.severity] },
          `${f.cvss ? `  ·  CVSS ${f.cvss}` : ''}  ·  ${findingStatusLabels[f.status]}  ·  ${f.seen}`,
        ],
        style: 'td',
      },
      { text: wrappable(f.asset), style: 'findingText', margin: [0, 2, 0, 4] },
      ...part('Description', f.description),
      ...part('Impact', f.impact),
      ...part('Remediation', f.remediation),
    ],
    margin: [0, first ? 0 : 10, 0, 4],
  }
}

/** Many findings: the critical and high ones in full (up to a bound), then the rest as a compact table. */
function digestSection(found: NonNullable<ReportPdfDigest['findings']>): Content[] {
  const out: Content[] = [
    heading(`Findings (${formatNumber(found.count)})`, true),
    {
      text:
        `This report holds ${formatNumber(found.count)} findings: ` +
        (found.worst.length
          ? `${found.worst.length < found.worstTotal ? `the ${formatNumber(found.worst.length)} most severe of the ${formatNumber(found.worstTotal)}` : `the ${formatNumber(found.worst.length)}`} critical and high findings are described in full, the others listed in a table.`
          : 'they are listed in a table.') +
        ' The CSV and JSON exports hold every finding with all its details.',
      style: 'lead',
    },
  ]
  if (found.worst.length) {
    out.push(subheading(`Critical and high findings in full`))
    found.worst.forEach((f, i) => out.push(fullFinding(f, i === 0)))
  }
  if (found.restTotal > 0) {
    out.push(heading(found.worst.length ? `Other findings (${formatNumber(found.restTotal)})` : 'All findings', true))
    if (found.rows.length < found.restTotal)
      out.push({
        text: `The table lists the first ${formatNumber(found.rows.length)} of ${formatNumber(found.restTotal)}. Narrow the filters, or export CSV for all of them.`,
        style: 'lead',
      })
    out.push({
      table: {
        headerRows: 1,
        dontBreakRows: true,
        widths: ['*', 50, 70, 130, 58],
        body: [
          ['Finding', 'Severity', 'Status', 'Asset', 'Last seen'].map((h): TableCell => ({ text: h, style: 'th' })),
          ...found.rows.map((r): TableCell[] => [
            { text: wrappable(r.title), style: 'row' },
            { text: severityLabels[r.severity], style: 'rowSeverity', color: severityColours[r.severity] },
            { text: findingStatusLabels[r.status], style: 'row' },
            { text: wrappable(r.asset), style: 'row' },
            { text: r.lastSeen, style: 'row' },
          ]),
        ],
      },
      layout: { ...tableLayout, paddingTop: () => 2, paddingBottom: () => 2 },
    })
  }
  return out
}

type Collected = Omit<ReportPdfInput, 'findings'> & { withFindings: boolean }

/**
 * Takes the findings a page at a time and keeps only what the report prints: every finding up to
 * PDF_LIST_ALL_UP_TO; beyond that the worst (critical before high) and compact rows, bounded.
 */
export function reportPdfCollector(input: Collected) {
  const remediation = remediationCollector(input.months)
  let count = 0
  let firstSeen: number | null = null
  let all: Finding[] | null = []
  const worst = { critical: [] as Finding[], high: [] as Finding[] }
  let worstTotal = 0
  const rows: PdfRow[] = []
  const rowsKept = PDF_TABLE_ROWS + 2 * PDF_WORST_IN_FULL
  return {
    add(findings: readonly Finding[]) {
      if (!input.withFindings) return
      remediation.add(findings)
      for (const raw of findings) {
        const f = exportableFinding(raw)
        count++
        firstSeen = firstSeen === null ? f.firstSeenAt : Math.min(firstSeen, f.firstSeenAt)
        if (all && count <= PDF_LIST_ALL_UP_TO) all.push(f)
        else all = null
        if (f.severity === 'critical' || f.severity === 'high') {
          worstTotal++
          if (worst[f.severity].length < PDF_WORST_IN_FULL) worst[f.severity].push(f)
        }
        if (rows.length < rowsKept)
          rows.push({
            id: f.id,
            title: clip(cleanText(f.title), 160),
            severity: f.severity,
            status: f.status,
            asset: clip(cleanText(f.asset), 120),
            lastSeen: input.formatDate(f.lastSeenAt),
          })
      }
    },
    digest(): ReportPdfDigest {
      const { scan, formatDate: longDate } = input
      const from = firstSeen ?? scan?.startedAt ?? null
      const to = scan?.publishedAt ?? scan?.finishedAt ?? input.exportedAt
      const inFull = [...worst.critical, ...worst.high].slice(0, PDF_WORST_IN_FULL)
      const shown = new Set(inFull.map((f) => f.id))
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
              all,
              worst: all
                ? []
                : inFull.map((f) => ({
                    title: f.title,
                    severity: f.severity,
                    status: f.status,
                    asset: f.asset,
                    cvss: f.cvss ? `${f.cvss.score.toFixed(1)} (${f.cvss.vector})` : null,
                    seen: `first seen ${longDate(f.firstSeenAt)}, last seen ${longDate(f.lastSeenAt)}`,
                    description: excerpt(f.description, 900),
                    impact: excerpt(f.impact, 400),
                    remediation: excerpt(f.remediation, 600),
                  })),
              worstTotal: all ? 0 : worstTotal,
              rows: all ? [] : rows.filter((r) => !shown.has(r.id)).slice(0, PDF_TABLE_ROWS),
              restTotal: all ? 0 : count - inFull.length,
            }
          : null,
      }
    },
  }
}

/** The report's document definition, from its digest. */
export function reportPdfLayout(digest: ReportPdfDigest): TDocumentDefinitions {
  const found = digest.findings
  const title = `${serviceLabel(digest.service)} report: ${cleanText(digest.company.name)}`
  return {
    pageSize: 'A4',
    pageMargins: [MARGIN, 56, MARGIN, 56],
    info: { title, author: 'Bulwark', subject: serviceLabel(digest.service), creator: 'Bulwark' },
    content: [
      ...cover(digest),
      ...summary(digest),
      ...(found === null ? [] : found.all ? findingsSection(found.all) : digestSection(found)),
    ],
    header: (page) =>
      page === 1
        ? ''
        : {
            columns: [
              { text: cleanText(digest.company.name), style: 'running' },
              { text: `${serviceLabel(digest.service)} report`, style: 'running', alignment: 'right' },
            ],
            margin: [MARGIN, 24, MARGIN, 0],
          },
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
      severity: { fontSize: 9.5, bold: true },
      findingTitle: { fontSize: 10, bold: true },
      findingText: { fontSize: 8.5, color: MUTED, margin: [0, 2, 0, 0] },
      running: { fontSize: 8.5, color: MUTED },
      small: { fontSize: 8.5, color: MUTED },
      partLabel: { fontSize: 8.5, bold: true, color: MUTED, margin: [0, 4, 0, 1] },
      partText: { fontSize: 9.5 },
      row: { fontSize: 8 },
      rowSeverity: { fontSize: 8, bold: true },
    },
  }
}

/** The report of a list of findings held whole: the collector over one page, then the layout. */
export function reportPdfDocument(input: ReportPdfInput): TDocumentDefinitions {
  const collector = reportPdfCollector({ ...input, withFindings: input.findings !== null })
  collector.add(input.findings ?? [])
  return reportPdfLayout(collector.digest())
}
