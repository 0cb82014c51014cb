// How the fleet pages word a failed call: a callable's error as the app words it, or the page's own.
import type { CallableName, CallableRequest } from '#domain/callables.ts'
import { callErrorOfLazily, callLazily } from '~/core/call-lazily'

export async function failureMessage(error: unknown): Promise<string> {
  if (error instanceof Error && !('code' in error)) return error.message
  return (await callErrorOfLazily(error)).message
}

/** For a confirmation dialog, which shows what its action throws: the call's failure in words. */
export async function callFleetOrExplain<N extends CallableName>(name: N, data: CallableRequest<N>): Promise<void> {
  try {
    await (callLazily as (name: N, data: CallableRequest<N>) => Promise<unknown>)(name, data)
  } catch (error) {
    throw new Error(await failureMessage(error))
  }
}
