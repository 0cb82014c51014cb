// The page's callables, loaded when first used (`~/core/call-lazily`: the Firebase SDK comes with the first call).
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { callErrorOfLazily, callLazily } from '~/core/call-lazily'
import { UncheckedWrite } from '~/core/call-until-known'

export function callAnalyst<N extends CallableName>(name: N, data: CallableRequest<N>): Promise<CallableResponse<N>> {
  return (callLazily as (name: N, data: CallableRequest<N>) => Promise<CallableResponse<N>>)(name, data)
}

/** What to tell the analyst: a call's error as the app words it, or the page's own message. */
export async function failureMessage(error: unknown): Promise<string> {
  if (error instanceof UncheckedWrite || (error instanceof Error && !('code' in error))) return error.message
  return (await callErrorOfLazily(error)).message
}
