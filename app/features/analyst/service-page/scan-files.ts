// An import in the analyst's browser: each dropped file is recognised by its content, read as a
// stream (hashed with SHA-256 and parsed by the shared parsers as it goes, with its progress),
// and what the parsers made is sent to the import callables in batches. The raw file then goes to
// the Worker's store as it is (keepRawFiles); a password audit's files never leave the browser.
// The draft is seen only whole: it is 'importing' until its last batch has arrived (decision 0046).
import { sha256 } from '@noble/hashes/sha256'
import { bytesToHex } from '@noble/hashes/utils'
import {
  IMPORT_BATCH_ASSETS,
  IMPORT_BATCH_FINDINGS,
  keepsRawFile,
  RAW_SCAN_FILE_MAX_BYTES,
  rawScanFileUrl,
} from '#domain/scan-import-calls.ts'
import { SNIFF_CHARS, ScanParseError, type ParsedScan, type ScanParser } from '#domain/scan-import/parsed-scan.ts'
import { decodeBytes } from '#domain/scan-import/text-source.ts'
import type { ServiceId } from '#domain/services.ts'
import type { ImportedFile } from '#domain/scans.ts'
import { callUntilKnown } from '~/core/call-until-known'
import { callAnalyst } from './analyst-calls'

export interface ParsedFile {
  file: ImportedFile
  scan: ParsedScan
}

export type Progress = (done: number, total: number, label: string) => void

/** The parser of a file from its first characters; an error says what it is not. */
export async function recogniseFile(file: Blob & { name: string }, service: ServiceId): Promise<ScanParser> {
  const head = await file.slice(0, SNIFF_CHARS * 4).text()
  // Every format's parser comes with the registry: loaded once a file is picked, not with the page.
  const { detectFormat } = await import('#domain/scan-import/formats.ts')
  const parser = detectFormat(head)
  if (!parser) throw new Error(`${file.name}: not a scanner output this page reads.`)
  if (!parser.services.includes(service)) throw new Error(`${file.name}: ${parser.label} is not imported into this service.`)
  if (parser.format === 'ntds_potfile') throw new Error(`${file.name}: import password audits with their pot files below.`)
  return parser
}

/** Reads a file once: hashes its bytes and parses them as they stream, reporting bytes read. */
export async function parseFile(file: Blob & { name: string }, parser: ScanParser, progress: Progress): Promise<ParsedFile> {
  const hash = sha256.create()
  let read = 0
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk)
        read += chunk.byteLength
        progress(read, file.size, `Reading ${file.name}`)
        controller.enqueue(chunk)
      },
    }),
  )
  let scan: ParsedScan
  try {
    scan = await parser.parse(decodeBytes(counted, parser.label))
  } catch (error) {
    throw new Error(error instanceof ScanParseError ? `${file.name}: ${error.message}` : `${file.name}: the file could not be read.`)
  }
  return {
    file: {
      name: file.name.slice(0, 255),
      sha256: bytesToHex(hash.digest()),
      size: file.size,
      format: parser.format,
      tool: scan.tool.name.slice(0, 100) || parser.label,
      toolVersion: scan.tool.version.slice(0, 100),
    },
    scan,
  }
}

/**
 * A value as JSON has it: keys holding undefined dropped. The callable SDK would send them as
 * null, which the contract's optional fields refuse.
 */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** The title a draft gets unless the analyst gives one: the tools and the scan's day. */
export function draftTitle(files: readonly ParsedFile[]): string {
  const tools = [...new Set(files.map((f) => f.file.tool))].join(' and ')
  const started = Math.min(...files.map((f) => f.scan.startedAt ?? Date.now()))
  return `${tools} scan of ${new Date(started).toISOString().slice(0, 10)}`
}

export interface UploadResult {
  scanId: string
  created: boolean
}

/**
 * Which earlier scans the draft compares with (decision 0045): those of the same targets (the
 * server's default: a side scan when none was published), a published scope named, or nothing (a
 * scope of its own, named after the targets and the files).
 */
export type ScopeChoice = { kind: 'own' } | { kind: 'key'; key: string } | { kind: 'new' }

export function scopeKeyOf(service: ServiceId, files: readonly ParsedFile[], choice: ScopeChoice): string | undefined {
  if (choice.kind === 'key') return choice.key
  if (choice.kind === 'own') return undefined
  const targets = [...new Set(files.flatMap((f) => f.scan.targets))].sort()
  const hashes = files.map((f) => f.file.sha256.slice(0, 12)).join(',')
  return `${service}:${targets.slice(0, 20).join(',')}${targets.length ? ' ' : ''}(${hashes})`.slice(0, 500)
}

/**
 * Creates the draft scan, sends every file's findings and assets in batches, then finishes the
 * import: only then is the draft there to review and publish, and its files imported. Each call
 * may be made again (the draft's id comes from the files, a batch sent again leaves the same
 * documents, finishing twice changes nothing), so one whose answer did not come is checked by
 * making it again (`checking` says so). An import of the same files that did not finish is
 * resumed: every batch is sent again, and it is finished.
 */
export async function uploadImport(
  company: string,
  service: ServiceId,
  title: string,
  files: readonly ParsedFile[],
  progress: Progress,
  scope: ScopeChoice = { kind: 'own' },
  checking?: () => void,
): Promise<UploadResult> {
  const known = <T>(attempt: () => Promise<T>) => callUntilKnown(attempt, { onChecking: checking })
  const scopeKey = scopeKeyOf(service, files, scope)
  const starts = files.flatMap((f) => (f.scan.startedAt === null ? [] : [f.scan.startedAt]))
  const ends = files.flatMap((f) => (f.scan.finishedAt === null ? [] : [f.scan.finishedAt]))
  const notes = files.flatMap((f) =>
    f.scan.notes.map((n) => ({ ...n, where: `${f.file.name}, ${n.where}`.slice(0, 2_048), message: n.message.slice(0, 2_048) })),
  )
  const statistics: Record<string, number> = {}
  for (const f of files) for (const [key, value] of Object.entries(f.scan.statistics)) statistics[key] = (statistics[key] ?? 0) + value
  const serviceStats = files.find((f) => f.scan.serviceStats?.service === service)?.scan.serviceStats
  const created = await known(() =>
    callAnalyst('createDraftScan', {
      company,
      service,
      title,
      ...(scopeKey ? { scopeKey } : {}),
      files: files.map((f) => f.file),
      startedAt: starts.length ? Math.min(...starts) : null,
      finishedAt: ends.length ? Math.max(...ends) : null,
      targets: [...new Set(files.flatMap((f) => f.scan.targets))].slice(0, 10_000).map((t) => t.slice(0, 2_048)),
      report: {
        findings: files.reduce((n, f) => n + f.scan.findings.length, 0),
        assets: files.reduce((n, f) => n + f.scan.assets.length, 0),
        skipped: notes.filter((n) => n.level === 'skipped').length,
        warnings: notes.filter((n) => n.level === 'warning').length,
        notes: notes.slice(0, 500),
        statistics,
      },
      ...(serviceStats ? { serviceStats: plain(serviceStats) } : {}),
    }),
  )
  // The same files again, imported whole before: the scan they made stands, nothing is sent.
  if (created.state !== 'importing') return { scanId: created.scanId, created: false }

  const total = files.reduce(
    (n, f) =>
      n + Math.max(Math.ceil(f.scan.findings.length / IMPORT_BATCH_FINDINGS), Math.ceil(f.scan.assets.length / IMPORT_BATCH_ASSETS), 1),
    0,
  )
  let sent = 0
  for (const { file, scan } of files) {
    const batches = Math.max(
      Math.ceil(scan.findings.length / IMPORT_BATCH_FINDINGS),
      Math.ceil(scan.assets.length / IMPORT_BATCH_ASSETS),
      1,
    )
    for (let n = 0; n < batches; n++) {
      const batch = {
        company,
        scanId: created.scanId,
        sourceFile: file.sha256,
        findings: plain(scan.findings.slice(n * IMPORT_BATCH_FINDINGS, (n + 1) * IMPORT_BATCH_FINDINGS)),
        assets: plain(scan.assets.slice(n * IMPORT_BATCH_ASSETS, (n + 1) * IMPORT_BATCH_ASSETS)),
      }
      await known(() => callAnalyst('addDraftFindings', batch))
      sent++
      progress(sent, total, `Uploading ${file.name}`)
    }
  }
  await known(() => callAnalyst('finishDraftImport', { company, scanId: created.scanId }))
  return { scanId: created.scanId, created: true }
}

/** Sends one file to the store with its upload progress (fetch has none), answering the status. */
function put(url: string, file: Blob, progress: (sent: number) => void): Promise<{ status: number; message: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', url)
    xhr.setRequestHeader('content-type', 'application/octet-stream')
    xhr.upload.onprogress = (event) => progress(event.loaded)
    xhr.onload = () => {
      let message = ''
      try {
        message = String((JSON.parse(xhr.responseText) as { message?: unknown }).message ?? '')
      } catch {
        message = ''
      }
      resolve({ status: xhr.status, message })
    }
    xhr.onerror = () => reject(new Error('The raw file could not be sent.'))
    xhr.send(file)
  })
}

/**
 * Keeps the raw files of an import beside its scan (R2, by SHA-256): a file kept before is not
 * sent again. Password audits never come here. Answers the names of files that could not be kept.
 */
export async function keepRawFiles(
  company: string,
  scanId: string,
  files: readonly { blob: Blob; file: ImportedFile }[],
  service: ServiceId,
  progress: Progress,
): Promise<string[]> {
  const failed: string[] = []
  for (const { blob, file } of files) {
    if (!keepsRawFile(service, file.format) || blob.size > RAW_SCAN_FILE_MAX_BYTES) {
      if (keepsRawFile(service, file.format)) failed.push(`${file.name} (over 100 MB)`)
      continue
    }
    const url = rawScanFileUrl(company, scanId, file.sha256)
    const probe = await fetch(`${url}?probe=kept`, { cache: 'no-store' })
    if (probe.ok && ((await probe.json()) as { kept?: unknown }).kept === true) continue
    const label = `Keeping the raw file ${file.name}`
    progress(0, blob.size, label)
    const result = await put(url, blob, (sent) => progress(sent, blob.size, label))
    if (result.status !== 200 && result.status !== 201) failed.push(`${file.name}${result.message ? ` (${result.message})` : ''}`)
  }
  return failed
}
