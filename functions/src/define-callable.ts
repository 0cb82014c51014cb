// The one way to define a callable: its contract in #domain/callables.ts decides who may call
// and what it takes and answers; the handler only does the work. The ID token's custom claims are
// the authority, as in firestore.rules; a revoked sign-in counts as none, as at the edge. A
// sign-in counts as revoked when its token says so or when the Auth user's `revoked` claim says so
// now (syncUserClaims revokes on every demotion or removal), so a token minted before the
// revocation is refused at once, not when it expires (decision 0019).
import './options.ts'
import type { DecodedIdToken } from 'firebase-admin/auth'
import * as logger from 'firebase-functions/logger'
import {
  HttpsError,
  onCall,
  type CallableFunction,
  type CallableOptions,
  type CallableRequest as HttpsRequest,
} from 'firebase-functions/v2/https'
import * as v from 'valibot'
import { callables, type CallableAudience, type CallableData, type CallableName, type CallableResponse } from '#domain/callables.ts'
import { accessFromClaims, tokenRevoked, type ClaimsAccess } from '#domain/users-access.ts'
import { adminAuth } from './admin.ts'
import { guardCallable } from './callable-guard.ts'
import { withinDatabaseReach } from './database-reach.ts'

export interface Caller {
  uid: string
  email: string | null
  access: ClaimsAccess
  /** The verified ID token, for the claims a handler needs beyond these (name, email_verified). */
  token: DecodedIdToken
}

export const callerMessages = {
  signedOut: 'Sign in first.',
  revoked: 'Your sign-in was revoked: sign in again.',
  denied: 'Your access does not allow this.',
} as const

/** The caller of a signed-in request, or null when there is none or it was revoked. */
function signedInCaller(request: HttpsRequest<unknown>): Caller | null {
  if (!request.auth) return null
  const { uid, token } = request.auth
  if (tokenRevoked(token, token.auth_time)) return null
  return { uid, email: typeof token.email === 'string' ? token.email : null, access: accessFromClaims(token), token }
}

/**
 * Who calls, as `who` admits them. Public callables get the caller when there is one; the others
 * refuse no sign-in or a revoked one (unauthenticated) and access the rule refuses (permission-denied).
 */
export function admitCaller(request: HttpsRequest<unknown>, who: CallableAudience): Caller | null {
  const caller = signedInCaller(request)
  if (who === 'public') return caller
  if (!request.auth) throw new HttpsError('unauthenticated', callerMessages.signedOut)
  if (!caller) throw new HttpsError('unauthenticated', callerMessages.revoked)
  if (who !== 'signed-in' && !who(caller.access)) throw new HttpsError('permission-denied', callerMessages.denied)
  return caller
}

const codeOf = (error: unknown) => (typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined)

/**
 * Whether the user's sign-ins were revoked at or after this one, as the `revoked` claim on the Auth
 * user says now (the token carries it only if minted later), or the user is gone. One Auth lookup
 * per call.
 */
export async function revokedSince(caller: Caller): Promise<boolean> {
  try {
    const { customClaims } = await adminAuth().getUser(caller.uid)
    return tokenRevoked(customClaims ?? {}, caller.token.auth_time)
  } catch (error) {
    if (codeOf(error) === 'auth/user-not-found') return true
    throw error
  }
}

type CallerOf<N extends CallableName> = (typeof callables)[N]['who'] extends 'public' ? Caller | null : Caller

export type CallableHandler<N extends CallableName> = (
  caller: CallerOf<N>,
  data: CallableData<N>,
  request: HttpsRequest<unknown>,
) => Promise<CallableResponse<N>> | CallableResponse<N>

/** A defined callable knows its registry name, so its export can be checked against it. */
export type DefinedCallable<N extends CallableName> = CallableFunction<unknown, Promise<CallableResponse<N>>> & { callableName: N }

export function defineCallable<N extends CallableName>(name: N, options: CallableOptions, handler: CallableHandler<N>): DefinedCallable<N> {
  const contract: { request: v.GenericSchema; response: v.GenericSchema; who: CallableAudience } = callables[name]
  const callable = onCall<unknown, Promise<CallableResponse<N>>>(options, async (request) => {
    let caller = admitCaller(request, contract.who) as CallerOf<N>
    if (caller && (await revokedSince(caller))) {
      if (contract.who !== 'public') throw new HttpsError('unauthenticated', callerMessages.revoked)
      caller = null as CallerOf<N>
    }
    const parsed = v.safeParse(contract.request, request.data)
    if (!parsed.success) throw new HttpsError('invalid-argument', parsed.issues[0].message)
    const answer = await withinDatabaseReach(() => handler(caller, parsed.output as CallableData<N>, request))
    // An answer the browser would refuse fails here, where the logs say which callable drifted.
    const checked = v.safeParse(contract.response, answer)
    if (!checked.success) {
      logger.error(`${name}: the answer does not match its contract`, {
        issues: checked.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`),
      })
      throw new HttpsError('internal', 'The answer does not match its contract.')
    }
    return answer
  })
  return Object.assign(guardCallable(callable), { callableName: name })
}
