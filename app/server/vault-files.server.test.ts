// The file store's rules against an in-memory stand-in for R2 (the one module under test).
import { describe, expect, it } from 'vitest'
import { FILE_CHUNK_BYTES, newVaultId, SEALED_CHUNK_OVERHEAD, tokenHash } from '#domain/vault-crypto.ts'
import { sanitiseFileName } from '#domain/vault.ts'
import type { Session } from '~/core/session'
import {
  FILE_TOKEN_HEADER,
  handleVaultFiles,
  type FilesContext,
  type R2BucketLike,
  type R2ObjectInfo,
  type RequestGate,
} from './vault-files.server'

function memoryBucket(): R2BucketLike & { objects: Map<string, { body: Uint8Array; meta: Record<string, string> }> } {
  const objects = new Map<string, { body: Uint8Array; meta: Record<string, string> }>()
  const info = (key: string): R2ObjectInfo => ({ key, size: objects.get(key)!.body.length, customMetadata: objects.get(key)!.meta })
  return {
    objects,
    async get(key) {
      const o = objects.get(key)
      return o ? { ...info(key), body: new Blob([o.body as Uint8Array<ArrayBuffer>]).stream() } : null
    },
    async put(key, value, options) {
      objects.set(key, { body: value, meta: options.customMetadata })
      return null
    },
    async delete(keys) {
      for (const key of Array.isArray(keys) ? keys : [keys]) objects.delete(key)
    },
    async list({ prefix }) {
      return { objects: [...objects.keys()].filter((k) => k.startsWith(prefix)).map(info), truncated: false }
    },
  }
}

const analyst: Session = { uid: 'ana', email: 'ana@sectest.example', userType: 'analyst', accessLevel: 5 }
const client: Session = { uid: 'cli', email: 'c@acme.example', userType: 'client', accessLevel: 2 }
const TOKEN = 'T'.repeat(43)

function setup(session: Session | null = analyst, owns = false, gate: RequestGate | null = null) {
  const bucket = memoryBucket()
  const context: FilesContext = {
    bucket,
    session: async () => session,
    ownsLink: async () => owns,
    requestGate: async () => gate,
  }
  return { bucket, context }
}

const send = (context: FilesContext, method: string, path: string, body?: Uint8Array, token: string | null = TOKEN, kind = 'files') =>
  handleVaultFiles(
    new Request(`http://app.test/api/vault/${kind}/${path}`, {
      method,
      body: body as Uint8Array<ArrayBuffer> | undefined,
      headers: { ...(token ? { [FILE_TOKEN_HEADER]: token } : {}), ...(body ? { 'content-length': String(body.length) } : {}) },
    }),
    context,
  )

const chunk = (n: number) => new Uint8Array(n + SEALED_CHUNK_OVERHEAD).fill(7)

describe('the vault file store', () => {
  it('stores an analyst chunk, gives it back only for the right token, and deletes it for the token', async () => {
    const { context, bucket } = setup()
    const id = newVaultId()
    expect((await send(context, 'PUT', `${id}/0/0`, chunk(100))).status).toBe(201)
    const got = await send(context, 'GET', `${id}/0/0`)
    expect(got.status).toBe(200)
    expect(got.headers.get('cache-control')).toBe('no-store')
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(chunk(100))
    expect((await send(context, 'GET', `${id}/0/0`, undefined, 'U'.repeat(43))).status).toBe(404)
    expect((await send(context, 'GET', `${id}/0/0`, undefined, null)).status).toBe(404)
    expect((await send(context, 'DELETE', `${id}`, undefined, 'U'.repeat(43))).status).toBe(404)
    expect((await send(context, 'DELETE', `${id}`)).status).toBe(200)
    expect(bucket.objects.size).toBe(0)
  })

  it('refuses uploads from signed-out people and clients, oversized chunks, and more than 25 MB a link', async () => {
    const id = newVaultId()
    expect((await send(setup(null).context, 'PUT', `${id}/0/0`, chunk(10))).status).toBe(401)
    expect((await send(setup(client).context, 'PUT', `${id}/0/0`, chunk(10))).status).toBe(403)
    const { context } = setup()
    expect((await send(context, 'PUT', `${id}/0/0`, chunk(FILE_CHUNK_BYTES + 1))).status).toBe(413)
    for (let c = 0; c < 25; c++)
      expect((await send(context, 'PUT', `${id}/${Math.floor(c / 20)}/${c % 20}`, chunk(FILE_CHUNK_BYTES))).status).toBe(201)
    expect((await send(context, 'PUT', `${id}/1/5`, chunk(1))).status).toBe(413)
    // Another link's token cannot add to these files.
    expect((await send(context, 'PUT', `${id}/2/0`, chunk(1), 'U'.repeat(43))).status).toBe(403)
  })

  it('lets the analyst who owns the link delete its files on revoke, and no one else', async () => {
    const id = newVaultId()
    const owner = setup(analyst, true)
    await send(owner.context, 'PUT', `${id}/0/0`, chunk(10))
    const stranger = { ...owner.context, ownsLink: async () => false }
    expect((await send(stranger, 'DELETE', id, undefined, null)).status).toBe(404)
    expect((await send(owner.context, 'DELETE', id, undefined, null)).status).toBe(200)
    expect(owner.bucket.objects.size).toBe(0)
  })

  it("takes a request's files from a signed-out client only while its gate is open for their token", async () => {
    const id = newVaultId()
    const gate: RequestGate = { filesTokenHash: await tokenHash(TOKEN), open: true, expiresAt: Date.now() + 3_600_000 }
    const put = (context: FilesContext, path: string, token: string = TOKEN) =>
      send(context, 'PUT', path, chunk(10), token, 'request-files')
    const open = setup(null, false, gate)
    expect((await put(open.context, `${id}/0/0`)).status).toBe(201)
    expect([...open.bucket.objects.keys()]).toEqual([`vault-request/${id}/0/0`])
    expect((await put(open.context, `${id}/0/1`, 'U'.repeat(43))).status).toBe(404)
    expect((await put(setup(null, false, null).context, `${id}/0/0`)).status).toBe(404)
    expect((await put(setup(null, false, { ...gate, open: false }).context, `${id}/0/0`)).status).toBe(409)
    expect((await put(setup(null, false, { ...gate, expiresAt: Date.now() - 1 }).context, `${id}/0/0`)).status).toBe(409)
    // The analyst reads them with the token from the answer; the share-link path does not reach them.
    const got = await send(open.context, 'GET', `${id}/0/0`, undefined, TOKEN, 'request-files')
    expect(got.status).toBe(200)
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(chunk(10))
    expect((await send(open.context, 'GET', `${id}/0/0`)).status).toBe(404)
    // Still at most 25 MB in all.
    for (let c = 0; c < 24; c++)
      expect(
        (await send(open.context, 'PUT', `${id}/${1 + Math.floor(c / 20)}/${c % 20}`, chunk(FILE_CHUNK_BYTES), TOKEN, 'request-files'))
          .status,
      ).toBe(201)
    expect((await send(open.context, 'PUT', `${id}/3/0`, chunk(FILE_CHUNK_BYTES), TOKEN, 'request-files')).status).toBe(413)
  })

  it('answers nothing for paths that are not a link id and indexes', async () => {
    const { context } = setup()
    for (const path of ['../../etc/passwd', `${newVaultId()}/a/0`, `${newVaultId()}/0/0/extra`, `${newVaultId()}/99/0`])
      expect((await send(context, 'GET', path)).status).toBe(404)
  })
})

describe('sanitiseFileName', () => {
  it('keeps a plain name and strips paths, controls, bidi overrides and leading dots', () => {
    expect(sanitiseFileName('report 2026.pdf')).toBe('report 2026.pdf')
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd')
    expect(sanitiseFileName('C:\\\\Users\\\\x\\\\evil.exe')).toBe('evil.exe')
    expect(sanitiseFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe')
    expect(sanitiseFileName('<img src=x onerror=alert(1)>.png')).toBe('_img src=x onerror=alert(1)_.png')
    expect(sanitiseFileName('.htaccess')).toBe('htaccess')
    expect(sanitiseFileName('a\u0000b\r\nc')).toBe('abc')
    expect(sanitiseFileName('...')).toBe('file')
    expect(sanitiseFileName('x'.repeat(300))).toHaveLength(120)
  })
})
