// A service's findings as a versioned JSON document (`bulwark.findings`, version 1): the company,
// the service, when it was exported, the screen's filters, and each finding with its status
// history. Times are ISO 8601 (UTC). The document has its own schema, which readers (and the
// tests) parse it with; a change that breaks readers takes a new version.
import * as v from 'valibot'
import { FINDING_STATUSES, type Finding } from './findings.ts'
import type { FindingHistoryEntry } from './finding-history.ts'
import {
  encodeWhole,
  ExportFiltersSchema,
  exportableFinding,
  jsonArrayWriter,
  type ExportFilters,
  type FindingsEncoder,
} from './report-export.ts'
import { ServiceIdSchema, services, type ServiceId } from './services.ts'
import { SEVERITIES } from './template-vocabulary.ts'

export const FINDINGS_EXPORT_SCHEMA = 'bulwark.findings'
export const FINDINGS_EXPORT_VERSION = 1

export const IsoTime = v.pipe(v.string(), v.isoTimestamp())
const Status = v.picklist(FINDING_STATUSES)

const HistoryExportSchema = v.object({
  at: IsoTime,
  action: v.string(),
  from: Status,
  to: Status,
  by: v.string(),
  role: v.string(),
  note: v.nullable(v.string()),
  severityFrom: v.optional(v.string()),
  severityTo: v.optional(v.string()),
})

const FindingExportSchema = v.object({
  id: v.string(),
  fingerprint: v.string(),
  title: v.string(),
  severity: v.picklist(SEVERITIES),
  cvss: v.nullable(v.object({ version: v.string(), vector: v.string(), score: v.pipe(v.number(), v.minValue(0), v.maxValue(10)) })),
  cwe: v.array(v.string()),
  tags: v.array(v.string()),
  template: v.nullable(v.string()),
  asset: v.string(),
  location: v.record(v.string(), v.string()),
  description: v.string(),
  impact: v.string(),
  remediation: v.string(),
  references: v.array(v.string()),
  evidence: v.string(),
  status: Status,
  regression: v.boolean(),
  sla: v.object({
    state: v.picklist(['none', 'ok', 'due_soon', 'breached', 'paused']),
    startedAt: IsoTime,
    dueAt: v.nullable(IsoTime),
    fixedWithinSla: v.nullable(v.boolean()),
  }),
  firstSeen: v.object({ at: IsoTime, scanId: v.string() }),
  lastSeen: v.object({ at: IsoTime, scanId: v.string() }),
  seenCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  publishedAt: IsoTime,
  closedAt: v.nullable(IsoTime),
  fixedAt: v.nullable(IsoTime),
  history: v.array(HistoryExportSchema),
})

/** Which company and service an export is of: every export document names them alike. */
export const ExportCompanySchema = v.object({ slug: v.string(), name: v.string() })
export const ExportServiceSchema = v.object({ id: ServiceIdSchema, label: v.string() })
export const exportService = (service: ServiceId) => ({ id: service, label: services.find((s) => s.id === service)?.label ?? service })

/** The export document: what readers parse it with. */
export const FindingsExportSchema = v.object({
  schema: v.literal(FINDINGS_EXPORT_SCHEMA),
  version: v.literal(FINDINGS_EXPORT_VERSION),
  company: ExportCompanySchema,
  service: ExportServiceSchema,
  exportedAt: IsoTime,
  filters: ExportFiltersSchema,
  /** The order the findings are in, in words (exports written page by page say it). */
  order: v.optional(v.string()),
  findings: v.array(FindingExportSchema),
})

export type FindingsExport = v.InferOutput<typeof FindingsExportSchema>
export type FindingExport = FindingsExport['findings'][number]

export const iso = (at: number) => new Date(at).toISOString()
const isoOrNull = (at: number | null | undefined) => (typeof at === 'number' ? iso(at) : null)

export interface FindingsExportInput {
  company: { slug: string; name: string }
  service: ServiceId
  exportedAt: number
  filters: ExportFilters
  /** The order the findings are in, in words. */
  order?: string
  findings: readonly Finding[]
  /** Each finding's history by its id, oldest first; a finding without an entry exports an empty history. */
  history?: ReadonlyMap<string, readonly FindingHistoryEntry[]>
}

export function findingExport(finding: Finding, history: readonly FindingHistoryEntry[] = []): FindingExport {
  const f = exportableFinding(finding)
  return {
    id: f.id,
    fingerprint: f.fingerprint,
    title: f.title,
    severity: f.severity,
    cvss: f.cvss ? { version: f.cvss.version, vector: f.cvss.vector, score: f.cvss.score } : null,
    cwe: [...f.cwe],
    tags: [...f.tags],
    template: f.templateSlug ?? null,
    asset: f.asset,
    location: Object.fromEntries(Object.entries(f.location).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    description: f.description,
    impact: f.impact,
    remediation: f.remediation,
    references: [...f.references],
    evidence: f.evidence,
    status: f.status,
    regression: f.regression,
    sla: { state: f.slaState, startedAt: iso(f.sla.startedAt), dueAt: isoOrNull(f.sla.dueAt), fixedWithinSla: f.fixedWithinSla ?? null },
    firstSeen: { at: iso(f.firstSeenAt), scanId: f.firstSeenScanId },
    lastSeen: { at: iso(f.lastSeenAt), scanId: f.lastSeenScanId },
    seenCount: f.seenCount,
    publishedAt: iso(f.publishedAt),
    closedAt: isoOrNull(f.closedAt),
    fixedAt: isoOrNull(f.fixedAt),
    history: [...history]
      .sort((a, b) => a.at - b.at)
      .map((h) => ({
        at: iso(h.at),
        action: h.action,
        from: h.from,
        to: h.to,
        by: h.byName,
        role: h.role,
        note: h.note ?? null,
        ...(h.severityFrom !== undefined ? { severityFrom: h.severityFrom } : {}),
        ...(h.severityTo !== undefined ? { severityTo: h.severityTo } : {}),
      })),
  }
}

/** Everything but the findings, in the document's order. */
const exportHead = (input: Omit<FindingsExportInput, 'findings' | 'history'>) => ({
  schema: FINDINGS_EXPORT_SCHEMA,
  version: FINDINGS_EXPORT_VERSION,
  company: { slug: input.company.slug, name: input.company.name },
  service: exportService(input.service),
  exportedAt: iso(input.exportedAt),
  filters: input.filters,
  ...(input.order !== undefined ? { order: input.order } : {}),
})

/** The document written a page at a time; each page brings its findings' histories. */
export function findingsJsonEncoder(input: Omit<FindingsExportInput, 'findings' | 'history'>): FindingsEncoder {
  const writer = jsonArrayWriter((findings) => ({ ...exportHead(input), findings }))
  return {
    head: writer.head,
    page: (findings, history) => findings.map((f) => writer.item(findingExport(f, history?.get(f.id)))).join(''),
    tail: writer.tail,
  }
}

/** The document as text, indented so people can read it too. */
export const findingsJson = (input: FindingsExportInput) => encodeWhole(findingsJsonEncoder(input), input.findings, input.history)

/** Reads an export back: the document, or the schema's issues. */
export const parseFindingsExport = (text: string) => v.safeParse(FindingsExportSchema, JSON.parse(text))
