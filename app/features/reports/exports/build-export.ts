// Builds one export file in the browser. Loaded with `import()` when someone picks a format, so
// the writers (and, for the PDF, the layout library and its fonts) download only then.
import type { Finding } from '#domain/findings.ts'
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import { findingsCsv } from '#domain/report-csv.ts'
import { exportFileName, type ExportFilters, type ExportFormat } from '#domain/report-export.ts'
import { findingsJson } from '#domain/report-json.ts'
import { reportPdfDocument } from '#domain/report-pdf.ts'
import { findingsSarifText } from '#domain/report-sarif.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceMonth, ServiceStats } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { formatTime } from '~/ui/local-time'

export interface ExportRequest {
  format: ExportFormat
  company: { slug: string; name: string }
  service: ServiceId
  /** Null: the person sees the figures only, and gets no finding. */
  findings: readonly Finding[] | null
  filters: ExportFilters
  stats: ServiceStats
  scan: Scan | null
  months?: readonly ServiceMonth[]
  now: number
  /** Reads the findings' status histories (for the JSON export). */
  loadHistory?: (ids: readonly string[]) => Promise<ReadonlyMap<string, readonly FindingHistoryEntry[]>>
}

export interface ExportFile {
  name: string
  blob: Blob
}

async function renderPdf(request: ExportRequest): Promise<Blob> {
  const [pdfMake, vfs] = await Promise.all([import('pdfmake/build/pdfmake'), import('pdfmake/build/vfs_fonts')])
  const make = ('default' in pdfMake ? pdfMake.default : pdfMake) as typeof import('pdfmake/build/pdfmake')
  make.addVirtualFileSystem(('default' in vfs ? vfs.default : vfs) as Parameters<typeof make.addVirtualFileSystem>[0])
  const doc = reportPdfDocument({
    company: request.company,
    service: request.service,
    exportedAt: request.now,
    stats: request.stats,
    scan: request.scan,
    months: request.months,
    findings: request.findings,
    filters: request.filters,
    formatDate: (at) => formatTime(at, 'date'),
  })
  return make.createPdf(doc).getBlob()
}

export async function buildExport(request: ExportRequest): Promise<ExportFile> {
  const name = exportFileName(request.company.name || request.company.slug, request.service, request.now, request.format)
  const findings = request.findings
  if (request.format === 'pdf') return { name, blob: await renderPdf(request) }
  if (findings === null) throw new Error('Only the PDF of the figures is available without the results.')
  switch (request.format) {
    case 'csv':
      // The byte order mark makes spreadsheet programs read the file as UTF-8.
      return { name, blob: new Blob(['\ufeff', findingsCsv(findings)], { type: 'text/csv;charset=utf-8' }) }
    case 'json': {
      const history = request.loadHistory ? await request.loadHistory(findings.map((f) => f.id)) : undefined
      const text = findingsJson({
        company: request.company,
        service: request.service,
        exportedAt: request.now,
        filters: request.filters,
        findings,
        history,
      })
      return { name, blob: new Blob([text], { type: 'application/json' }) }
    }
    case 'sarif': {
      const text = findingsSarifText({
        service: request.service,
        company: request.company.slug,
        exportedAt: request.now,
        findings,
        informationUri: typeof location === 'undefined' ? undefined : location.origin,
      })
      return { name, blob: new Blob([text], { type: 'application/sarif+json' }) }
    }
  }
}
