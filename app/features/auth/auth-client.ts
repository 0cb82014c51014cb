// Sign-in by emailed link in the browser. Loaded with `import()` (it brings the Firebase SDK), so
// the first page stays small.
import { FirebaseError } from 'firebase/app'
import { isSignInWithEmailLink, signInWithEmailLink } from 'firebase/auth'
import { signInMessages, type SignInRequest, type SignInResponse } from '#domain/sign-in.ts'
import { call, CallError } from '~/core/call'
import { firebaseAuth } from '~/core/firebase'
import type { Session } from '~/core/session'
import { syncSession } from '~/core/session-live'

/** The fixed messages of #domain/sign-in.ts for what went wrong, never a raw error code. */
export function signInErrorMessage(error: unknown): string {
  // Sign-up is closed: Auth refuses unknown addresses, handleSignIn refuses users without access.
  if (error instanceof CallError) return error.code === 'permission-denied' ? signInMessages.notAuthorized : signInMessages.cannotSend
  const code = error instanceof FirebaseError ? error.code : ''
  if (code === 'auth/admin-restricted-operation') return signInMessages.notAuthorized
  if (code === 'auth/invalid-action-code' || code === 'auth/invalid-email' || code === 'auth/expired-action-code')
    return signInMessages.linkInvalid
  return signInMessages.cannotSend
}

/**
 * The link was sent to another address than the one typed: the link itself is still good, so the
 * person may try again with the right address.
 */
export function isOtherAddress(error: unknown): boolean {
  return error instanceof FirebaseError && error.code === 'auth/invalid-email'
}

export const requestSignInLink = (request: SignInRequest): Promise<SignInResponse> => call('sendSignInLink', request)

export function isSignInLink(link: string): boolean {
  return isSignInWithEmailLink(firebaseAuth(), link)
}

/**
 * Completes sign-in from the emailed link: signs in with it, has the server copy the user's access
 * into their token, and starts the edge session with the refreshed token.
 */
export async function completeSignIn(email: string, link: string): Promise<Session | null> {
  const { user } = await signInWithEmailLink(firebaseAuth(), email, link)
  await call('handleSignIn')
  return (await syncSession(user, true)).session
}
