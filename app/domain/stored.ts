// What every stored document shares, whichever runtime reads it: time stamps arrive as Timestamps
// of either Firestore SDK, or as epoch milliseconds from the edge's REST reads.
import * as v from 'valibot'

/** A Firestore Timestamp of either SDK. */
interface TimestampLike {
  toMillis(): number
}

const isTimestamp = (value: unknown): value is TimestampLike =>
  typeof value === 'object' && value !== null && 'toMillis' in value && typeof value.toMillis === 'function'

/** A stored time, as epoch milliseconds. */
export const TimestampSchema = v.union(
  [
    v.pipe(
      v.custom<TimestampLike>(isTimestamp, 'Expected a timestamp'),
      v.transform((timestamp) => timestamp.toMillis()),
    ),
    v.pipe(v.number(), v.finite()),
  ],
  'Expected a timestamp',
)

/** Keys whose numbers are times: `at`, anything ending in `At`, and a certificate's `notAfter`. */
const isTimeKey = (key: string) => key === 'at' || key.endsWith('At') || key === 'notAfter'

/**
 * A record as Firestore stores it: in memory the reports keep times as epoch milliseconds, stored
 * they are Timestamps (made by the caller's SDK, `toTimestamp`); undefined values are left out,
 * which Firestore refuses.
 */
export function storedTimes<Time>(value: unknown, toTimestamp: (millis: number) => Time, key = ''): unknown {
  if (typeof value === 'number' && isTimeKey(key)) return toTimestamp(value)
  if (Array.isArray(value)) return value.map((item) => storedTimes(item, toTimestamp))
  if (value instanceof Map) throw new Error('Maps are not stored')
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = storedTimes(v, toTimestamp, k)
    return out
  }
  return value
}
