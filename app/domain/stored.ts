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
