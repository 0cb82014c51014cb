// The vault's file store: sealed chunks of share-link files in R2 (binding VAULT_FILES), through
// the Worker. The browser encrypts each 1 MiB chunk before it leaves; file names and keys stay
// inside the link's ciphertext, so nothing here is a name, a path from a person, or a plaintext.
// Each object carries the uploading analyst's uid and the hash of the link's file token: uploads
// need an analyst's session, reads and deletes the token (which needs the link and its
// passphrase), or the analyst who owns the link.
// Request links' files (/api/vault/request-files/) are uploaded by the signed-out client: the
// request's gate (vault_request_gates/{id}) must be open and hold the hash of their files token,
// which only the link's secret gives; the analyst reads them with that token from the answer.
// Uploads and deletions go through the id's ledger (vault-file-ledger.server.ts, decision 0035),
// which keeps the 25 MB however many arrive at once; anyone may ask it to review an id's files,
// which it deletes only once their gate says nothing needs them.
import { mayUseVault } from '#domain/access.ts'
import { LINK_ID_PATTERN, SEALED_CHUNK_OVERHEAD, FILE_CHUNK_BYTES, tokenHash } from '#domain/vault-crypto.ts'
import { VAULT_FILE_LIMITS, VAULT_FILES_PATHS, type VaultFilesKind } from '#domain/vault.ts'
import type { VaultRequestGate } from '#domain/vault-requests.ts'
import type { Session } from '~/core/session'
import { chunkKey, type FileLedger, type R2BucketLike } from './vault-file-ledger.server'

/** What the file store asks of an id's ledger (the Durable Object's methods, called through its stub). */
export type LedgerHandle = Pick<FileLedger, 'store' | 'remove' | 'review'>

export interface FilesContext {
  bucket: R2BucketLike
  /** The ledger of one link's or request's files. */
  ledger(kind: VaultFilesKind, id: string): LedgerHandle
  /** The signed-in caller, if any. */
  session(): Promise<Session | null>
  /** Whether the caller owns the link or request (a read of its document with their own token). */
  ownsLink(id: string, session: Session, kind: VaultFilesKind): Promise<boolean>
  /** The request's upload gate, or null when there is none. */
  requestGate(id: string): Promise<VaultRequestGate | null>
  now?(): number
}

export const VAULT_FILES_PREFIX = `${VAULT_FILES_PATHS.link}/`
export const VAULT_REQUEST_FILES_PREFIX = `${VAULT_FILES_PATHS.request}/`
export const FILE_TOKEN_HEADER = 'x-vault-file-token'

const answer = (status: number, message: string) =>
  new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })

const isIndex = (text: string | undefined, max: number): text is string => !!text && /^\d{1,3}$/.test(text) && Number(text) < max

const STORE_REFUSALS = {
  full: [413, 'Files are at most 25 MB in all.'],
  busy: [409, 'This chunk is being stored already.'],
  foreign: [403, 'These files belong to another link.'],
  deleted: [410, 'These files were deleted.'],
} as const

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
    const ledger = context.ledger(kind, id)
    const hash = await tokenHashOf()
    if (hash !== null) {
      const deleted = await ledger.remove(hash)
      return deleted === null ? answer(404, 'No such file.') : answer(200, `Deleted ${deleted} chunks.`)
    }
    const session = await context.session()
    if (session && mayUseVault(session) && (await context.ownsLink(id, session, kind)))
      return answer(200, `Deleted ${(await ledger.remove(null)) ?? 0} chunks.`)
    // Anyone else asks for a review: the files go only if their gate says nothing needs them.
    const review = await ledger.review()
    return review.keptUntil === null ? answer(200, `Deleted ${review.deleted} chunks.`) : answer(409, 'These files are still needed.')
  }

  if (!isIndex(file, VAULT_FILE_LIMITS.files) || !isIndex(chunk, VAULT_FILE_LIMITS.chunksPerFile)) return answer(404, 'No such file.')
  const key = chunkKey(kind, id, Number(file), Number(chunk))

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
    const stored = await context.ledger(kind, id).store({ kind, id, key, body, uid, tokenHash: hash, gateSeen: kind === 'request' })
    if (stored === 'stored') return answer(201, 'Stored.')
    const [status, message] = STORE_REFUSALS[stored]
    return answer(status, message)
  }

  return answer(405, 'Not allowed.')
}
