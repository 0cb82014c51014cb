// Builds one export file in the browser, page by page: each page of findings read is encoded and
// written at once (CSV rows, JSON items with their histories, SARIF results), so no list of all the
// findings is ever held; the PDF keeps only the digest it prints and is rendered in a worker.
// Loaded with `import()` when someone picks a format, so the writers (and, for the PDF, the layout
// library and its fonts) download only then.
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import { findingsCsvEncoder } from '#domain/report-csv.ts'
import { type ExportFilters, type ExportFormat, type FindingsEncoder } from '#domain/report-export.ts'
import { findingsJsonEncoder } from '#domain/report-json.ts'
import { reportPdfCollector } from '#domain/report-pdf-collector.ts'
import { findingsSarifEncoder } from '#domain/report-sarif.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceMonth, ServiceStats } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { formatTime } from '~/ui/local-time'
import type { ExportSink } from './export-sink'
import type { ExportSource } from './export-source'
import { unlessAborted } from './abortable'
import { renderReportPdf } from './pdf-render'

export interface ExportProgress {
  /** Reading and writing the findings, then (PDF) making the pages. */
  phase: 'reading' | 'pages'
  /** Findings read so far, of `total` (null until the count is in). */
  read: number
  total: number | null
  /** Findings the file holds so far. */
  kept: number
  /** Share of the pages made, for the PDF's second phase. */
  fraction?: number
}

export interface ExportRequest {
  format: ExportFormat
  company: { slug: string; name: string }
  service: ServiceId
  /** Null: the person sees the figures only, and gets no finding. */
  source: ExportSource | null
  filters: ExportFilters
  stats: ServiceStats
  scan: Scan | null
  months?: readonly ServiceMonth[]
  now: number
  /** Reads the findings' status histories (for the JSON export), a page's at a time. */
  loadHistory?: (ids: readonly string[]) => Promise<ReadonlyMap<string, readonly FindingHistoryEntry[]>>
  sink: ExportSink
  signal: AbortSignal
  onProgress: (progress: ExportProgress) => void
}

/** Writing the file failed (the disk, the folder), not reading the findings. */
export class ExportWriteError extends Error {
  override readonly name = 'ExportWriteError'
}

const written = async (write: Promise<void>) => {
  try {
    await write
  } catch (error) {
    throw new ExportWriteError(error instanceof Error ? error.message : String(error))
  }
}

function encoderFor(request: ExportRequest): FindingsEncoder | null {
  const meta = { company: request.company, service: request.service, exportedAt: request.now }
  switch (request.format) {
    case 'csv':
      return findingsCsvEncoder()
    case 'json':
      return findingsJsonEncoder({ ...meta, filters: request.filters, order: request.source?.order })
    case 'sarif':
      return findingsSarifEncoder({
        service: request.service,
        company: request.company.slug,
        exportedAt: request.now,
        informationUri: typeof location === 'undefined' ? undefined : location.origin,
      })
    case 'pdf':
      return null
  }
}

/** Writes the export into the sink; resolves with how many findings it holds. Aborts the sink on any failure. */
export async function buildExport(request: ExportRequest): Promise<{ findings: number }> {
  const { sink, signal, source } = request
  try {
    const held = await writeExport(request, source)
    signal.throwIfAborted()
    await written(sink.finish())
    return { findings: held }
  } catch (error) {
    await sink.abort()
    throw error
  }
}

async function writeExport(request: ExportRequest, source: ExportSource | null): Promise<number> {
  const { sink, signal, onProgress } = request
  if (source === null && request.format !== 'pdf') throw new Error('Only the PDF of the figures is available without the results.')
  const progress: ExportProgress = { phase: 'reading', read: 0, total: null, kept: 0 }
  let counted = false
  onProgress({ ...progress })
  // The count runs beside the first page: the bar gets its end as soon as the database says.
  source
    ?.count()
    .then((total) => {
      if (signal.aborted || counted) return
      progress.total = Math.max(total, progress.read)
      onProgress({ ...progress })
    })
    .catch(() => {})

  const encoder = encoderFor(request)
  const pdf =
    request.format === 'pdf'
      ? reportPdfCollector({
          company: request.company,
          service: request.service,
          exportedAt: request.now,
          stats: request.stats,
          scan: request.scan,
          months: request.months,
          filters: request.filters,
          order: source?.order,
          withFindings: source !== null,
          formatDate: (at) => formatTime(at, 'date'),
        })
      : null
  if (encoder) await written(sink.write(`${request.format === 'csv' ? '\ufeff' : ''}${encoder.head()}`))

  const pages = source?.pages(signal)[Symbol.asyncIterator]()
  // Cancelling stops the wait for a page at once; the source is told to stop too.
  signal.addEventListener('abort', () => void pages?.return?.().catch(() => {}), { once: true })
  while (pages) {
    const next = await unlessAborted(pages.next(), signal)
    if (next.done) break
    const page = next.value
    if (encoder) {
      const history =
        request.format === 'json' && request.loadHistory && page.findings.length
          ? await unlessAborted(request.loadHistory(page.findings.map((f) => f.id)), signal)
          : undefined
      signal.throwIfAborted()
      await written(sink.write(encoder.page(page.findings, history)))
    }
    pdf?.add(page.findings)
    progress.read += page.read
    progress.kept += page.findings.length
    // A count taken before findings were added must not end the bar early.
    if (progress.total !== null && progress.read > progress.total) progress.total = progress.read
    onProgress({ ...progress })
  }
  signal.throwIfAborted()
  // Read to the end: what was read is the total, whatever the count said (findings come and go).
  counted = true
  progress.total = progress.read
  onProgress({ ...progress })

  if (encoder) await written(sink.write(encoder.tail()))
  if (pdf) {
    const bytes = await renderReportPdf(pdf.digest(), (fraction) => onProgress({ ...progress, phase: 'pages', fraction }), signal)
    signal.throwIfAborted()
    await written(sink.write(bytes))
  }
  return progress.kept
}
