// The PDF library (and its fonts), loaded only when a PDF is made, with the share of the document
// rendered reported as it goes (at most every hundredth).
import type { TDocumentDefinitions } from 'pdfmake/interfaces'
import { PDF_FONTS, pdfFontFiles, reportPdfLayout, type ReportPdfDigest } from '#domain/report-pdf.ts'
import { fetchPdfFonts } from './pdf-fonts'
import type { PdfWorkerMessage } from './pdf-worker'

export async function renderPdfBytes(doc: TDocumentDefinitions, onFraction: (fraction: number) => void): Promise<Uint8Array> {
  const [pdfMake, vfs, fonts] = await Promise.all([
    import('pdfmake/build/pdfmake'),
    import('pdfmake/build/vfs_fonts'),
    fetchPdfFonts(pdfFontFiles(doc)),
  ])
  const make = ('default' in pdfMake ? pdfMake.default : pdfMake) as typeof import('pdfmake/build/pdfmake')
  make.addVirtualFileSystem(('default' in vfs ? vfs.default : vfs) as Parameters<typeof make.addVirtualFileSystem>[0])
  make.addVirtualFileSystem(fonts)
  make.addFonts(PDF_FONTS)
  let reported = -1
  ;(make as unknown as { setProgressCallback(cb: (fraction: number) => void): void }).setProgressCallback((fraction) => {
    const step = Math.floor(fraction * 100)
    if (step > reported) onFraction((reported = step) / 100)
  })
  const buffer = await (make.createPdf(doc) as unknown as { getBuffer(): Promise<Uint8Array> }).getBuffer()
  return new Uint8Array(buffer)
}

/**
 * The report's file from its digest: in a worker where the browser has them (terminated at once
 * when the export is cancelled), else on the page.
 */
export function renderReportPdf(digest: ReportPdfDigest, onFraction: (fraction: number) => void, signal: AbortSignal): Promise<Uint8Array> {
  if (typeof Worker === 'undefined') return renderPdfBytes(reportPdfLayout(digest), onFraction)
  return new Promise<Uint8Array>((resolve, reject) => {
    const worker = new Worker(new URL('./pdf-worker.ts', import.meta.url), { type: 'module', name: 'pdf-report' })
    const stop = () => {
      worker.terminate()
      reject(signal.reason)
    }
    if (signal.aborted) return stop()
    signal.addEventListener('abort', stop, { once: true })
    const end = () => {
      signal.removeEventListener('abort', stop)
      worker.terminate()
    }
    worker.onmessage = (event: MessageEvent<PdfWorkerMessage>) => {
      const message = event.data
      if (message.type === 'progress') return onFraction(message.fraction)
      end()
      if (message.type === 'done') resolve(message.bytes)
      else reject(new Error(message.message))
    }
    worker.onerror = (event) => {
      end()
      reject(new Error(event.message || 'The PDF could not be made.'))
    }
    worker.postMessage(digest)
  })
}
