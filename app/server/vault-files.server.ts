// The vault's file store: sealed chunks of share-link files in R2 (binding VAULT_FILES), through
// the Worker. The browser encrypts each 1 MiB chunk before it leaves; file names and keys stay
// inside the link's ciphertext, so nothing here is a name, a path from a person, or a plaintext.
// Each object carries the uploading analyst's uid and the hash of the link's file token: uploads
// need an analyst's session, reads and deletes the token (which needs the link and its
// passphrase), or the analyst who owns the link.
// Request links' files (/api/vault/request-files/) are uploaded by the signed-out client: the
// request's gate (vault_request_gates/{id}) must be open and hold the hash of their files token,
// which only the link's secret gives; the analyst reads them with that token from the answer.
import { mayUseVault } from '#domain/access.ts'
import { LINK_ID_PATTERN, SEALED_CHUNK_OVERHEAD, FILE_CHUNK_BYTES, tokenHash } from '#domain/vault-crypto.ts'
import { VAULT_FILE_LIMITS } from '#domain/vault.ts'
import type { Session } from '~/core/session'

/** The part of R2's Worker API this module uses. */
export interface R2ObjectInfo {
  key: string
  size: number
  customMetadata?: Record<string, string>
}
export interface R2BucketLike {
  get(key: string): Promise<(R2ObjectInfo & { body: ReadableStream }) | null>
  put(key: string, value: Uint8Array, options: { customMetadata: Record<string, string> }): Promise<unknown>
  delete(keys: string | string[]): Promise<void>
  list(options: {
    prefix: string
    cursor?: string
    include?: 'customMetadata'[]
  }): Promise<{ objects: R2ObjectInfo[]; truncated: boolean; cursor?: string }>
}

/** A request's upload gate, as vault_request_gates/{id} holds it. */
export interface RequestGate {
  filesTokenHash: string
  open: boolean
  expiresAt: number
}

export type VaultFilesKind = 'link' | 'request'

export interface FilesContext {
  bucket: R2BucketLike
  /** The signed-in caller, if any. */
  session(): Promise<Session | null>
  /** Whether the caller owns the link or request (a read of its document with their own token). */
  ownsLink(id: string, session: Session, kind: VaultFilesKind): Promise<boolean>
  /** The request's upload gate, or null when there is none. */
  requestGate(id: string): Promise<RequestGate | null>
  now?(): number
}

export const VAULT_FILES_PREFIX = '/api/vault/files/'
export const VAULT_REQUEST_FILES_PREFIX = '/api/vault/request-files/'
export const FILE_TOKEN_HEADER = 'x-vault-file-token'

const root = (kind: VaultFilesKind) => (kind === 'link' ? 'vault' : 'vault-request')
const objectKey = (kind: VaultFilesKind, id: string, file: number, chunk: number) => `${root(kind)}/${id}/${file}/${chunk}`
const linkPrefix = (kind: VaultFilesKind, id: string) => `${root(kind)}/${id}/`

const answer = (status: number, message: string) =>
  new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })

async function everyObject(bucket: R2BucketLike, prefix: string): Promise<R2ObjectInfo[]> {
  const out: R2ObjectInfo[] = []
  let cursor: string | undefined
  do {
    const page = await bucket.list({ prefix, cursor, include: ['customMetadata'] })
    out.push(...page.objects)
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  return out
}

const isIndex = (text: string | undefined, max: number): text is string => !!text && /^\d{1,3}$/.test(text) && Number(text) < max

/** Answers a request under /api/vault/files/, or null when the path is not one of ours. */
export async function handleVaultFiles(request: Request, context: FilesContext): Promise<Response> {
  const url = new URL(request.url)
  const kind: VaultFilesKind = url.pathname.startsWith(VAULT_REQUEST_FILES_PREFIX) ? 'request' : 'link'
  const prefix = kind === 'link' ? VAULT_FILES_PREFIX : VAULT_REQUEST_FILES_PREFIX
  const [id, file, chunk, ...rest] = url.pathname.slice(prefix.length).split('/')
  if (!id || !LINK_ID_PATTERN.test(id) || rest.length > 0) return answer(404, 'No such file.')
  const token = request.headers.get(FILE_TOKEN_HEADER)
  const tokenHashOf = async () => (token && /^[A-Za-z0-9_-]{43}$/.test(token) ? tokenHash(token) : null)

  if (request.method === 'DELETE' && file === undefined) {
    const objects = await everyObject(context.bucket, linkPrefix(kind, id))
    const hash = await tokenHashOf()
    let allowed = hash !== null && objects.length > 0 && objects.every((o) => o.customMetadata?.tokenHash === hash)
    if (!allowed && hash === null) {
      const session = await context.session()
      allowed = !!session && mayUseVault(session) && (await context.ownsLink(id, session, kind))
    }
    if (!allowed) return answer(404, 'No such file.')
    if (objects.length > 0) await context.bucket.delete(objects.map((o) => o.key))
    return answer(200, `Deleted ${objects.length} chunks.`)
  }

  if (!isIndex(file, VAULT_FILE_LIMITS.files) || !isIndex(chunk, VAULT_FILE_LIMITS.chunksPerFile)) return answer(404, 'No such file.')
  const key = objectKey(kind, id, Number(file), Number(chunk))

  if (request.method === 'GET') {
    const hash = await tokenHashOf()
    const object = hash ? await context.bucket.get(key) : null
    // Without the right token a chunk does not exist, whether or not it does.
    if (!object || object.customMetadata?.tokenHash !== hash) {
      await object?.body.cancel()
      return answer(404, 'No such file.')
    }
    return new Response(object.body, {
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(object.size),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    })
  }

  if (request.method === 'PUT') {
    const hash = await tokenHashOf()
    let uid = ''
    if (kind === 'link') {
      const session = await context.session()
      if (!session) return answer(401, 'Sign in first.')
      if (!mayUseVault(session)) return answer(403, 'Your access does not allow this.')
      if (!hash) return answer(400, 'The file token is missing.')
      uid = session.uid
    } else {
      // The client of a request: the gate must be open, unexpired, and hold this token's hash.
      const gate = hash ? await context.requestGate(id) : null
      const now = context.now?.() ?? Date.now()
      if (!hash || !gate || gate.filesTokenHash !== hash) return answer(404, 'No such request.')
      if (!gate.open || gate.expiresAt <= now) return answer(409, 'This request takes no more files.')
    }
    const declared = Number(request.headers.get('content-length') ?? NaN)
    const maxChunk = FILE_CHUNK_BYTES + SEALED_CHUNK_OVERHEAD
    if (!(declared <= maxChunk)) return answer(413, 'A chunk is at most 1 MiB.')
    const body = new Uint8Array(await request.arrayBuffer())
    if (body.length > maxChunk || body.length <= SEALED_CHUNK_OVERHEAD) return answer(413, 'A chunk is at most 1 MiB.')
    const existing = await everyObject(context.bucket, linkPrefix(kind, id))
    if (existing.some((o) => o.customMetadata?.uid !== uid || o.customMetadata?.tokenHash !== hash))
      return answer(403, 'These files belong to another link.')
    const total =
      existing.filter((o) => o.key !== key).reduce((sum, o) => sum + o.size - SEALED_CHUNK_OVERHEAD, 0) +
      body.length -
      SEALED_CHUNK_OVERHEAD
    if (total > VAULT_FILE_LIMITS.totalBytes) return answer(413, 'Files are at most 25 MB in all.')
    await context.bucket.put(key, body, { customMetadata: { uid, tokenHash: hash } })
    return answer(201, 'Stored.')
  }

  return answer(405, 'Not allowed.')
}
