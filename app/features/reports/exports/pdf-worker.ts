// Lays out and renders the PDF report off the page's thread, so the page stays responsive and
// shows the progress the PDF library reports. It gets the report's digest (plain data), answers
// with progress fractions and then the file's bytes.
import { reportPdfLayout, type ReportPdfDigest } from '#domain/report-pdf.ts'
import { renderPdfBytes } from './pdf-render'

export type PdfWorkerMessage =
  { type: 'progress'; fraction: number } | { type: 'done'; bytes: Uint8Array } | { type: 'failed'; message: string }

const post = (message: PdfWorkerMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer)

self.onmessage = async (event: MessageEvent<ReportPdfDigest>) => {
  try {
    const bytes = await renderPdfBytes(reportPdfLayout(event.data), (fraction) => post({ type: 'progress', fraction }))
    post({ type: 'done', bytes }, [bytes.buffer as ArrayBuffer])
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
