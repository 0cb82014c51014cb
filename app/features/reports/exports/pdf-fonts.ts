// The report's own font files (npm: @expo-google-fonts/roboto-mono for code and evidence,
// @expo-google-fonts/noto-sans-jp for Japanese and Chinese text), served as files of the build and
// fetched only when a PDF needs them: the CJK font only for a report that has such text.
import notoBold from '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf?url'
import notoRegular from '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf?url'
import monoBold from '@expo-google-fonts/roboto-mono/700Bold/RobotoMono_700Bold.ttf?url'
import monoRegular from '@expo-google-fonts/roboto-mono/400Regular/RobotoMono_400Regular.ttf?url'
import type { PdfFontFile } from '#domain/report-pdf.ts'

const urls: Record<PdfFontFile, string> = {
  'RobotoMono-Regular.ttf': monoRegular,
  'RobotoMono-Bold.ttf': monoBold,
  'NotoSansJP-Regular.ttf': notoRegular,
  'NotoSansJP-Bold.ttf': notoBold,
}

const base64 = (bytes: Uint8Array) => {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The files as the PDF library's virtual file system takes them (base64). */
export async function fetchPdfFonts(files: readonly PdfFontFile[]): Promise<Record<string, string>> {
  const loaded = await Promise.all(
    files.map(async (file) => {
      const response = await fetch(new URL(urls[file], location.href))
      if (!response.ok) throw new Error(`The report's font ${file} could not be loaded (${response.status}).`)
      return [file, base64(new Uint8Array(await response.arrayBuffer()))] as const
    }),
  )
  return Object.fromEntries(loaded)
}
