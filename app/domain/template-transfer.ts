// Moving finding templates in and out of the library as JSON or CSV files. Importing only plans:
// it says, row by row, what would be created, updated, left alone or refused, and hands back the
// templates to write; the caller writes them (with createdAt, updatedAt and updatedBy).
//
// JSON: { format: 'bulwark.finding-templates', version: 1, templates: [...] }, each template with
// its fields plus createdAt/updatedAt (ISO 8601) and updatedBy.
//
// CSV: one template per row after a header row, columns in TEMPLATE_CSV_COLUMNS order. A list is
// one item per line inside its cell (an address may hold ";" or ","); on import, tags, CWE ids and
// services may also be separated by commas or semicolons. A cell that a spreadsheet would run as
// a formula (starting with =, +, -, @, tab or carriage return) or that starts with an apostrophe
// is written with one more apostrophe in front, which importing removes.
//
// Both: createdAt, updatedAt, updatedBy (and CSV's cvss_score, derived from the vector) are
// written for readers; importing keeps the library's own. A missing slug is made from the title.
// A row for an existing slug changes only the fields the file has (a CSV may leave out columns).
import Papa from 'papaparse'
import * as v from 'valibot'
import {
  TEMPLATE_CONTENT_FIELDS,
  TemplateInputSchema,
  templateIssuesMessage,
  type FindingTemplate,
  type TemplateInput,
} from './finding-template.ts'
import { slugifyTitle, type TemplateImportRow } from './template-library-calls.ts'

export const TEMPLATE_EXPORT_FORMAT = 'bulwark.finding-templates'
export const TEMPLATE_EXPORT_VERSION = 1

export type TemplateFileFormat = 'json' | 'csv'

export interface TemplateImportWrite {
  outcome: 'created' | 'updated'
  template: TemplateInput
}

export type TemplateImportPlan =
  { ok: true; format: TemplateFileFormat; rows: TemplateImportRow[]; writes: TemplateImportWrite[] } | { ok: false; error: string }

/** A row as read from a file: the fields it gives, or why it cannot be read. */
type SourceRow = { row: number; fields: Record<string, unknown> } | { row: number; error: string }

const contentOf = (template: TemplateInput): TemplateInput =>
  Object.fromEntries(TEMPLATE_CONTENT_FIELDS.map((field) => [field, template[field]])) as unknown as TemplateInput

const isoTime = (epochMs: number) => new Date(epochMs).toISOString()

const BYTE_ORDER_MARK = '\uFEFF'

// --- JSON

const JSON_METADATA_FIELDS = ['createdAt', 'updatedAt', 'updatedBy']

export function exportTemplatesJson(templates: readonly FindingTemplate[]): string {
  const exported = templates.map((template) => ({
    ...contentOf(template),
    createdAt: isoTime(template.createdAt),
    updatedAt: isoTime(template.updatedAt),
    updatedBy: template.updatedBy,
  }))
  return `${JSON.stringify({ format: TEMPLATE_EXPORT_FORMAT, version: TEMPLATE_EXPORT_VERSION, templates: exported }, null, 2)}\n`
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function readJson(text: string): SourceRow[] | string {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    return `The file is not valid JSON (${(error as Error).message})`
  }
  if (!isRecord(document) || document.format !== TEMPLATE_EXPORT_FORMAT)
    return `The file is not an export of finding templates (format "${TEMPLATE_EXPORT_FORMAT}")`
  if (document.version !== TEMPLATE_EXPORT_VERSION)
    return `The file is version ${JSON.stringify(document.version)} of the export format; this version of the product reads version ${TEMPLATE_EXPORT_VERSION}`
  if (!Array.isArray(document.templates)) return 'The file has no list of templates'
  return document.templates.map((template: unknown, index) => {
    const row = index + 1
    if (!isRecord(template)) return { row, error: 'A template is an object of fields' }
    return { row, fields: Object.fromEntries(Object.entries(template).filter(([field]) => !JSON_METADATA_FIELDS.includes(field))) }
  })
}

// --- CSV

export const TEMPLATE_CSV_COLUMNS = [
  'slug',
  'title',
  'severity',
  'status',
  'cvss_vector',
  'cvss_score',
  'cwe',
  'tags',
  'services',
  'references',
  'description',
  'impact',
  'remediation',
  'created_at',
  'updated_at',
  'updated_by',
] as const

type CsvColumn = (typeof TEMPLATE_CSV_COLUMNS)[number]

const CSV_LIST_SEPARATOR = '\n'
const LINE_BREAKS = /\r\n|\r|\n/
const LINE_BREAKS_COMMAS_SEMICOLONS = /\r\n|\r|\n|,|;/

const csvCells: Record<CsvColumn, (template: FindingTemplate) => string> = {
  slug: (template) => template.slug,
  title: (template) => template.title,
  severity: (template) => template.severity,
  status: (template) => template.status,
  cvss_vector: (template) => template.cvss?.vector ?? '',
  cvss_score: (template) => (template.cvss ? String(template.cvss.score) : ''),
  cwe: (template) => template.cwe.join(CSV_LIST_SEPARATOR),
  tags: (template) => template.tags.join(CSV_LIST_SEPARATOR),
  services: (template) => template.services.join(CSV_LIST_SEPARATOR),
  references: (template) => template.references.join(CSV_LIST_SEPARATOR),
  description: (template) => template.description,
  impact: (template) => template.impact,
  remediation: (template) => template.remediation,
  created_at: (template) => isoTime(template.createdAt),
  updated_at: (template) => isoTime(template.updatedAt),
  updated_by: (template) => template.updatedBy,
}

const FORMULA_START = /^[=+\-@\t\r']/
const protectFromFormula = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell)
const unprotect = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell)

export function exportTemplatesCsv(templates: readonly FindingTemplate[]): string {
  const data = templates.map((template) => TEMPLATE_CSV_COLUMNS.map((column) => protectFromFormula(csvCells[column](template))))
  // The byte order mark makes spreadsheets read the file as UTF-8.
  return `${BYTE_ORDER_MARK}${Papa.unparse({ fields: [...TEMPLATE_CSV_COLUMNS], data }, { newline: '\r\n' })}\r\n`
}

const splitList = (cell: string, separators: RegExp) =>
  cell
    .split(separators)
    .map((item) => item.trim())
    .filter((item) => item !== '')

/** The template fields a CSV row gives; columns the header lacks are left out. */
function fieldsOfCsvRow(cells: ReadonlyMap<CsvColumn, string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const field of ['slug', 'title', 'severity', 'status', 'description', 'impact', 'remediation'] as const) {
    const cell = cells.get(field)
    if (cell !== undefined) fields[field] = cell
  }
  for (const field of ['cwe', 'tags', 'services'] as const) {
    const cell = cells.get(field)
    if (cell !== undefined) fields[field] = splitList(cell, LINE_BREAKS_COMMAS_SEMICOLONS)
  }
  const references = cells.get('references')
  if (references !== undefined) fields.references = splitList(references, LINE_BREAKS)
  const vector = cells.get('cvss_vector')
  if (vector !== undefined) {
    const score = cells.get('cvss_score') ?? ''
    fields.cvss = vector.trim() === '' ? null : { vector, ...(score.trim() === '' ? {} : { score }) }
  }
  return fields
}

const isCsvColumn = (name: string): name is CsvColumn => (TEMPLATE_CSV_COLUMNS as readonly string[]).includes(name)

function readCsv(text: string): SourceRow[] | string {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true, delimitersToGuess: [',', ';', '\t'] })
  // A file of one column has no delimiter to find; Papa then reads commas, which is right.
  const broken = parsed.errors.find((error) => error.type !== 'Delimiter')
  if (broken) return `The CSV file cannot be read at row ${(broken.row ?? 0) + 1}: ${broken.message}`
  const [header = [], ...records] = parsed.data
  const columns = header.map((name) => name.trim().toLowerCase())
  const unknown = columns.filter((name) => !isCsvColumn(name))
  if (unknown.length > 0)
    return `Unknown columns: ${unknown.map((name) => `"${name}"`).join(', ')}. The columns are: ${TEMPLATE_CSV_COLUMNS.join(', ')}`
  const repeated = columns.find((name, index) => columns.indexOf(name) !== index)
  if (repeated) return `The column ${repeated} appears more than once`
  if (!columns.includes('slug') && !columns.includes('title')) return 'The file needs a slug or a title column'
  return records.map((record, index) => {
    const row = index + 2
    if (record.length !== columns.length) return { row, error: `The row has ${record.length} cells; the header has ${columns.length}` }
    return {
      row,
      fields: fieldsOfCsvRow(new Map(columns.map((column, position) => [column as CsvColumn, unprotect(record[position] ?? '')]))),
    }
  })
}

// --- Import plan

function isSameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => isSameValue(item, b[index]))
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && isSameValue(a[key], b[key]))
  }
  return false
}

const isBlank = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '')

/** The row's slug, made from the title when the row has none; null when it cannot be told. */
function slugOfRow({ slug, title }: Record<string, unknown>): string | null {
  if (typeof slug === 'string' && !isBlank(slug)) return slug.trim()
  if (isBlank(slug) && typeof title === 'string' && !isBlank(title)) return slugifyTitle(title)
  return null
}

function formatOf(name: string | undefined, text: string): TemplateFileFormat {
  const extension = /\.(json|csv)$/i.exec(name ?? '')?.[1]?.toLowerCase()
  if (extension === 'json' || extension === 'csv') return extension
  return /^\s*[{[]/.test(text) ? 'json' : 'csv'
}

/**
 * What importing a file into the library would do, row by row. The format follows the file name's
 * extension, else the content (JSON starts with "{"). Rows repeating an earlier row's slug are refused.
 */
export function planTemplateImport(file: { name?: string; text: string }, library: readonly FindingTemplate[]): TemplateImportPlan {
  const text = file.text.startsWith(BYTE_ORDER_MARK) ? file.text.slice(BYTE_ORDER_MARK.length) : file.text
  if (text.trim() === '') return { ok: false, error: 'The file is empty' }
  const format = formatOf(file.name, text)
  const source = format === 'json' ? readJson(text) : readCsv(text)
  if (typeof source === 'string') return { ok: false, error: source }

  const existing = new Map(library.map((template) => [template.slug, template]))
  const firstRowOfSlug = new Map<string, number>()
  const rows: TemplateImportRow[] = []
  const writes: TemplateImportWrite[] = []
  for (const sourceRow of source) {
    const { row } = sourceRow
    if ('error' in sourceRow) {
      rows.push({ row, slug: null, outcome: 'refused', reason: sourceRow.error })
      continue
    }
    const slug = slugOfRow(sourceRow.fields)
    const earlier = slug === null ? undefined : firstRowOfSlug.get(slug)
    if (earlier !== undefined) {
      rows.push({ row, slug, outcome: 'refused', reason: `Row ${earlier} of this file has the same slug` })
      continue
    }
    if (slug !== null) firstRowOfSlug.set(slug, row)
    const current = slug === null ? undefined : existing.get(slug)
    const fields = slug === null ? sourceRow.fields : { ...sourceRow.fields, slug }
    const result = v.safeParse(TemplateInputSchema, { ...(current && contentOf(current)), ...fields })
    if (!result.success) {
      rows.push({ row, slug, outcome: 'refused', reason: templateIssuesMessage(result.issues) })
      continue
    }
    if (current && isSameValue(result.output, contentOf(current))) {
      rows.push({ row, slug: result.output.slug, outcome: 'unchanged' })
      continue
    }
    const outcome = current ? 'updated' : 'created'
    rows.push({ row, slug: result.output.slug, outcome })
    writes.push({ outcome, template: result.output })
  }
  return { ok: true, format, rows, writes }
}
