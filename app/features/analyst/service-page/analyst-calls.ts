// The page's callables, loaded when first used (`~/core/call` brings the Firebase SDK).
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { UncheckedWrite } from '~/core/call-until-known'

export async function callAnalyst<N extends CallableName>(name: N, data: CallableRequest<N>): Promise<CallableResponse<N>> {
  const { call } = await import('~/core/call')
  return (call as (name: N, data: CallableRequest<N>) => Promise<CallableResponse<N>>)(name, data)
}

/** What to tell the analyst: a call's error as the app words it, or the page's own message. */
export async function failureMessage(error: unknown): Promise<string> {
  if (error instanceof UncheckedWrite || (error instanceof Error && !('code' in error))) return error.message
  const { callErrorOf } = await import('~/core/call')
  return callErrorOf(error).message
}
