// Calls a Cloud Function callable by its contract (#domain/callables.ts): the request is checked
// before it goes, the answer when it comes, and every failure becomes a CallError whose message a
// person can act on. Loaded with `import()`: it brings the Firebase SDK.
import { httpsCallable, type FunctionsErrorCodeCore } from 'firebase/functions'
import * as v from 'valibot'
import { callables, type CallableName, type CallableRequest, type CallableResponse } from '#domain/callables.ts'
import { functions } from './firebase'

/** The timeout of a callable function call: 70 s. */
export const CALL_TIMEOUT_MS = 70_000

/** The SDK's codes, and 'invalid-response' for an answer that breaks its contract. */
export type CallErrorCode = Exclude<FunctionsErrorCodeCore, 'ok'> | 'invalid-response'

export const callMessages = {
  signedOut: 'Your sign-in has ended: sign in again.',
  denied: 'Your access does not allow this.',
  refused: 'This request was refused.',
  noAnswer: 'The service did not answer in time: try again.',
  failed: 'Something went wrong on our side: try again.',
  unreadable: 'The answer from the service could not be read: reload the page and try again.',
} as const

/** A failed call: `message` is fit to show as it is. */
export class CallError extends Error {
  override readonly name = 'CallError'
  readonly code: CallErrorCode

  constructor(code: CallErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

const CODES: readonly CallErrorCode[] = [
  'cancelled',
  'unknown',
  'invalid-argument',
  'deadline-exceeded',
  'not-found',
  'already-exists',
  'permission-denied',
  'resource-exhausted',
  'failed-precondition',
  'aborted',
  'out-of-range',
  'unimplemented',
  'internal',
  'unavailable',
  'data-loss',
  'unauthenticated',
]

/** The SDK's error as code, message and HTTP status; null for anything else. */
function sdkError(error: unknown): { code: CallErrorCode; message: string; status: number | null } | null {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return null
  const code = CODES.find((known) => `functions/${known}` === error.code)
  if (!code) return null
  // The SDK appends the HTTP status ("… [403]"), which means nothing to people.
  const status = /\s*\[(\d+)\]$/.exec(error.message)
  return { code, message: status ? error.message.slice(0, status.index) : error.message, status: status ? Number(status[1]) : null }
}

/**
 * Whether the server wrote the message for people. Without one, the SDK makes its own from the
 * code ("permission-denied", "Backend error status: …"), and the server's errors it did not
 * throw on purpose read as the bare status ("INTERNAL").
 */
function forPeople(code: CallErrorCode, message: string): boolean {
  const text = message.trim()
  return text !== '' && text !== code && !/^Backend error status/.test(text) && !/^[A-Z_]+$/.test(text)
}

/** What a person can act on, whatever went wrong in a call. */
export function callErrorOf(error: unknown): CallError {
  if (error instanceof CallError) return error
  const sdk = sdkError(error)
  if (!sdk) return new CallError('unknown', callMessages.failed)
  const { code, message, status } = sdk
  const own = forPeople(code, message) ? message : null
  switch (code) {
    case 'unauthenticated':
      return new CallError(code, callMessages.signedOut)
    case 'permission-denied':
      return new CallError(code, own ?? callMessages.denied)
    case 'invalid-argument':
    case 'failed-precondition':
    case 'not-found':
    case 'already-exists':
    case 'out-of-range':
    case 'resource-exhausted':
    case 'aborted':
      return new CallError(code, own ?? callMessages.refused)
    case 'unavailable':
      // The server says so when its database is out of reach (callableMessages).
      return new CallError(code, own ?? callMessages.noAnswer)
    case 'deadline-exceeded':
    case 'cancelled':
      return new CallError(code, callMessages.noAnswer)
    default:
      // The SDK reports a request that never reached the server as internal, with status 0.
      return new CallError(code, status === 0 ? callMessages.noAnswer : callMessages.failed)
  }
}

/** Sends `data` to the callable `name` and gives its raw answer. */
export type CallTransport = (name: CallableName, data: unknown) => Promise<unknown>

/** Callables that take nothing may be called without data. */
type RequestArguments<N extends CallableName> =
  undefined extends CallableRequest<N> ? [data?: CallableRequest<N>] : [data: CallableRequest<N>]

export type Call = <N extends CallableName>(name: N, ...data: RequestArguments<N>) => Promise<CallableResponse<N>>

/** `call` over another transport than the SDK's. */
export function callOver(send: CallTransport): Call {
  return async (name, ...[data]) => {
    const contract: { request: v.GenericSchema; response: v.GenericSchema } = callables[name]
    // The server would refuse it the same way: say so without the round trip.
    const request = v.safeParse(contract.request, data)
    if (!request.success) throw new CallError('invalid-argument', request.issues[0].message)
    let answer: unknown
    try {
      answer = await send(name, data ?? null)
    } catch (error) {
      throw callErrorOf(error)
    }
    const response = v.safeParse(contract.response, answer)
    if (!response.success) {
      console.error(`${name}: the answer does not match its contract`, response.issues[0].message)
      throw new CallError('invalid-response', callMessages.unreadable)
    }
    return response.output as CallableResponse<typeof name>
  }
}

const sdk: CallTransport = async (name, data) => (await httpsCallable(functions(), name, { timeout: CALL_TIMEOUT_MS })(data)).data

/** Calls the callable `name` with `data`; throws a CallError. */
export const call: Call = callOver(sdk)
