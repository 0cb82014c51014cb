// What every export of a service's findings shares (CSV, JSON, SARIF, PDF): the filters the screen
// had, the file name, a finding's text as it leaves, and what a finding may carry out of the product.
// Password audit findings never leave with their evidence: it is the one place a cracked
// password could have been pasted, and exports keep only masked values, lengths, classes and
// patterns.
import * as v from 'valibot'
import type { Finding } from './findings.ts'
import type { FindingHistoryEntry } from './finding-history.ts'
import type { ServiceId } from './services.ts'

export const EXPORT_FORMATS = ['pdf', 'csv', 'json', 'sarif'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** SARIF describes code and web or network locations: DAST and network findings have them. */
export const SARIF_SERVICES: readonly ServiceId[] = ['dast', 'network']

/**
 * The formats a person may download. Without results (stats only) there are no findings to
 * export: only the PDF of the figures.
 */
export function exportFormatsFor(service: ServiceId, withResults: boolean): ExportFormat[] {
  if (!withResults) return ['pdf']
  return EXPORT_FORMATS.filter((format) => format !== 'sarif' || SARIF_SERVICES.includes(service))
}

export const exportExtensions: Record<ExportFormat, string> = { pdf: 'pdf', csv: 'csv', json: 'json', sarif: 'sarif' }

/** The table's filters as the screen had them: a value, several values, or nothing. */
export const ExportFiltersSchema = v.record(v.string(), v.union([v.string(), v.array(v.string()), v.null()]))
export type ExportFilters = v.InferOutput<typeof ExportFiltersSchema>

/** Whether any filter narrows the findings (empty strings and lists do not). */
export const isFiltered = (filters: ExportFilters | null | undefined) =>
  Object.values(filters ?? {}).some((value) => (Array.isArray(value) ? value.length > 0 : value !== null && value.trim() !== ''))

/** The filters in words, for the PDF's cover: `severity: critical, high; status: open`. */
export function describeFilters(filters: ExportFilters | null | undefined): string {
  return Object.entries(filters ?? {})
    .filter(([, value]) => (Array.isArray(value) ? value.length > 0 : value !== null && value.trim() !== ''))
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : value}`)
    .join('; ')
}

/** A safe part of a file name: lower case letters, digits and single hyphens. */
export const fileNamePart = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'export'

/** `company-service-YYYY-MM-DD.ext`, the date in UTC. */
export const exportFileName = (company: string, service: string, at: number, format: ExportFormat) =>
  `${fileNamePart(company)}-${fileNamePart(service)}-${new Date(at).toISOString().slice(0, 10)}.${exportExtensions[format]}`

/** YYYY-MM-DD (UTC), or empty for no date. */
export const isoDate = (at: number | null | undefined) =>
  typeof at === 'number' && Number.isFinite(at) ? new Date(at).toISOString().slice(0, 10) : ''

/** A finding as it may leave the product: password audit findings lose their evidence. */
export function exportableFinding<F extends Finding>(finding: F): F {
  if (finding.service !== 'password_cracking') return finding
  return { ...finding, evidence: '' }
}

// Control characters other than tab and newline break viewers and layouts.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g

/** Text from a finding with its control characters removed (it is data, never layout or markup). */
export const cleanText = (text: string) => text.replace(CONTROL, '')

/**
 * An export written a page of findings at a time, so no list of them all is ever held: the text
 * before the findings, the text of each page as it arrives, and the text after. The whole-list
 * writers are the same three steps over one page.
 */
export interface FindingsEncoder {
  head(): string
  page(findings: readonly Finding[], history?: ReadonlyMap<string, readonly FindingHistoryEntry[]>): string
  tail(): string
}

export const encodeWhole = (
  encoder: FindingsEncoder,
  findings: readonly Finding[],
  history?: ReadonlyMap<string, readonly FindingHistoryEntry[]>,
) => encoder.head() + encoder.page(findings, history) + encoder.tail()

const ARRAY_MARK = '\u0000bulwark-array\u0000'

/**
 * A JSON document (indented by two, as `JSON.stringify(doc, null, 2)` writes it) with one array
 * written item by item: `withArray(mark)` is the document with that array replaced by `mark`.
 * Byte for byte what stringifying the whole document would give.
 */
export function jsonArrayWriter(withArray: (mark: string) => unknown) {
  const split = () => {
    const text = JSON.stringify(withArray(ARRAY_MARK), null, 2)
    const quoted = JSON.stringify(ARRAY_MARK)
    const at = text.indexOf(quoted)
    const indent = text.slice(text.lastIndexOf('\n', at) + 1).match(/^ */)![0]
    return { before: text.slice(0, at), after: text.slice(at + quoted.length), indent }
  }
  let written = 0
  let indent = ''
  return {
    head(): string {
      const parts = split()
      indent = parts.indent
      return `${parts.before}[`
    },
    item(value: unknown): string {
      const inner = `${indent}  `
      return `${written++ === 0 ? '' : ','}\n${inner}${JSON.stringify(value, null, 2).replace(/\n/g, `\n${inner}`)}`
    },
    /** The rest of the document, from `withArray` as it is now (a writer may fill parts in late). */
    tail(): string {
      const { after } = split()
      return `${written > 0 ? `\n${indent}` : ''}]${after}\n`
    },
  }
}
