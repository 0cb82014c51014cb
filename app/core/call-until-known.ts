// A write whose answer did not come (a timeout, a dropped connection, the server's database out of
// reach) may have been made all the same. When the write is made once per request id (decision
// 0046), asking again with the same id is safe: it answers what the first try did, or does the
// work now. So after such a failure the page says it may have been saved and is checking, asks again
// a few times, further apart each time, and then shows what is true: the write's answer, its
// refusal, or that it could not be checked yet (and the person checks again with the same id).
// Free of the Firebase SDK: pages import it with their own code.

/** Words of a write whose outcome is not known yet; pages show them as they are. */
export const writeCheckMessages = {
  checking: 'The service did not answer in time. It may have been saved: checking…',
  unchecked: 'It may have been saved, but the service could not be reached to check: check again in a moment.',
} as const

/**
 * The codes of a call that may have been carried out though its answer never came: the browser
 * gave up waiting ('deadline-exceeded', 'cancelled'), the request or its answer was lost
 * ('internal', 'unknown'), or the server stopped waiting on its database ('unavailable', after the
 * write may have been sent). A refusal ('invalid-argument', 'failed-precondition', …) is an answer.
 */
const UNKNOWN_OUTCOME = new Set(['deadline-exceeded', 'cancelled', 'unavailable', 'internal', 'unknown'])

/** Whether `error` leaves it open whether the write was made. */
export function outcomeUnknown(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false
  return typeof error.code === 'string' && UNKNOWN_OUTCOME.has(error.code)
}

/** A write checked until the delays ran out without an answer: it may or may not have been made. */
export class UncheckedWrite extends Error {
  override readonly name = 'UncheckedWrite'
  readonly code = 'unchecked'
  constructor() {
    super(writeCheckMessages.unchecked)
  }
}

/** The pauses before each check: about a minute and a half in all, besides the checks themselves. */
export const CHECK_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000, 15_000]

export interface CheckOptions {
  /** Called when the outcome is not known and a check begins (before its pause). */
  onChecking?(): void
  /** Stops checking (the page went away): the promise rejects with the signal's reason. */
  signal?: AbortSignal
  delays?: readonly number[]
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop)
      resolve()
    }, ms)
    const stop = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', stop, { once: true })
  })
}

/**
 * Makes the write `attempt` (which sends the same request id every time) until its outcome is
 * known: its answer, or the refusal it met. Throws UncheckedWrite when every check failed the same
 * way; the page then offers to check again, which calls this again with the same attempt.
 */
export async function callUntilKnown<T>(attempt: () => Promise<T>, options: CheckOptions = {}): Promise<T> {
  const { onChecking, signal, delays = CHECK_DELAYS_MS } = options
  for (let check = 0; ; check++) {
    try {
      return await attempt()
    } catch (error) {
      if (!outcomeUnknown(error)) throw error
      if (check >= delays.length) throw new UncheckedWrite()
      onChecking?.()
      await pause(delays[check]!, signal)
    }
  }
}

/** A request id for one thing a person asked for: every try of it sends this one. */
export const newRequestId = (): string => crypto.randomUUID()
