// What every stored document shares, whichever runtime reads it: time stamps arrive as Timestamps
// of either Firestore SDK, or as epoch milliseconds from the edge's REST reads.
import * as v from 'valibot'

/** A Firestore Timestamp of either SDK. */
export interface TimestampLike {
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

/** The stamps of every edited record (DESIGN.md section 5): who edited it last, and when. */
export const EditStampSchema = v.object({
  updatedAt: v.optional(TimestampSchema),
  updatedBy: v.optional(v.string()),
})
