// Who calls a callable and what their ID token lets them do. The token's custom claims are the
// authority, as in firestore.rules; a revoked sign-in counts as none, as at the edge.
import type { CallableRequest } from 'firebase-functions/v2/https'
import { HttpsError } from 'firebase-functions/v2/https'
import type { Access } from '#domain/access.ts'
import { accessFromClaims, tokenRevoked } from '#domain/users-access.ts'

export interface Caller {
  uid: string
  email: string | null
  access: Access
}

/** The caller, when signed in and `allowed` by access.ts; throws unauthenticated or permission-denied. */
export function authorizedCaller(request: CallableRequest<unknown>, allowed: (access: Access) => boolean): Caller {
  if (!request.auth) throw new HttpsError('unauthenticated', 'Sign in first.')
  const { uid, token } = request.auth
  if (tokenRevoked(token, token.auth_time)) throw new HttpsError('unauthenticated', 'Your sign-in was revoked: sign in again.')
  const access: Access = accessFromClaims(token)
  if (!allowed(access)) throw new HttpsError('permission-denied', 'Your access does not allow this.')
  return { uid, email: typeof token.email === 'string' ? token.email : null, access }
}
