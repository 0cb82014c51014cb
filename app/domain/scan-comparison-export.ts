// A scan comparison as files: CSV (one row per change, with the findings CSV's field rules) and a
// versioned JSON document (`bulwark.scan-comparison`, version 1) naming the company and the service
// as the findings export does. Both list the same rows, in the comparison's order.
import * as v from 'valibot'
import { csvRow } from './report-csv.ts'
import { exportFileName, type ExportFormat } from './report-export.ts'
import { ExportCompanySchema, ExportServiceSchema, exportService, IsoTime, iso } from './report-json.ts'
import type { ScanComparison } from './scan-comparison.ts'
import type { Scan } from './scans.ts'
import type { ServiceId } from './services.ts'
import { SEVERITIES, severityLabels, type Severity } from './template-vocabulary.ts'

export const COMPARISON_EXPORT_SCHEMA = 'bulwark.scan-comparison'
export const COMPARISON_EXPORT_VERSION = 1

export const COMPARISON_CHANGES = [
  'new',
  'reopened',
  'persisting',
  'not_detected',
  'severity_changed',
  'asset_new',
  'asset_gone',
  'port_opened',
  'port_closed',
] as const
export type ComparisonChange = (typeof COMPARISON_CHANGES)[number]

export const comparisonChangeLabels: Record<ComparisonChange, string> = {
  new: 'New',
  reopened: 'Reopened',
  persisting: 'Persisting',
  not_detected: 'Not detected',
  severity_changed: 'Severity changed',
  asset_new: 'Asset new',
  asset_gone: 'Asset gone',
  port_opened: 'Port opened',
  port_closed: 'Port closed',
}

/** What is known of a finding besides its id (read for some, not all, of a comparison's findings). */
export interface ComparedFindingDetails {
  title: string
  asset: string
}

const Severity = v.picklist(SEVERITIES)
const Count = v.pipe(v.number(), v.integer(), v.minValue(0))

const ChangeRowSchema = v.object({
  change: v.picklist(COMPARISON_CHANGES),
  /** A finding's id, or an asset's. */
  id: v.string(),
  /** A finding's title (when known), an asset's label. */
  label: v.string(),
  asset: v.string(),
  severity: v.nullable(Severity),
  previousSeverity: v.nullable(Severity),
  port: v.nullable(v.pipe(v.number(), v.integer())),
})
export type ComparisonRow = v.InferOutput<typeof ChangeRowSchema>

const ScanRefSchema = v.object({
  id: v.string(),
  title: v.string(),
  scopeKey: v.string(),
  startedAt: IsoTime,
  publishedAt: v.nullable(IsoTime),
})

export const ComparisonExportSchema = v.object({
  schema: v.literal(COMPARISON_EXPORT_SCHEMA),
  version: v.literal(COMPARISON_EXPORT_VERSION),
  company: ExportCompanySchema,
  service: ExportServiceSchema,
  exportedAt: IsoTime,
  base: ScanRefSchema,
  target: ScanRefSchema,
  counts: v.object({
    new: Count,
    reopened: Count,
    persisting: Count,
    not_detected: Count,
    severity_changed: Count,
    asset_new: Count,
    asset_gone: Count,
    port_opened: Count,
    port_closed: Count,
  }),
  changes: v.array(ChangeRowSchema),
})
export type ComparisonExport = v.InferOutput<typeof ComparisonExportSchema>

/** The comparison as rows, change by change in the order above. */
export function comparisonRows(
  comparison: ScanComparison,
  details: ReadonlyMap<string, ComparedFindingDetails> = new Map(),
): ComparisonRow[] {
  const finding = (change: ComparisonChange, id: string, severity: Severity, previousSeverity: Severity | null = null): ComparisonRow => ({
    change,
    id,
    label: details.get(id)?.title ?? '',
    asset: details.get(id)?.asset ?? '',
    severity,
    previousSeverity,
    port: null,
  })
  const asset = (change: ComparisonChange, id: string, label: string, port: number | null = null): ComparisonRow => ({
    change,
    id,
    label,
    asset: label,
    severity: null,
    previousSeverity: null,
    port,
  })
  return [
    ...comparison.new.map((f) => finding('new', f.id, f.severity)),
    ...comparison.reopened.map((f) => finding('reopened', f.id, f.severity)),
    ...comparison.persisting.map((f) => finding('persisting', f.id, f.severity)),
    ...comparison.notDetected.map((f) => finding('not_detected', f.id, f.severity)),
    ...comparison.severityChanged.map((c) => finding('severity_changed', c.id, c.to, c.from)),
    ...comparison.assetsNew.map((a) => asset('asset_new', a.id, a.label)),
    ...comparison.assetsGone.map((a) => asset('asset_gone', a.id, a.label)),
    ...comparison.portsOpened.map((p) => asset('port_opened', p.assetId, p.label, p.port)),
    ...comparison.portsClosed.map((p) => asset('port_closed', p.assetId, p.label, p.port)),
  ]
}

export const COMPARISON_CSV_HEADERS = ['Change', 'ID', 'Title or asset', 'Asset', 'Severity', 'Previous severity', 'Port'] as const

/** The comparison as CSV text (RFC 4180, formula-safe, as the findings CSV), header first. */
export function comparisonCsv(rows: readonly ComparisonRow[]): string {
  const lines = [csvRow(COMPARISON_CSV_HEADERS)]
  for (const row of rows)
    lines.push(
      csvRow([
        comparisonChangeLabels[row.change],
        row.id,
        row.label,
        row.asset,
        row.severity ? severityLabels[row.severity] : '',
        row.previousSeverity ? severityLabels[row.previousSeverity] : '',
        row.port,
      ]),
    )
  return `${lines.join('\r\n')}\r\n`
}

export interface ComparisonExportInput {
  company: { slug: string; name: string }
  service: ServiceId
  exportedAt: number
  base: Scan
  target: Scan
  rows: readonly ComparisonRow[]
}

const scanRef = (scan: Scan) => ({
  id: scan.id,
  title: scan.title,
  scopeKey: scan.scopeKey,
  startedAt: iso(scan.startedAt),
  publishedAt: scan.publishedAt === null || scan.publishedAt === undefined ? null : iso(scan.publishedAt),
})

export function comparisonExport(input: ComparisonExportInput): ComparisonExport {
  const counts = Object.fromEntries(COMPARISON_CHANGES.map((c) => [c, 0])) as Record<ComparisonChange, number>
  for (const row of input.rows) counts[row.change]++
  return {
    schema: COMPARISON_EXPORT_SCHEMA,
    version: COMPARISON_EXPORT_VERSION,
    company: { slug: input.company.slug, name: input.company.name },
    service: exportService(input.service),
    exportedAt: iso(input.exportedAt),
    base: scanRef(input.base),
    target: scanRef(input.target),
    counts,
    changes: [...input.rows],
  }
}

export const comparisonJson = (input: ComparisonExportInput) => `${JSON.stringify(comparisonExport(input), null, 2)}\n`

/** Reads a comparison export back: the document, or the schema's issues. */
export const parseComparisonExport = (text: string) => v.safeParse(ComparisonExportSchema, JSON.parse(text))

/** `company-service-comparison-YYYY-MM-DD.ext`. */
export const comparisonFileName = (company: string, service: ServiceId, at: number, format: Extract<ExportFormat, 'csv' | 'json'>) =>
  exportFileName(company, `${service} comparison`, at, format)
