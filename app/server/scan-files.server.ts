// Raw scanner files of imported scans in R2 (binding SCAN_FILES), through the Worker: kept by
// SHA-256 per company, so importing the same file again stores nothing new. Only someone who may
// import the scan's service (read from the scan document with their own token, so the rules also
// apply) stores or reads them; the object's name is built from the company slug and the hash only,
// R2 checks the bytes against the hash, and password audits are never kept here.
import { keepsRawFile, mayImportScans, RAW_SCAN_FILE_MAX_BYTES, RAW_SCAN_FILES_PATH } from '#domain/scan-import-calls.ts'
import { sanitiseFileName } from '#domain/vault.ts'
import type { Session } from '~/core/session'
import { COMPANY_SLUG_PATTERN } from '#domain/company-slug.ts'

export interface ScanObject {
  size: number
  body?: ReadableStream
}
/** The part of R2's Worker API this module uses. */
export interface ScanBucketLike {
  head(key: string): Promise<{ size: number } | null>
  get(key: string): Promise<(ScanObject & { body: ReadableStream }) | null>
  put(
    key: string,
    value: ReadableStream,
    options: { sha256: string; customMetadata: Record<string, string>; httpMetadata: { contentType: string } },
  ): Promise<unknown>
}

/** What the Worker knows of the scan named in the path, read with the caller's own token. */
export interface ScanFacts {
  service: string
  state: string
  files: { name: string; sha256: string; size: number; format: string }[]
}

export interface ScanFilesContext {
  bucket: ScanBucketLike
  session(): Promise<Session | null>
  /** The scan, or null when it does not exist or the caller may not read it. */
  scan(company: string, scanId: string): Promise<ScanFacts | null>
  /** A stream of exactly `length` bytes (workerd's FixedLengthStream), which R2 needs to store a stream. */
  fixedLength(body: ReadableStream, length: number): ReadableStream
}

const answer = (status: number, message: string) =>
  new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })

const SCAN_ID = /^[A-Za-z0-9_-]{1,128}$/
const SHA256 = /^[a-f0-9]{64}$/

export const rawFileKey = (company: string, sha256: string) => `scans/${company}/${sha256}`

/** A Content-Disposition naming the file without trusting its name. */
export function attachment(name: string): string {
  const clean = sanitiseFileName(name)
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`
}

export async function handleScanFiles(request: Request, context: ScanFilesContext): Promise<Response> {
  const url = new URL(request.url)
  const [company, scanId, sha256, ...rest] = url.pathname.slice(RAW_SCAN_FILES_PATH.length + 1).split('/')
  if (!company || !COMPANY_SLUG_PATTERN.test(company) || !scanId || !SCAN_ID.test(scanId) || !sha256 || !SHA256.test(sha256) || rest.length)
    return answer(404, 'No such file.')
  if (!['GET', 'HEAD', 'PUT'].includes(request.method)) return answer(405, 'Not allowed.')

  const session = await context.session()
  if (!session) return answer(401, 'Sign in first.')
  const access = { userType: session.userType, accessLevel: session.accessLevel }
  const scan = await context.scan(company, scanId)
  // Someone who may not import the service learns nothing, not even whether the scan exists.
  if (!scan || !mayImportScans(access, scan.service)) return answer(404, 'No such file.')
  const file = scan.files.find((f) => f.sha256 === sha256)
  if (!file || !keepsRawFile(scan.service, file.format)) return answer(404, 'No such file.')
  const key = rawFileKey(company, sha256)

  // Whether the file is kept, answered without an error status (a browser logs every 404).
  if (request.method === 'GET' && url.searchParams.get('probe') === 'kept')
    return new Response(JSON.stringify({ kept: (await context.bucket.head(key)) !== null }), {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    })

  if (request.method === 'HEAD' || request.method === 'GET') {
    const object: ScanObject | null = request.method === 'GET' ? await context.bucket.get(key) : await context.bucket.head(key)
    if (!object) return answer(404, 'This file was not kept.')
    return new Response(object.body ?? null, {
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(object.size),
        'content-disposition': attachment(file.name),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    })
  }

  // PUT: the same file kept before changes nothing.
  if (await context.bucket.head(key)) {
    await request.body?.cancel()
    return answer(200, 'Kept already.')
  }
  if (scan.state !== 'draft') return answer(409, 'Files are kept while the scan is a draft.')
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (!Number.isInteger(declared) || declared > RAW_SCAN_FILE_MAX_BYTES) return answer(413, 'A raw file is kept up to 100 MB.')
  if (declared !== file.size || !request.body) return answer(400, 'The file is not the one imported.')
  try {
    await context.bucket.put(key, context.fixedLength(request.body, declared), {
      sha256,
      customMetadata: { uid: session.uid, scanId },
      httpMetadata: { contentType: 'application/octet-stream' },
    })
  } catch {
    // R2 refuses bytes whose SHA-256 is not the one named.
    return answer(400, 'The file is not the one imported.')
  }
  return answer(201, 'Kept.')
}
