// The ledger of one link's or request's stored files (decision 0035): the Worker's Durable Object
// for the id (vault-file-ledger-object.server.ts) runs it, so every upload, deletion and review of
// the id passes through one single-threaded object. The limit check and the reservation of a
// chunk's bytes happen in one synchronous step, before the chunk is written: uploads arriving at
// once cannot together pass the 25 MB. It also deletes the files once their gate says nothing needs
// them, when asked (the functions ask when a gate changes) or at its alarm, and then takes no more.
import { SEALED_CHUNK_OVERHEAD } from '#domain/vault-crypto.ts'
import { filesWantedUntil, VAULT_FILE_LIMITS, type FilesGate, type VaultFilesKind } from '#domain/vault.ts'

/** The part of R2's Worker API the file store uses. */
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

const root = (kind: VaultFilesKind) => (kind === 'link' ? 'vault' : 'vault-request')
export const chunkKey = (kind: VaultFilesKind, id: string, file: number, chunk: number) => `${root(kind)}/${id}/${file}/${chunk}`
const filesPrefix = (kind: VaultFilesKind, id: string) => `${root(kind)}/${id}/`

async function everyObject(bucket: R2BucketLike, prefix: string): Promise<R2ObjectInfo[]> {
  const out: R2ObjectInfo[] = []
  let cursor: string | undefined
  do {
    const page = await bucket.list({ prefix, cursor })
    out.push(...page.objects)
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  return out
}

/** How long the ledger of deleted files stays, refusing uploads to the id, before it is forgotten. */
const KEEP_DELETED_MS = 61 * 24 * 3600_000

export interface LedgerState {
  kind: VaultFilesKind
  id: string
  /** Who stored the first chunk: every other chunk must come from them, with the same token. */
  owner: { uid: string; tokenHash: string }
  /** The plaintext bytes of each stored (or being stored) chunk, by its object key. */
  chunks: Map<string, number>
  firstStoredAt: number
  /** A gate of the link or request was seen: without one now, it was swept. */
  gateSeen: boolean
  /** When the files were deleted: nothing more is taken under this id. */
  deletedAt: number | null
}

/** Where the ledger keeps its state and its alarm (the Durable Object's storage). */
export interface LedgerStorage {
  load(): Promise<LedgerState | undefined>
  save(state: LedgerState): Promise<void>
  wakeAt(at: number): Promise<void>
  /** Forgets the ledger: its state and its alarm. */
  clear(): Promise<void>
}

export interface LedgerDeps {
  storage: LedgerStorage
  bucket: R2BucketLike
  /** The link's or request's files gate, as stored now; null when there is none. */
  gate(kind: VaultFilesKind, id: string): Promise<FilesGate | null>
  now?(): number
}

export interface StoreInput {
  kind: VaultFilesKind
  id: string
  key: string
  body: Uint8Array
  uid: string
  tokenHash: string
  /** The caller read the gate (a request's upload checks it first). */
  gateSeen: boolean
}

export type StoreOutcome = 'stored' | 'full' | 'busy' | 'foreign' | 'deleted'
export interface Review {
  deleted: number
  /** Until when the files are kept; null when there are none (any more). */
  keptUntil: number | null
}

export class FileLedger {
  private state: LedgerState | undefined
  private loaded: Promise<void> | undefined
  /** Chunks on their way to R2 (in this instance: a new one has none under way). */
  private readonly storing = new Set<string>()
  private readonly deps: LedgerDeps

  constructor(deps: LedgerDeps) {
    this.deps = deps
  }

  private now = () => this.deps.now?.() ?? Date.now()

  private async ready(): Promise<void> {
    this.loaded ??= this.deps.storage.load().then((state) => {
      this.state = state
    })
    await this.loaded
  }

  /** Stores a sealed chunk if the id's files stay within their 25 MB with it. */
  async store(input: StoreInput): Promise<StoreOutcome> {
    await this.ready()
    const now = this.now()
    const bytes = input.body.length - SEALED_CHUNK_OVERHEAD
    // From here to the reservation nothing waits, so no other call of this object runs in between.
    const state: LedgerState = this.state ?? {
      kind: input.kind,
      id: input.id,
      owner: { uid: input.uid, tokenHash: input.tokenHash },
      chunks: new Map(),
      firstStoredAt: now,
      gateSeen: false,
      deletedAt: null,
    }
    if (state.deletedAt !== null) return 'deleted'
    if (state.owner.uid !== input.uid || state.owner.tokenHash !== input.tokenHash) return 'foreign'
    if (this.storing.has(input.key)) return 'busy'
    let others = 0
    for (const [key, size] of state.chunks) if (key !== input.key) others += size
    if (others + bytes > VAULT_FILE_LIMITS.totalBytes) return 'full'
    const first = this.state === undefined
    const previous = state.chunks.get(input.key)
    state.chunks.set(input.key, bytes)
    state.gateSeen ||= input.gateSeen
    this.state = state
    this.storing.add(input.key)
    try {
      await this.deps.storage.save(state)
      if (first) await this.deps.storage.wakeAt(now + VAULT_FILE_LIMITS.uploadGraceMs)
      await this.deps.bucket.put(input.key, input.body, { customMetadata: { uid: input.uid, tokenHash: input.tokenHash } })
    } catch (error) {
      if (previous === undefined) state.chunks.delete(input.key)
      else state.chunks.set(input.key, previous)
      await this.deps.storage.save(state)
      throw error
    } finally {
      this.storing.delete(input.key)
    }
    // Deleted while this chunk was on its way: it goes too.
    if (state.deletedAt !== null) {
      await this.deps.bucket.delete(input.key)
      return 'deleted'
    }
    return 'stored'
  }

  /**
   * Deletes every file of the id: for the holder of its token (`tokenHash`), or, with null, for
   * someone the Worker found may (the analyst who owns the link). Null when the token is not the id's.
   */
  async remove(tokenHash: string | null): Promise<number | null> {
    await this.ready()
    if (!this.state) return tokenHash === null ? 0 : null
    if (tokenHash !== null && tokenHash !== this.state.owner.tokenHash) return null
    return this.deleteAll(this.state)
  }

  /** Looks at the id's gate: deletes the files if nothing needs them any more, else waits until then. */
  async review(): Promise<Review> {
    await this.ready()
    const state = this.state
    if (!state) return { deleted: 0, keptUntil: null }
    if (state.deletedAt !== null) {
      if (this.now() >= state.deletedAt + KEEP_DELETED_MS) await this.forget()
      return { deleted: 0, keptUntil: null }
    }
    const gate = await this.deps.gate(state.kind, state.id)
    const now = this.now()
    state.gateSeen ||= gate !== null
    // No gate: the link is not made yet (given the upload's grace), or it was swept.
    const until = gate ? filesWantedUntil(gate) : state.gateSeen ? 0 : state.firstStoredAt + VAULT_FILE_LIMITS.uploadGraceMs
    if (state.deletedAt !== null) return { deleted: 0, keptUntil: null }
    if (now < until) {
      await this.deps.storage.save(state)
      await this.deps.storage.wakeAt(until)
      return { deleted: 0, keptUntil: until }
    }
    return { deleted: await this.deleteAll(state), keptUntil: null }
  }

  private async deleteAll(state: LedgerState): Promise<number> {
    const now = this.now()
    state.deletedAt = now
    state.chunks.clear()
    await this.deps.storage.save(state)
    const objects = await everyObject(this.deps.bucket, filesPrefix(state.kind, state.id))
    if (objects.length > 0) await this.deps.bucket.delete(objects.map((o) => o.key))
    await this.deps.storage.wakeAt(now + KEEP_DELETED_MS)
    return objects.length
  }

  private async forget(): Promise<void> {
    this.state = undefined
    await this.deps.storage.clear()
  }
}
