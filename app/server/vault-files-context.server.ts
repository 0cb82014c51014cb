// The file store's context in the Worker: the R2 binding, the request's session, and whether the
// caller owns a link (their own token reads vault_links/{id} only if it is theirs).
import { env } from 'cloudflare:workers'
import { vaultLinkPath } from '#domain/vault.ts'
import { vaultRequestGatePath, vaultRequestPath } from '#domain/vault-requests.ts'
import { publicConfig } from './config.server'
import { FirestoreReadDenied, firestoreReader } from './firestore-rest.server'
import { readSession } from './session.server'
import { handleVaultFiles, type R2BucketLike } from './vault-files.server'

export async function serveVaultFiles(request: Request): Promise<Response> {
  const bucket = env.VAULT_FILES as R2BucketLike | undefined
  if (!bucket) return new Response('The file store is not configured.', { status: 503 })
  let idToken: string | null = null
  return handleVaultFiles(request, {
    bucket,
    async session() {
      const current = await readSession()
      idToken = current?.idToken ?? null
      return current?.session ?? null
    },
    async requestGate(id) {
      try {
        const gate = await firestoreReader(publicConfig(), null).get(vaultRequestGatePath(id))
        if (!gate || typeof gate.filesTokenHash !== 'string' || typeof gate.expiresAt !== 'number') return null
        return { filesTokenHash: gate.filesTokenHash, open: gate.open === true, expiresAt: gate.expiresAt }
      } catch (error) {
        if (error instanceof FirestoreReadDenied) return null
        throw error
      }
    },
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
