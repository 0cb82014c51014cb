// What a page's first paint read at the edge for one sign-in (the workspace, a report's figures),
// kept per isolate for no longer than a revocation takes to reach the edge (REVOCATION_TTL_MS,
// decision 0019), so a busy person's next pages skip the read. Keyed by the person and their ID
// token's issue time (a new sign-in or a refreshed token reads again) and by everything the read
// depended on: what the rules let that token read then is served for that window at most. The
// browser's listeners replace what was served as soon as the page is live (decisions 0023, 0029).
import { REVOCATION_TTL_MS } from './revocations.server'

export interface FirstPaintCacheOptions {
  ttlMs?: number
  maxEntries?: number
  now?: () => number
}

export interface FirstPaintCache {
  /** The value read for `key` less than ttlMs ago, or `read()`'s, kept unless it fails. Concurrent asks share one read. */
  get<T>(key: FirstPaintKey, read: () => Promise<T>): Promise<T>
}

export interface FirstPaintKey {
  uid: string
  /** The ID token's `iat`, in seconds. */
  issuedAt: number
  /** What was read, and everything from the person's access and company it was read for. */
  what: string
}

export function createFirstPaintCache({
  ttlMs = REVOCATION_TTL_MS,
  maxEntries = 2_000,
  now = Date.now,
}: FirstPaintCacheOptions = {}): FirstPaintCache {
  const entries = new Map<string, { value: Promise<unknown>; readAt: number }>()
  return {
    get<T>(key: FirstPaintKey, read: () => Promise<T>): Promise<T> {
      const id = JSON.stringify([key.uid, key.issuedAt, key.what])
      const entry = entries.get(id)
      if (entry && now() - entry.readAt < Math.min(ttlMs, REVOCATION_TTL_MS)) return entry.value as Promise<T>
      const value = read()
      entries.delete(id)
      entries.set(id, { value, readAt: now() })
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
      // A failed read is not kept: the next page asks again.
      value.catch(() => {
        if (entries.get(id)?.value === value) entries.delete(id)
      })
      return value
    },
  }
}
