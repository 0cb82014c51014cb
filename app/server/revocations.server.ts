// Whether a sign-in was revoked after its ID token was minted. The token cannot say so (the
// `revoked` claim reaches only later tokens); users_access.claims.revoked can. Reading it on every
// request would add a Firestore read to every page and server function, so each isolate keeps what
// it read for a few seconds: a revocation takes effect at the edge within REVOCATION_TTL_MS
// (decision 0019).
import { readUserAccess, revokesSignIn, userAccessPath } from '#domain/users-access.ts'
import { FirestoreReadDenied } from './firestore-rest'
import type { FirestoreReader } from './firestore-rest.server'

export const REVOCATION_TTL_MS = 10_000
const MAX_ENTRIES = 5_000

interface Entry {
  /** users_access.claims.revoked in epoch ms; null when there is none (or no document). */
  revokedAt: number | null
  readAt: number
}

export interface RevocationOptions {
  /** A reader acting with the user's own ID token, so the rules decide as for the browser. */
  reader: (idToken: string) => FirestoreReader
  now?: () => number
  ttlMs?: number
  maxEntries?: number
}

export interface Revocations {
  /** Whether the sign-in of `authTimeSeconds` was revoked, as users_access said at most ttlMs ago. */
  revoked(uid: string, idToken: string, authTimeSeconds: number): Promise<boolean>
}

export function createRevocations({
  reader,
  now = Date.now,
  ttlMs = REVOCATION_TTL_MS,
  maxEntries = MAX_ENTRIES,
}: RevocationOptions): Revocations {
  const entries = new Map<string, Entry>()

  const read = async (uid: string, idToken: string, authTimeSeconds: number): Promise<number | null> => {
    try {
      const stored = await reader(idToken).get(userAccessPath(uid))
      return stored ? (readUserAccess(stored).claims.revoked ?? null) : null
    } catch (error) {
      // Everyone may read their own access unless the rules see the sign-in as revoked.
      if (error instanceof FirestoreReadDenied) return authTimeSeconds * 1000
      throw error
    }
  }

  return {
    async revoked(uid, idToken, authTimeSeconds) {
      let entry = entries.get(uid)
      if (!entry || now() - entry.readAt >= ttlMs) {
        entry = { revokedAt: await read(uid, idToken, authTimeSeconds), readAt: now() }
        // Oldest first: a Map keeps insertion order, so re-inserting keeps the newest last.
        entries.delete(uid)
        entries.set(uid, entry)
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
      }
      return revokesSignIn(entry.revokedAt === null ? null : entry.revokedAt / 1000, authTimeSeconds)
    },
  }
}
