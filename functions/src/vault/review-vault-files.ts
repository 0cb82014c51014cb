// reviewVaultLinkFiles, reviewVaultRequestFiles: the vault's files are the Worker's (R2, decision
// 0035). When what a files gate says of them changes (a link used, revoked or swept; a request
// answered, withdrawn or swept; a gate made or gone), this asks the Worker to look at them again.
// The ask carries no authority: the Worker reads the gate itself and deletes only what nothing
// needs any more. A lost ask costs time only: the store's alarm for the id looks again later.
import '../options.ts'
import * as logger from 'firebase-functions/logger'
import { onDocumentWritten } from 'firebase-functions/v2/firestore'
import {
  filesGateFromDocument,
  filesWantedUntil,
  VAULT_FILES_PATHS,
  VAULT_LINK_GATES_COLLECTION,
  type VaultFilesKind,
} from '#domain/vault.ts'
import { VAULT_REQUEST_GATES_COLLECTION } from '#domain/vault-requests.ts'
import { appOrigins } from '../config.ts'

const ASK_TIMEOUT_MS = 10_000

/** Until when a gate (as stored, or none) wants its files: 0 when it does not. */
const wantedUntil = (data: unknown) => {
  const gate = filesGateFromDocument(data)
  return gate ? filesWantedUntil(gate) : 0
}

/** Whether the change of a gate changes what becomes of its files. */
export const changesFiles = (before: unknown, after: unknown): boolean => wantedUntil(before) !== wantedUntil(after)

/** Asks the Worker at `origin` (the app's first origin) to review the files of `id`; its status, or null when it was not reached. */
export async function askFileStoreToReview(kind: VaultFilesKind, id: string, origin?: string): Promise<number | null> {
  try {
    const response = await fetch(`${origin ?? appOrigins()[0]}${VAULT_FILES_PATHS[kind]}/${id}`, {
      method: 'DELETE',
      signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
    })
    await response.body?.cancel()
    return response.status
  } catch (error) {
    logger.warn('The vault file store could not be asked to review files', { kind, error: String(error) })
    return null
  }
}

const reviewOn = (collection: string, kind: VaultFilesKind) =>
  onDocumentWritten({ document: `${collection}/{id}` }, async (event) => {
    if (!changesFiles(event.data?.before.data(), event.data?.after.data())) return
    const status = await askFileStoreToReview(kind, event.params.id)
    logger.debug('reviewVaultFiles', { kind, status })
  })

export const reviewVaultLinkFiles = reviewOn(VAULT_LINK_GATES_COLLECTION, 'link')
export const reviewVaultRequestFiles = reviewOn(VAULT_REQUEST_GATES_COLLECTION, 'request')
