// The file store's rules against an in-memory stand-in for R2 and for the Durable Object's storage;
// the ledger under it is the one the Durable Object runs.
import { describe, expect, it } from 'vitest'
import { FILE_CHUNK_BYTES, newVaultId, SEALED_CHUNK_OVERHEAD, tokenHash } from '#domain/vault-crypto.ts'
import { sanitiseFileName, VAULT_FILE_LIMITS, type FilesGate, type VaultFilesKind } from '#domain/vault.ts'
import type { VaultRequestGate } from '#domain/vault-requests.ts'
import type { Session } from '~/core/session'
import { FileLedger, type LedgerState, type R2BucketLike, type R2ObjectInfo } from './vault-file-ledger.server'
import { FILE_TOKEN_HEADER, handleVaultFiles, type FilesContext } from './vault-files.server'

function memoryBucket(): R2BucketLike & { objects: Map<string, { body: Uint8Array; meta: Record<string, string> }> } {
  const objects = new Map<string, { body: Uint8Array; meta: Record<string, string> }>()
  const info = (key: string): R2ObjectInfo => ({ key, size: objects.get(key)!.body.length, customMetadata: objects.get(key)!.meta })
  // Every call waits a turn, as R2 does, so that uploads at once interleave.
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  return {
    objects,
    async get(key) {
      await turn()
      const o = objects.get(key)
      return o ? { ...info(key), body: new Blob([o.body as Uint8Array<ArrayBuffer>]).stream() } : null
    },
    async put(key, value, options) {
      await turn()
      objects.set(key, { body: value, meta: options.customMetadata })
      return null
    },
    async delete(keys) {
      await turn()
      for (const key of Array.isArray(keys) ? keys : [keys]) objects.delete(key)
    },
    async list({ prefix }) {
      await turn()
      return { objects: [...objects.keys()].filter((k) => k.startsWith(prefix)).map(info), truncated: false }
    },
  }
}

const analyst: Session = { uid: 'ana', email: 'ana@sectest.example', userType: 'analyst', accessLevel: 5 }
const client: Session = { uid: 'cli', email: 'c@acme.example', userType: 'client', accessLevel: 2 }
const TOKEN = 'T'.repeat(43)
const HOUR = 3600_000

interface Setup {
  session?: Session | null
  owns?: boolean
  gate?: VaultRequestGate | null
  /** The files gates the ledgers read, by `<kind>/<id>`. */
  gates?: Map<string, FilesGate>
  clock?: { now: number }
}

function setup({ session = analyst, owns = false, gate = null, gates = new Map(), clock = { now: Date.now() } }: Setup = {}) {
  const bucket = memoryBucket()
  // One ledger per id, each with its own storage, as each id has its own Durable Object.
  const ledgers = new Map<string, FileLedger>()
  const alarms = new Map<string, number>()
  const ledgerOf = (kind: VaultFilesKind, id: string) => {
    const name = `${kind}/${id}`
    let saved: LedgerState | undefined
    const ledger =
      ledgers.get(name) ??
      new FileLedger({
        bucket,
        now: () => clock.now,
        gate: async (k, i) => {
          await new Promise((resolve) => setImmediate(resolve))
          return gates.get(`${k}/${i}`) ?? null
        },
        storage: {
          load: async () => saved && structuredClone(saved),
          save: async (state) => {
            saved = structuredClone(state)
          },
          wakeAt: async (at) => {
            alarms.set(name, at)
          },
          clear: async () => {
            saved = undefined
            alarms.delete(name)
          },
        },
      })
    ledgers.set(name, ledger)
    return ledger
  }
  const context: FilesContext = {
    bucket,
    ledger: ledgerOf,
    session: async () => session,
    ownsLink: async () => owns,
    requestGate: async () => gate,
    now: () => clock.now,
  }
  return { bucket, context, alarms, gates, clock }
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
const plainBytes = (bucket: ReturnType<typeof memoryBucket>) =>
  [...bucket.objects.values()].reduce((sum, o) => sum + o.body.length - SEALED_CHUNK_OVERHEAD, 0)

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
    expect((await send(setup({ session: null }).context, 'PUT', `${id}/0/0`, chunk(10))).status).toBe(401)
    expect((await send(setup({ session: client }).context, 'PUT', `${id}/0/0`, chunk(10))).status).toBe(403)
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
    const owner = setup({ owns: true })
    await send(owner.context, 'PUT', `${id}/0/0`, chunk(10))
    const stranger = { ...owner.context, ownsLink: async () => false }
    // Anyone else only asks for a review, and the files of a link being made are still wanted.
    expect((await send(stranger, 'DELETE', id, undefined, null)).status).toBe(409)
    expect(owner.bucket.objects.size).toBe(1)
    expect((await send(owner.context, 'DELETE', id, undefined, null)).status).toBe(200)
    expect(owner.bucket.objects.size).toBe(0)
  })

  it('keeps a link within 25 MB however many uploads arrive at once', async () => {
    const { context, bucket } = setup()
    const id = newVaultId()
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(context, 'PUT', `${id}/${Math.floor(i / 20)}/${i % 20}`, chunk(FILE_CHUNK_BYTES))),
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(25)
    expect(answers.filter((a) => a.status === 413)).toHaveLength(5)
    expect(plainBytes(bucket)).toBe(VAULT_FILE_LIMITS.totalBytes)
  })

  it('refuses a chunk already on its way, and gives back the bytes of an upload that failed', async () => {
    const { context, bucket } = setup()
    const id = newVaultId()
    // The first upload is held inside the store until the second has been answered: "on its way"
    // then never depends on which request the event loop happens to finish first.
    const put = bucket.put
    let arrived!: () => void
    let release!: () => void
    const storing = new Promise<void>((resolve) => (arrived = resolve))
    const held = new Promise<void>((resolve) => (release = resolve))
    bucket.put = async (...args) => {
      arrived()
      await held
      return put.apply(bucket, args)
    }
    const first = send(context, 'PUT', `${id}/0/0`, chunk(10))
    await storing
    expect((await send(context, 'PUT', `${id}/0/0`, chunk(10))).status).toBe(409)
    release()
    expect((await first).status).toBe(201)
    bucket.put = async () => {
      throw new Error('R2 is down')
    }
    await expect(send(context, 'PUT', `${id}/0/1`, chunk(FILE_CHUNK_BYTES))).rejects.toThrow('R2 is down')
    bucket.put = put
    // The failed chunk holds no bytes: 24 more chunks of 1 MiB still fit beside the first.
    for (let c = 1; c < 25; c++) expect((await send(context, 'PUT', `${id}/0/${c}`, chunk(FILE_CHUNK_BYTES))).status).toBe(201)
  })

  it('deletes the files of a link whose gate shut when anyone asks, and takes no more under its id', async () => {
    const { context, bucket, gates, clock } = setup()
    const id = newVaultId()
    await send(context, 'PUT', `${id}/0/0`, chunk(10))
    await send(context, 'PUT', `${id}/0/1`, chunk(10))
    const gate: FilesGate = { open: true, expiresAt: clock.now + HOUR, purgeAt: null, closed: null, closedAt: null }
    gates.set(`link/${id}`, gate)
    expect((await send(context, 'DELETE', id, undefined, null)).status).toBe(409)
    gates.set(`link/${id}`, { ...gate, open: false, closed: 'revoked', closedAt: clock.now })
    const deleted = await send(context, 'DELETE', id, undefined, null)
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ message: 'Deleted 2 chunks.' })
    expect(bucket.objects.size).toBe(0)
    expect((await send(context, 'PUT', `${id}/0/0`, chunk(10))).status).toBe(410)
  })

  it("keeps a used link's files for the download and an answered request's until it goes; a withdrawn request's go at once", async () => {
    const { context, bucket, gates, clock, alarms } = setup()
    const used = newVaultId()
    await send(context, 'PUT', `${used}/0/0`, chunk(10))
    gates.set(`link/${used}`, { open: false, expiresAt: clock.now + HOUR, purgeAt: null, closed: 'used', closedAt: clock.now })
    expect((await send(context, 'DELETE', used, undefined, null)).status).toBe(409)
    expect(alarms.get(`link/${used}`)).toBe(clock.now + VAULT_FILE_LIMITS.downloadWindowMs)
    clock.now += VAULT_FILE_LIMITS.downloadWindowMs
    expect((await send(context, 'DELETE', used, undefined, null)).status).toBe(200)
    expect(bucket.objects.size).toBe(0)

    const gate: VaultRequestGate = {
      filesTokenHash: await tokenHash(TOKEN),
      open: true,
      expiresAt: clock.now + HOUR,
      purgeAt: clock.now + 31 * 24 * HOUR,
      closed: null,
      closedAt: null,
    }
    const requests = setup({ session: null, gate, gates, clock })
    const request = newVaultId()
    await send(requests.context, 'PUT', `${request}/0/0`, chunk(10), TOKEN, 'request-files')
    gates.set(`request/${request}`, { ...gate, open: false, closed: 'answered', closedAt: clock.now })
    expect((await send(requests.context, 'DELETE', request, undefined, null, 'request-files')).status).toBe(409)
    expect(requests.alarms.get(`request/${request}`)).toBe(gate.purgeAt)
    gates.set(`request/${request}`, { ...gate, open: false, closed: 'withdrawn', closedAt: clock.now })
    expect((await send(requests.context, 'DELETE', request, undefined, null, 'request-files')).status).toBe(200)
    expect(requests.bucket.objects.size).toBe(0)
  })

  it('deletes files whose link was never made after the upload grace, and those whose gate was swept at once', async () => {
    const { context, bucket, gates, clock, alarms } = setup()
    const orphan = newVaultId()
    const swept = newVaultId()
    await send(context, 'PUT', `${orphan}/0/0`, chunk(10))
    await send(context, 'PUT', `${swept}/0/0`, chunk(10))
    // The ledger's alarm is set for the end of the grace from the first upload on.
    expect(alarms.get(`link/${orphan}`)).toBe(clock.now + VAULT_FILE_LIMITS.uploadGraceMs)
    gates.set(`link/${swept}`, { open: true, expiresAt: clock.now + HOUR, purgeAt: null, closed: null, closedAt: null })
    expect((await send(context, 'DELETE', swept, undefined, null)).status).toBe(409)
    gates.delete(`link/${swept}`)
    expect((await send(context, 'DELETE', swept, undefined, null)).status).toBe(200)
    expect((await send(context, 'DELETE', orphan, undefined, null)).status).toBe(409)
    clock.now += VAULT_FILE_LIMITS.uploadGraceMs
    expect((await send(context, 'DELETE', orphan, undefined, null)).status).toBe(200)
    expect(bucket.objects.size).toBe(0)
  })

  it("takes a request's files from a signed-out client only while its gate is open for their token", async () => {
    const id = newVaultId()
    const gate: VaultRequestGate = {
      filesTokenHash: await tokenHash(TOKEN),
      open: true,
      expiresAt: Date.now() + HOUR,
      purgeAt: null,
      closed: null,
      closedAt: null,
    }
    const put = (context: FilesContext, path: string, token: string = TOKEN) =>
      send(context, 'PUT', path, chunk(10), token, 'request-files')
    const open = setup({ session: null, gate })
    expect((await put(open.context, `${id}/0/0`)).status).toBe(201)
    expect([...open.bucket.objects.keys()]).toEqual([`vault-request/${id}/0/0`])
    expect((await put(open.context, `${id}/0/1`, 'U'.repeat(43))).status).toBe(404)
    expect((await put(setup({ session: null }).context, `${id}/0/0`)).status).toBe(404)
    expect((await put(setup({ session: null, gate: { ...gate, open: false } }).context, `${id}/0/0`)).status).toBe(409)
    expect((await put(setup({ session: null, gate: { ...gate, expiresAt: Date.now() - 1 } }).context, `${id}/0/0`)).status).toBe(409)
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
