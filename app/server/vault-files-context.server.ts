// The file store's context in the Worker: the R2 binding, the request's session, and whether the
// caller owns a link (their own token reads vault_links/{id} only if it is theirs).
import { env } from 'cloudflare:workers'
import { vaultLinkPath } from '#domain/vault.ts'
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
    async ownsLink(id, session) {
      if (!idToken) return false
      try {
        const link = await firestoreReader(publicConfig(), idToken).get(vaultLinkPath(id))
        return link?.createdBy === session.uid
      } catch (error) {
        if (error instanceof FirestoreReadDenied) return false
        throw error
      }
    },
  })
}
