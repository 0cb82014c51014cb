// The analyst's files, read in this browser only: which is the dump and which are pot files (by
// content), and each as a text source that reports its bytes and lets the page repaint.
import { sniffNtds } from '#domain/scan-import/ntds.ts'
import { SNIFF_CHARS } from '#domain/scan-import/parsed-scan.ts'
import { sniffPot } from '#domain/scan-import/potfile.ts'
import { decodeBytes } from '#domain/scan-import/text-source.ts'

export type AuditFileRole = 'ntds' | 'pot' | 'unknown'

export interface AuditFile {
  file: File
  role: AuditFileRole
}

/** What a file is, from its first characters (never its name). */
export async function fileRole(file: File): Promise<AuditFileRole> {
  const head = (await file.slice(0, SNIFF_CHARS).text()).replace(/^\uFEFF/, '')
  if (sniffNtds(head)) return 'ntds'
  if (sniffPot(head)) return 'pot'
  return 'unknown'
}

/** Pasted members of privileged groups: one a line, or separated by commas, semicolons, tabs or the wide gaps of `net group`. */
export const splitAccountNames = (text: string): string[] =>
  text
    .split(/[\r\n,;\t]+| {2,}/)
    .map((name) => name.trim())
    .filter((name) => name !== '' && !/^-+$/.test(name))

export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

async function* countedBytes(file: File, onBytes: (bytes: number) => void): AsyncIterable<Uint8Array> {
  const reader = file.stream().getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      onBytes(value.byteLength)
      yield value
      // A macrotask between chunks, so the progress bar repaints and the page stays responsive.
      await nextTask()
    }
  } finally {
    reader.releaseLock()
  }
}

/** A file as text chunks, reporting each chunk's bytes. */
export const fileSource = (file: File, onBytes: (bytes: number) => void): AsyncIterable<string> => decodeBytes(countedBytes(file, onBytes))
