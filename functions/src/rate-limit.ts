// Fixed-window request counters in Firestore (collection rate_limits), shared by every instance
// of a function. Documents are keyed by a hash, so neither addresses nor IPs are stored in clear.
import { createHash } from 'node:crypto'
import { Timestamp, type Firestore } from 'firebase-admin/firestore'

export const RATE_LIMITS_COLLECTION = 'rate_limits'

export interface RateLimit {
  // What is counted, e.g. 'sign-in-address'; part of the document id.
  kind: string
  key: string
  limit: number
  windowMs: number
}

export function rateLimitId(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}\n${key}`).digest('hex')
}

// Counts one request against every limit, atomically. False (and nothing counted) when any of
// them is used up for its current window.
export async function consumeRateLimits(db: Firestore, limits: readonly RateLimit[], now = Date.now()): Promise<boolean> {
  if (limits.length === 0) return true
  const counters = limits.map((limit) => ({ limit, ref: db.collection(RATE_LIMITS_COLLECTION).doc(rateLimitId(limit.kind, limit.key)) }))
  return db.runTransaction(async (tx) => {
    const snapshots = await tx.getAll(...counters.map((c) => c.ref))
    const windows = counters.map(({ limit, ref }, i) => {
      const data = snapshots[i]?.data()
      const start = data?.windowStart instanceof Timestamp ? data.windowStart.toMillis() : Number.NaN
      const count = typeof data?.count === 'number' ? data.count : 0
      // A start in the future (clock skew between instances) also opens a new window.
      const current = start <= now && now - start < limit.windowMs
      return { limit, ref, start: current ? start : now, count: current ? count : 0 }
    })
    if (windows.some((w) => w.count >= w.limit.limit)) return false
    for (const { limit, ref, start, count } of windows) {
      tx.set(ref, {
        kind: limit.kind,
        count: count + 1,
        windowStart: Timestamp.fromMillis(start),
        // For a Firestore TTL policy on this field, which deletes finished windows.
        expiresAt: Timestamp.fromMillis(start + limit.windowMs),
      })
    }
    return true
  })
}
