// Where an export's bytes go as they are made. Where the browser lets a page write a file
// (Chromium's showSaveFilePicker), straight into the file the person picked; elsewhere (and in the
// desktop app, whose save dialog takes the whole file) into Blob parts of encoded bytes, saved at the
// end. A cancelled export writes nothing: the picked file's stream is aborted (the browser keeps
// the earlier content, and an empty new file is removed), and the parts are dropped.
import { saveFile } from '~/platform/save-file'
import { isDesktopApp } from '~/platform/desktop'

export interface ExportSink {
  write(chunk: string | Uint8Array): Promise<void>
  /** The file is complete: closed, or handed over as a download. */
  finish(): Promise<void>
  /** The export stopped: nothing is kept as if it were the file. */
  abort(): Promise<void>
}

/** The file's name and type, as the save dialog and the download name it. */
export interface ExportFileType {
  name: string
  mime: string
  extension: string
  description: string
}

type SaveFilePicker = (options: {
  suggestedName?: string
  types?: { description: string; accept: Record<string, string[]> }[]
}) => Promise<FileSystemFileHandle>

/** A writable file the person picked; null where the browser has no picker; 'cancelled' when they closed it. */
export async function pickExportFile(type: ExportFileType): Promise<FileSystemFileHandle | null | 'cancelled'> {
  const picker = (globalThis as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker
  if (isDesktopApp() || typeof picker !== 'function') return null
  try {
    return await picker({
      suggestedName: type.name,
      types: [{ description: type.description, accept: { [type.mime]: [`.${type.extension}`] } }],
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled'
    // Refused (no user gesture left, a policy): a download instead.
    return null
  }
}

const bytesOf = (chunk: string | Uint8Array, encoder: TextEncoder) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk)

export async function fileSink(handle: FileSystemFileHandle): Promise<ExportSink> {
  const encoder = new TextEncoder()
  const writable = await handle.createWritable()
  return {
    write: (chunk) => writable.write(bytesOf(chunk, encoder) as Uint8Array<ArrayBuffer>),
    finish: () => writable.close(),
    async abort() {
      await writable.abort().catch(() => {})
      // The picker made the file when it was new: an empty one is not left behind as the export.
      const file = await handle.getFile().catch(() => null)
      const removable = handle as FileSystemFileHandle & { remove?: () => Promise<void> }
      if (file?.size === 0) await removable.remove?.().catch(() => {})
    },
  }
}

export function blobSink(type: ExportFileType): ExportSink {
  const encoder = new TextEncoder()
  // One Blob per chunk: the browser may keep its bytes outside the page's memory.
  let parts: Blob[] = []
  return {
    write: async (chunk) => void parts.push(new Blob([bytesOf(chunk, encoder) as Uint8Array<ArrayBuffer>])),
    finish: async () => {
      saveFile(type.name, new Blob(parts, { type: type.mime }))
      parts = []
    },
    abort: async () => {
      parts = []
    },
  }
}
