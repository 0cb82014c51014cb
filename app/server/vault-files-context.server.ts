// The file store's context in the Worker: the R2 binding, the ledger of each id (a Durable Object,
// decision 0035), the request's session, whether the caller owns a link (their own token reads
// vault_links/{id} only if it is theirs), and the files gates, which anyone may get by id.
import { env } from 'cloudflare:workers'
import { filesGateFromDocument, vaultLinkGatePath, vaultLinkPath, type FilesGate, type VaultFilesKind } from '#domain/vault.ts'
import { vaultRequestGateFromDocument, vaultRequestGatePath, vaultRequestPath, type VaultRequestGate } from '#domain/vault-requests.ts'
import { publicConfig } from './config.server'
import { FirestoreReadDenied } from './firestore-rest'
import { firestoreReader } from './firestore-rest.server'
import { readSession } from './session.server'
import { handleVaultFiles, type LedgerHandle } from './vault-files.server'
import type { R2BucketLike } from './vault-file-ledger.server'

interface LedgerNamespace {
  idFromName(name: string): unknown
  get(id: unknown): LedgerHandle
}

/** A document anyone may get (a files gate), read signed out; null when there is none. */
async function readOpenly(path: string) {
  try {
    return await firestoreReader(publicConfig(), null).get(path)
  } catch (error) {
    if (error instanceof FirestoreReadDenied) return null
    throw error
  }
}

export const readRequestGate = async (id: string): Promise<VaultRequestGate | null> =>
  vaultRequestGateFromDocument(await readOpenly(vaultRequestGatePath(id)))

/** The files gate of a link or a request: what its ledger goes by. */
export const readFilesGate = async (kind: VaultFilesKind, id: string): Promise<FilesGate | null> =>
  filesGateFromDocument(await readOpenly(kind === 'link' ? vaultLinkGatePath(id) : vaultRequestGatePath(id)))

export async function serveVaultFiles(request: Request): Promise<Response> {
  const bucket = env.VAULT_FILES as R2BucketLike | undefined
  const ledgers = env.VAULT_FILE_LEDGER as LedgerNamespace | undefined
  if (!bucket || !ledgers) return new Response('The file store is not configured.', { status: 503 })
  let idToken: string | null = null
  return handleVaultFiles(request, {
    bucket,
    ledger: (kind, id) => ledgers.get(ledgers.idFromName(`${kind}/${id}`)),
    async session() {
      const current = await readSession()
      idToken = current?.idToken ?? null
      return current?.session ?? null
    },
    requestGate: readRequestGate,
    async ownsLink(id, session, kind) {
      if (!idToken) return false
      try {
        const link = await firestoreReader(publicConfig(), idToken).get(kind === 'link' ? vaultLinkPath(id) : vaultRequestPath(id))
        return link?.createdBy === session.uid
      } catch (error) {
        if (error instanceof FirestoreReadDenied) return false
        throw error
      }
    },
  })
}
