// A service's findings as CSV (RFC 4180): a header row, CRLF line ends, fields quoted when they
// hold a comma, a quote or a line break. Cells that a spreadsheet would read as a formula (they
// start with = + - @, a tab or a carriage return) get a leading apostrophe, so opening the file
// never runs what a scanned page or a tag put there.
import { findingStatusLabels, type Finding } from './findings.ts'
import { cleanText, encodeWhole, exportableFinding, isoDate, type FindingsEncoder } from './report-export.ts'
import { severityLabels } from './template-vocabulary.ts'

const slaStateLabels: Record<Finding['slaState'], string> = {
  none: 'No deadline',
  ok: 'On track',
  due_soon: 'Due soon',
  breached: 'Breached',
  paused: 'Paused',
}

/** The columns, in order: a header and how each finding fills it. */
export const CSV_COLUMNS: readonly { header: string; value: (f: Finding) => string | number | null | undefined }[] = [
  { header: 'ID', value: (f) => f.id },
  { header: 'Title', value: (f) => f.title },
  { header: 'Severity', value: (f) => severityLabels[f.severity] },
  { header: 'CVSS score', value: (f) => (f.cvss ? f.cvss.score.toFixed(1) : '') },
  { header: 'CVSS vector', value: (f) => f.cvss?.vector ?? '' },
  { header: 'Status', value: (f) => findingStatusLabels[f.status] },
  { header: 'SLA', value: (f) => slaStateLabels[f.slaState] },
  { header: 'Due', value: (f) => isoDate(f.sla.dueAt) },
  { header: 'Asset', value: (f) => f.asset },
  { header: 'First seen', value: (f) => isoDate(f.firstSeenAt) },
  { header: 'Last seen', value: (f) => isoDate(f.lastSeenAt) },
  { header: 'Tags', value: (f) => f.tags.join('; ') },
  { header: 'Template', value: (f) => f.templateSlug ?? '' },
]

const FORMULA_START = /^[=+\-@\t\r]/

/** One field: guarded against formulas, then quoted when RFC 4180 asks for it. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : cleanText(String(value))
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvRow = (fields: readonly (string | number | null | undefined)[]) => fields.map(csvField).join(',')

/** The CSV written a page at a time: the header row first, every row ending with a line break. */
export function findingsCsvEncoder(): FindingsEncoder {
  return {
    head: () => `${csvRow(CSV_COLUMNS.map((c) => c.header))}\r\n`,
    page(findings) {
      let out = ''
      for (const finding of findings) {
        const safe = exportableFinding(finding)
        out += `${csvRow(CSV_COLUMNS.map((c) => c.value(safe)))}\r\n`
      }
      return out
    },
    tail: () => '',
  }
}

/** The findings as CSV text, header first; the file ends with a line break. */
export const findingsCsv = (findings: readonly Finding[]): string => encodeWhole(findingsCsvEncoder(), findings)
