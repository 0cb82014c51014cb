// A write a person may send again (their answer was lost, or came too late) is made once: the
// callable's transaction reads the request's receipt first and, when there is one, answers what
// the first try answered; otherwise it does the work and writes the receipt with it, all or
// nothing (decision 0046).
import { createHash } from 'node:crypto'
import { FieldValue, Timestamp, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import type { CallableName } from '#domain/callables.ts'
import { CALL_RECEIPT_KEEP_MS, callReceiptFromDocument, callReceiptMessages, callReceiptPath } from '#domain/call-receipts.ts'

/** The receipt's id: a hash, so neither the uid nor the request id needs to be a valid document id. */
export function callReceiptId(uid: string, callable: CallableName, requestId: string): string {
  return createHash('sha256').update(`${uid}\n${callable}\n${requestId}`).digest('hex')
}

/** What identifies a request apart from its id: the same id may only repeat the same request. */
export function requestHash(request: { requestId: string }): string {
  const rest: Record<string, unknown> = { ...request }
  delete rest.requestId
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex')
}

/** Firestore's codes for a document already there (a racing try created it) and for contention. */
const RACED = new Set([6, 10])

export interface Once<T> {
  answer: T
  /** True when an earlier try had done the work: nothing was written now. */
  replayed: boolean
}

/**
 * How a write's transaction runs: as it is (`db.runTransaction`), or at most once for a request id
 * (`once`). The report writes take one, so a callable and the client API share their work.
 */
export type Transact = <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>

/**
 * Runs `work` in a transaction at most once for the caller's request id. `work` does its reads and
 * writes through `tx`; what it returns is the answer, written with the receipt (plain data only).
 */
export async function once<T>(
  db: Firestore,
  uid: string,
  callable: CallableName,
  request: { requestId: string },
  work: (tx: Transaction) => Promise<T>,
  now = Date.now(),
): Promise<Once<T>> {
  const ref = db.doc(callReceiptPath(callReceiptId(uid, callable, request.requestId)))
  const hash = requestHash(request)
  const earlier = (data: unknown): Once<T> => {
    const receipt = callReceiptFromDocument(data)
    if (!receipt) throw new HttpsError('internal', 'The record of this request cannot be read.')
    if (receipt.requestHash !== hash) throw new HttpsError('already-exists', callReceiptMessages.otherRequest)
    return { answer: receipt.answer as T, replayed: true }
  }
  try {
    return await db.runTransaction(async (tx) => {
      const receipt = await tx.get(ref)
      if (receipt.exists) return earlier(receipt.data())
      const answer = await work(tx)
      tx.create(ref, {
        uid,
        callable,
        requestHash: hash,
        answer,
        at: FieldValue.serverTimestamp(),
        purgeAt: Timestamp.fromMillis(now + CALL_RECEIPT_KEEP_MS),
      })
      return { answer, replayed: false }
    })
  } catch (error) {
    // Two tries at once: the one that lost may have failed on what the other created.
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
    if (typeof code !== 'number' || !RACED.has(code)) throw error
    const receipt = await ref.get()
    if (receipt.exists) return earlier(receipt.data())
    throw error
  }
}
