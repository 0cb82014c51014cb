// The callables for code in a page's first load. `./call` brings the Firebase SDK, which the page
// budgets (tests/e2e/bundle-budget.spec.ts) keep out of it: it is imported when the first call is
// made, not when the page loads. Import only types from `./call` here, never its values.
import type { Call, CallError } from './call'

/** `call`, with the SDK loaded on first use; throws a CallError. */
export const callLazily: Call = async (name, ...data) => (await import('./call')).call(name, ...data)

/** `callErrorOf`, with the SDK loaded on first use: what a person can act on, whatever went wrong. */
export const callErrorOfLazily = async (error: unknown): Promise<CallError> => (await import('./call')).callErrorOf(error)
