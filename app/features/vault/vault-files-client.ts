// Share-link files in the browser: sealed chunk by chunk before upload, opened chunk by chunk
// after download. The store sees sealed chunks and the hash of the link's file token only.
import { chunkCount, FILE_CHUNK_BYTES, newFileKey, openChunk, sealChunk, type VaultFileEntry } from '#domain/vault-crypto.ts'
import { sanitiseFileName, VAULT_FILE_LIMITS, VAULT_FILES_PATHS } from '#domain/vault.ts'

export const FILES_PATH = VAULT_FILES_PATHS.link
/** Where a request's answer keeps its files (the client uploads them signed out). */
export const REQUEST_FILES_PATH = VAULT_FILES_PATHS.request
const TOKEN_HEADER = 'x-vault-file-token'

export const totalSize = (files: readonly File[]) => files.reduce((sum, file) => sum + file.size, 0)

export function filesProblem(files: readonly File[]): string | null {
  if (files.length > VAULT_FILE_LIMITS.files) return `At most ${VAULT_FILE_LIMITS.files} files.`
  if (totalSize(files) > VAULT_FILE_LIMITS.totalBytes) return 'Files are at most 25 MB in all.'
  return null
}

/** Each file's entry in the payload: a fresh key, its sanitised name, type, size and chunk count. */
export const fileEntries = (files: readonly File[]): VaultFileEntry[] =>
  files.map((file) => ({
    name: sanitiseFileName(file.name),
    type: /^[\w.+-]+\/[\w.+-]+$/.test(file.type) ? file.type : 'application/octet-stream',
    size: file.size,
    key: newFileKey(),
    chunks: chunkCount(file.size),
  }))

async function failed(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null
  return new Error(typeof body?.message === 'string' ? body.message : `The file store answered ${response.status}.`)
}

/** Seals and uploads every chunk of every file, one at a time; `progress` gets the share done. */
export async function uploadFiles(
  id: string,
  fileToken: string,
  files: readonly File[],
  entries: readonly VaultFileEntry[],
  progress: (done: number) => void = () => {},
  base: string = FILES_PATH,
): Promise<void> {
  const total = Math.max(1, totalSize(files))
  let done = 0
  for (const [f, file] of files.entries()) {
    const entry = entries[f]!
    for (let c = 0; c < entry.chunks; c++) {
      const bytes = new Uint8Array(await file.slice(c * FILE_CHUNK_BYTES, (c + 1) * FILE_CHUNK_BYTES).arrayBuffer())
      const sealed = await sealChunk(entry.key, id, f, c, c === entry.chunks - 1, bytes)
      const response = await fetch(`${base}/${id}/${f}/${c}`, {
        method: 'PUT',
        body: sealed,
        headers: { [TOKEN_HEADER]: fileToken, 'content-type': 'application/octet-stream' },
      })
      if (!response.ok) throw await failed(response)
      done += bytes.length
      progress(done / total)
    }
  }
}

/** A file opened in this browser: its bytes as a Blob, under its sanitised name. */
export interface OpenedFile {
  name: string
  size: number
  blob: Blob
}

export async function downloadFiles(
  id: string,
  fileToken: string,
  entries: readonly VaultFileEntry[],
  base: string = FILES_PATH,
): Promise<OpenedFile[]> {
  const out: OpenedFile[] = []
  for (const [f, entry] of entries.entries()) {
    const parts: Uint8Array<ArrayBuffer>[] = []
    for (let c = 0; c < entry.chunks; c++) {
      const response = await fetch(`${base}/${id}/${f}/${c}`, { headers: { [TOKEN_HEADER]: fileToken }, cache: 'no-store' })
      if (!response.ok) throw new Error('A file of this link is no longer stored.')
      parts.push(await openChunk(entry.key, id, f, c, c === entry.chunks - 1, new Uint8Array(await response.arrayBuffer())))
    }
    out.push({ name: sanitiseFileName(entry.name), size: entry.size, blob: new Blob(parts, { type: 'application/octet-stream' }) })
  }
  return out
}

/** Deletes the link's stored chunks: with its file token (the last view), or as the analyst who owns it. */
export async function deleteFiles(id: string, fileToken: string | null): Promise<void> {
  await fetch(`${FILES_PATH}/${id}`, { method: 'DELETE', headers: fileToken ? { [TOKEN_HEADER]: fileToken } : {} })
}
