// The fleet pages' callables, loaded when first used (`~/core/call` brings the Firebase SDK).
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'

export async function callFleet<N extends CallableName>(name: N, data: CallableRequest<N>): Promise<CallableResponse<N>> {
  const { call } = await import('~/core/call')
  return (call as (name: N, data: CallableRequest<N>) => Promise<CallableResponse<N>>)(name, data)
}

export async function failureMessage(error: unknown): Promise<string> {
  if (error instanceof Error && !('code' in error)) return error.message
  const { callErrorOf } = await import('~/core/call')
  return callErrorOf(error).message
}

/** For a confirmation dialog, which shows what its action throws: the call's failure in words. */
export async function callFleetOrExplain<N extends CallableName>(name: N, data: CallableRequest<N>): Promise<void> {
  try {
    await callFleet(name, data)
  } catch (error) {
    throw new Error(await failureMessage(error))
  }
}
