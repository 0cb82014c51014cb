// The raw scan files' rules against an in-memory stand-in for R2 (the one module under test),
// which checks the SHA-256 it is given as R2 does.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { RAW_SCAN_FILE_MAX_BYTES } from '#domain/scan-import-calls.ts'
import type { Session } from '~/core/session'
import { attachment, handleScanFiles, rawFileKey, type ScanBucketLike, type ScanFacts, type ScanFilesContext } from './scan-files.server'

function memoryBucket(): ScanBucketLike & { objects: Map<string, Uint8Array>; puts: number } {
  const objects = new Map<string, Uint8Array>()
  const bucket = {
    objects,
    puts: 0,
    async head(key: string) {
      const o = objects.get(key)
      return o ? { size: o.length } : null
    },
    async get(key: string) {
      const o = objects.get(key)
      return o ? { size: o.length, body: new Blob([o as Uint8Array<ArrayBuffer>]).stream() } : null
    },
    async put(key: string, value: ReadableStream, options: { sha256: string }) {
      bucket.puts++
      const bytes = new Uint8Array(await new Response(value).arrayBuffer())
      if (createHash('sha256').update(bytes).digest('hex') !== options.sha256) throw new Error('checksum mismatch')
      objects.set(key, bytes)
      return null
    },
  }
  return bucket
}

const senior: Session = { uid: 'sen', email: 'senior@sectest.example', userType: 'analyst', accessLevel: 7 }
const analyst: Session = { uid: 'ana', email: 'analyst@sectest.example', userType: 'analyst', accessLevel: 5 }
const client: Session = { uid: 'cli', email: 'c@acme.example', userType: 'client', accessLevel: 3 }

const content = new TextEncoder().encode('<?xml version="1.0"?><nmaprun scanner="nmap"></nmaprun>')
const hash = createHash('sha256').update(content).digest('hex')
const draft: ScanFacts = {
  service: 'network',
  state: 'draft',
  files: [{ name: 'scan.xml', sha256: hash, size: content.length, format: 'nmap_xml' }],
}

function setup(session: Session | null = senior, scan: ScanFacts | null = draft) {
  const bucket = memoryBucket()
  const context: ScanFilesContext = {
    bucket,
    session: async () => session,
    scan: async (company) => (company === 'acme' ? scan : null),
    fixedLength: (body) => body,
  }
  return { bucket, context }
}

const send = (context: ScanFilesContext, method: string, path: string, body?: Uint8Array, length = body?.length) =>
  handleScanFiles(
    new Request(`http://app.test/api/scans/files/${path}`, {
      method,
      body: body as Uint8Array<ArrayBuffer> | undefined,
      headers: length === undefined ? {} : { 'content-length': String(length) },
    }),
    context,
  )

describe('the raw scan file store', () => {
  it('keeps a senior analyst’s file by its SHA-256, gives it back as an attachment, and keeps it once', async () => {
    const { context, bucket } = setup()
    expect((await send(context, 'HEAD', `acme/imp-1/${hash}`)).status).toBe(404)
    expect(await (await send(context, 'GET', `acme/imp-1/${hash}?probe=kept`)).json()).toEqual({ kept: false })
    expect((await send(context, 'PUT', `acme/imp-1/${hash}`, content)).status).toBe(201)
    expect([...bucket.objects.keys()]).toEqual([rawFileKey('acme', hash)])
    expect(await (await send(context, 'GET', `acme/imp-1/${hash}?probe=kept`)).json()).toEqual({ kept: true })
    const got = await send(context, 'GET', `acme/imp-1/${hash}`)
    expect(got.status).toBe(200)
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="scan.xml"; filename*=UTF-8''scan.xml`)
    expect(got.headers.get('cache-control')).toBe('no-store')
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(content)
    // The same file again: nothing is written.
    expect((await send(context, 'PUT', `acme/imp-1/${hash}`, content)).status).toBe(200)
    expect(bucket.puts).toBe(1)
    // Once the scan is published, a file already kept stays readable.
    const published = setup(senior, { ...draft, state: 'published' })
    published.bucket.objects.set(rawFileKey('acme', hash), content)
    expect((await send(published.context, 'GET', `acme/imp-1/${hash}`)).status).toBe(200)
    expect((await send(setup(senior, { ...draft, state: 'published' }).context, 'PUT', `acme/imp-1/${hash}`, content)).status).toBe(409)
  })

  it('refuses the signed-out, clients, analysts who may not import the service, and other companies', async () => {
    expect((await send(setup(null).context, 'PUT', `acme/imp-1/${hash}`, content)).status).toBe(401)
    for (const who of [client, analyst]) {
      const { context, bucket } = setup(who)
      expect((await send(context, 'PUT', `acme/imp-1/${hash}`, content)).status).toBe(404)
      expect((await send(context, 'GET', `acme/imp-1/${hash}`)).status).toBe(404)
      expect(bucket.puts).toBe(0)
    }
    // A scan the caller cannot read (the rules refused it) is no scan.
    expect((await send(setup().context, 'PUT', `globex/imp-1/${hash}`, content)).status).toBe(404)
  })

  it('refuses a file the scan does not list, bytes that are not the file, an oversized body, and any password audit', async () => {
    const { context, bucket } = setup()
    const other = 'a'.repeat(64)
    expect((await send(context, 'PUT', `acme/imp-1/${other}`, content)).status).toBe(404)
    const forged = new Uint8Array(content.length).fill(65)
    expect((await send(context, 'PUT', `acme/imp-1/${hash}`, forged)).status).toBe(400)
    expect((await send(context, 'PUT', `acme/imp-1/${hash}`, content.slice(1))).status).toBe(400)
    const big = setup(senior, { ...draft, files: [{ ...draft.files[0]!, size: RAW_SCAN_FILE_MAX_BYTES + 1 }] })
    expect((await send(big.context, 'PUT', `acme/imp-1/${hash}`, new Uint8Array(1), RAW_SCAN_FILE_MAX_BYTES + 1)).status).toBe(413)
    expect(bucket.objects.size).toBe(0)

    const audit = setup(senior, { service: 'password_cracking', state: 'draft', files: [{ ...draft.files[0]!, format: 'ntds_potfile' }] })
    expect((await send(audit.context, 'PUT', `acme/imp-1/${hash}`, content)).status).toBe(404)
    expect(audit.bucket.puts).toBe(0)
  })

  it('refuses paths that are not a company, a scan and a hash', async () => {
    const { context } = setup()
    for (const path of [`../acme/imp-1/${hash}`, `acme/imp-1/${hash}/x`, `acme/imp 1/${hash}`, `acme/imp-1/${hash.toUpperCase()}`])
      expect((await send(context, 'GET', path)).status).toBe(404)
  })

  it('names the download without trusting the file name', () => {
    expect(attachment('../../evil"\r\nx-header: 1.xml')).toBe(
      `attachment; filename="evil_x-header_ 1.xml"; filename*=UTF-8''evil_x-header_%201.xml`,
    )
    expect(attachment('résumé.xml')).toContain(`filename*=UTF-8''r%C3%A9sum%C3%A9.xml`)
  })
})
