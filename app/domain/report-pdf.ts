// The PDF report of one service, as a page layout description (pdfmake's document definition):
// a cover, an executive summary with its charts drawn as vector shapes, and the findings. Pure:
// the export menu hands it to the PDF library, loaded only when someone exports. Every text from
// a finding or a company goes in as a plain string (Markdown reduced to words, control characters
// removed): never as markup or layout, so nothing in a finding can restyle or break the report.
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

/** Time to remediate per severity, from the monthly figures or, without them, the findings. */
export function remediationBySeverity(months: readonly ServiceMonth[] | undefined, findings: readonly Finding[] | null) {
  const out = {} as Record<Severity, RemediationSummary>
  for (const severity of SEVERITIES) {
    const values = months?.length
      ? months.flatMap((m) => m.remediationDays[severity] ?? [])
      : (findings ?? []).filter((f) => f.severity === severity && f.fixedAt != null).map((f) => daysToRemediate(f.publishedAt, f.fixedAt!))
    out[severity] = summariseRemediation(values)
  }
  return out
}

const overallRemediation = (months: readonly ServiceMonth[] | undefined, findings: readonly Finding[] | null) =>
  summariseRemediation(
    months?.length
      ? months.flatMap((m) => SEVERITIES.flatMap((s) => m.remediationDays[s] ?? []))
      : (findings ?? []).filter((f) => f.fixedAt != null).map((f) => daysToRemediate(f.publishedAt, f.fixedAt!)),
  )

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

function cover(input: ReportPdfInput, findings: readonly Finding[] | null): Content[] {
  const { scan, formatDate: longDate } = input
  const firstSeen = findings?.length ? Math.min(...findings.map((f) => f.firstSeenAt)) : null
  const from = firstSeen ?? scan?.startedAt ?? null
  const to = scan?.publishedAt ?? scan?.finishedAt ?? input.exportedAt
  const scope =
    findings === null
      ? 'Figures only'
      : isFiltered(input.filters)
        ? `${formatNumber(findings.length)} filtered findings (${describeFilters(input.filters)})`
        : `All ${formatNumber(findings.length)} findings`
  const rows: [string, string][] = [
    ['Company', input.company.name],
    ['Service', serviceLabel(input.service)],
    ['Period', from !== null && longDate(from) !== longDate(to) ? `${longDate(Math.min(from, to))} – ${longDate(to)}` : longDate(to)],
    ['Latest scan', scan ? `${scan.title}, ${longDate(scan.publishedAt ?? scan.startedAt)}` : 'No published scan yet'],
    ['Contents', scope],
    ['Prepared', longDate(input.exportedAt)],
  ]
  return [
    { text: 'BULWARK', style: 'brand', margin: [0, 40, 0, 120] },
    { text: `${serviceLabel(input.service)} report`, style: 'title' },
    text(input.company.name, 'coverCompany'),
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

function summary(input: ReportPdfInput, findings: readonly Finding[] | null): Content[] {
  const { stats, scan } = input
  const open = openTotal(stats.open)
  const breached = sum(stats.breached)
  const dueSoon = sum(stats.dueSoon)
  const urgent = (stats.open.critical ?? 0) + (stats.open.high ?? 0)
  const mttr = overallRemediation(input.months, findings)
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
  const remediation = remediationBySeverity(input.months, findings)
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

/** The report's document definition. */
export function reportPdfDocument(input: ReportPdfInput): TDocumentDefinitions {
  const findings = input.findings
  const title = `${serviceLabel(input.service)} report: ${cleanText(input.company.name)}`
  return {
    pageSize: 'A4',
    pageMargins: [MARGIN, 56, MARGIN, 56],
    info: { title, author: 'Bulwark', subject: serviceLabel(input.service), creator: 'Bulwark' },
    content: [...cover(input, findings), ...summary(input, findings), ...(findings ? findingsSection(findings) : [])],
    header: (page) =>
      page === 1
        ? ''
        : {
            columns: [
              { text: cleanText(input.company.name), style: 'running' },
              { text: `${serviceLabel(input.service)} report`, style: 'running', alignment: 'right' },
            ],
            margin: [MARGIN, 24, MARGIN, 0],
          },
    footer: (page, pages) =>
      page === 1
        ? ''
        : {
            columns: [
              { text: `Prepared ${input.formatDate(input.exportedAt)}`, style: 'running' },
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
    },
  }
}
