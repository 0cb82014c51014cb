// Who calls a callable and what their ID token lets them do. The token's custom claims are the
// authority, as in firestore.rules; a revoked sign-in counts as none, as at the edge.
import type { CallableRequest } from 'firebase-functions/v2/https'
import { HttpsError } from 'firebase-functions/v2/https'
import type { Access } from '#domain/access.ts'

export interface Caller {
  uid: string
  email: string | null
  access: Access
}

const claimNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

/** The caller, when signed in and `allowed` by access.ts; throws unauthenticated or permission-denied. */
export function authorizedCaller(request: CallableRequest<unknown>, allowed: (access: Access) => boolean): Caller {
  if (!request.auth) throw new HttpsError('unauthenticated', 'Sign in first.')
  const { uid, token } = request.auth
  const revoked = claimNumber(token.revoked)
  if (revoked !== null && revoked >= token.auth_time) throw new HttpsError('unauthenticated', 'Your sign-in was revoked: sign in again.')
  const access: Access = {
    accessLevel: claimNumber(token.accessLevel),
    userType: token.userType === 'analyst' || token.userType === 'client' ? token.userType : null,
  }
  if (!allowed(access)) throw new HttpsError('permission-denied', 'Your access does not allow this.')
  return { uid, email: typeof token.email === 'string' ? token.email : null, access }
}
