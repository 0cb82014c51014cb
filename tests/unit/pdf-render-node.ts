// The report's PDF rendered in Node with the browser build of the PDF library the export menu
// loads, its fonts read from the npm packages the build serves them from (pdf-fonts.ts).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { TDocumentDefinitions } from 'pdfmake/interfaces'
import { PDF_FONTS, pdfFontFiles, type PdfFontFile } from '#domain/report-pdf.ts'

const require = createRequire(import.meta.url)

const sources: Record<PdfFontFile, string> = {
  'RobotoMono-Regular.ttf': '@expo-google-fonts/roboto-mono/400Regular/RobotoMono_400Regular.ttf',
  'RobotoMono-Bold.ttf': '@expo-google-fonts/roboto-mono/700Bold/RobotoMono_700Bold.ttf',
  'NotoSansJP-Regular.ttf': '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  'NotoSansJP-Bold.ttf': '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
}

const pdfMake = require('pdfmake/build/pdfmake.js') as {
  addVirtualFileSystem(vfs: unknown): void
  addFonts(fonts: unknown): void
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Uint8Array> }
}
pdfMake.addVirtualFileSystem(require('pdfmake/build/vfs_fonts.js'))
pdfMake.addFonts(PDF_FONTS)
const loaded = new Set<PdfFontFile>()

export async function renderPdfInNode(doc: TDocumentDefinitions): Promise<Buffer> {
  const files = pdfFontFiles(doc).filter((file) => !loaded.has(file))
  pdfMake.addVirtualFileSystem(
    Object.fromEntries(files.map((file) => [file, readFileSync(require.resolve(sources[file])).toString('base64')])),
  )
  files.forEach((file) => loaded.add(file))
  return Buffer.from(await pdfMake.createPdf(doc).getBuffer())
}
