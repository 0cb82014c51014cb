// call_receipts/{id}: what a write that may be tried again answered the first time (decision 0046).
// The browser gives each thing a person asks for a request id and sends it with every try; the
// callable writes its receipt in the same transaction as its write, keyed by caller, callable and
// request id, so a repeat of the same request writes nothing and answers what the first try did.
// Written and read by the functions only; gone after a day (TTL on purgeAt).
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'

export const CALL_RECEIPTS_COLLECTION = 'call_receipts'

export const callReceiptPath = (id: string) => `${CALL_RECEIPTS_COLLECTION}/${id}`

/** How long a receipt is kept: far longer than a person keeps checking a write they could not see land. */
export const CALL_RECEIPT_KEEP_MS = 24 * 60 * 60 * 1000

/** One request id per thing a person asked for (a UUID in the browser), the same on every try. */
export const RequestIdSchema = v.pipe(
  v.string('Send the request id'),
  v.regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not a request id: send 16 to 64 letters, digits, dashes or underscores'),
)

export const CallReceiptSchema = v.object({
  uid: v.string(),
  callable: v.string(),
  /** SHA-256 of the request without its request id: the same id may only repeat the same request. */
  requestHash: v.string(),
  /** What the first try answered, as it was written. */
  answer: v.unknown(),
  at: v.nullish(TimestampSchema),
  purgeAt: TimestampSchema,
})
export type CallReceipt = v.InferOutput<typeof CallReceiptSchema>

export const callReceiptFromDocument = (data: unknown): CallReceipt | null => {
  const parsed = v.safeParse(CallReceiptSchema, data)
  return parsed.success ? parsed.output : null
}

export const callReceiptMessages = {
  /** The same request id with other content: the first try was saved, as it was sent then. */
  otherRequest: 'This was saved already, as it was first sent: what you changed since was not sent.',
} as const
