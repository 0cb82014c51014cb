// A callable (and an HTTP function: the agents' and the DAST API) answers promptly when the database
// cannot be reached. Against a database that stops
// answering, the Admin SDK's Firestore client waits up to 60 s (300 s for reads and queries) for
// each request, retries reads and commits for up to 10 minutes and runs a transaction up to five
// times: a callable would hang far past the 70 s a browser waits for it. So while a callable runs,
// its database's host is asked whether it answers at all; when it does not, the call is answered
// `unavailable` and its work is abandoned: every write it still makes fails at once, so nothing is
// written after the person was told it was not done.
import { AsyncLocalStorage } from 'node:async_hooks'
import { HttpsError } from 'firebase-functions/v2/https'
import { callableMessages } from '#domain/callables.ts'

// The bound: a call that meets a database out of reach is answered within about 7 s (10 s when the
// database goes away while it runs), well inside the browser's 70 s, and a slow call that reaches it
// costs one small request every 5 s.
/** The first check comes after this long: most callables have answered by then. */
export const FIRST_CHECK_MS = 2_000
/** Then one check this often while the callable runs. */
export const CHECK_EVERY_MS = 5_000
/** A host that has not answered in this long is out of reach (as the browser's probe, decision 0025). */
export const CHECK_TIMEOUT_MS = 5_000

/** gRPC's codes for a server that did not answer (UNAVAILABLE) or not in time (DEADLINE_EXCEEDED). */
const OUT_OF_REACH_CODES = new Set([14, 4])

const work = new AsyncLocalStorage<{ abandoned: boolean }>()

/**
 * The Firestore requests that write. Only these fail for abandoned work: its reads still go, since a
 * transaction's reads lock their documents until it ends, and it ends (rolled back) only once its
 * commit has failed; failing its reads instead would keep those locks while the SDK retries them.
 */
const WRITES = new Set(['/google.firestore.v1.Firestore/Commit', '/google.firestore.v1.Firestore/BatchWrite'])

/**
 * The Firestore client's `grpc.callInvocationTransformer`: a write made for abandoned work gets a
 * deadline already past, so it fails without being sent.
 */
export function failAbandonedWrites<Call extends { methodDefinition: { path: string }; callOptions: object }>(call: Call): Call {
  if (!work.getStore()?.abandoned || !WRITES.has(call.methodDefinition.path)) return call
  return { ...call, callOptions: { ...call.callOptions, deadline: Date.now() } }
}

/** Any answer of the host counts: this says nothing of the database's health, only that it is reached. */
async function databaseAnswers(signal: AbortSignal): Promise<boolean> {
  const host = process.env.FIRESTORE_EMULATOR_HOST
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), CHECK_TIMEOUT_MS)
  try {
    await fetch(host ? `http://${host}/` : 'https://firestore.googleapis.com/', { signal: AbortSignal.any([signal, timeout.signal]) })
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

/** Resolves true once the database's host stops answering, false once `signal` ends the watch. */
async function databaseLost(signal: AbortSignal): Promise<boolean> {
  await pause(FIRST_CHECK_MS, signal)
  while (!signal.aborted) {
    if (!(await databaseAnswers(signal))) return !signal.aborted
    await pause(CHECK_EVERY_MS, signal)
  }
  return false
}

/** Whether `error` is how the Admin SDK fails when the database did not answer. */
export function sdkOutOfReach(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
  return typeof code === 'number' && OUT_OF_REACH_CODES.has(code)
}

const OUT_OF_REACH = Symbol('the database is out of reach')

/**
 * Runs work until it ends or the database is out of reach: its host stops answering, or the work
 * fails the way the Admin SDK fails then. In that case the work goes on until it gives up, but
 * writes nothing from then on.
 */
async function untilOutOfReach<T>(run: () => Promise<T> | T): Promise<T | typeof OUT_OF_REACH> {
  const state = { abandoned: false }
  const watch = new AbortController()
  const running = work.run(state, async () => run())
  let first: { value: T } | boolean
  try {
    first = await Promise.race([running.then((value) => ({ value })), databaseLost(watch.signal)])
  } catch (error) {
    if (sdkOutOfReach(error)) return OUT_OF_REACH
    throw error
  } finally {
    watch.abort()
  }
  // Only a lost database ends the watch before the work does.
  if (typeof first === 'object') return first.value
  state.abandoned = true
  return OUT_OF_REACH
}

/** Runs a callable's work, answering `unavailable`, in words, as soon as the database is out of reach. */
export async function withinDatabaseReach<T>(run: () => Promise<T> | T): Promise<T> {
  const answer = await untilOutOfReach(run)
  if (answer === OUT_OF_REACH) throw new HttpsError('unavailable', callableMessages.databaseUnreachable)
  return answer
}

/** An HTTP function's answer while the database is out of reach: 503, in the callables' words. */
export const OUT_OF_REACH_ANSWER = { status: 503, body: { error: callableMessages.databaseUnreachable } } as const

/**
 * Runs an HTTP function's work as a callable's (an agent or a CI job waits no longer than a person),
 * answering `OUT_OF_REACH_ANSWER` as soon as the database is out of reach.
 */
export async function answerWithinDatabaseReach<Answer>(run: () => Promise<Answer>): Promise<Answer | typeof OUT_OF_REACH_ANSWER> {
  const answer = await untilOutOfReach(run)
  return answer === OUT_OF_REACH ? OUT_OF_REACH_ANSWER : answer
}
