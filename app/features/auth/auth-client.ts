// Sign-in, sign-out and the session's upkeep in the browser. Loaded with `import()` (it brings the
// Firebase SDK), so the first page stays small.
import { FirebaseError } from 'firebase/app'
import { isSignInWithEmailLink, onIdTokenChanged, signInWithEmailLink, signOut, type User } from 'firebase/auth'
import { doc, onSnapshot, type Timestamp } from 'firebase/firestore'
import * as v from 'valibot'
import { HandleSignInResponseSchema, signInMessages, type SignInRequest, type SignInResponse } from '#domain/sign-in.ts'
import { callable, firebaseClient } from '~/lib/firebase'
import { clientBoot } from '~/features/session/client-boot'
import { endSession, startSession } from '~/features/session/session.functions'
import type { Session } from '~/features/session/session'

const client = () => firebaseClient(clientBoot.current().firebase)

/** The spec's messages for what went wrong, never a raw error code. */
export function signInErrorMessage(error: unknown): string {
  const code = error instanceof FirebaseError ? error.code : ''
  // Sign-up is closed: Auth refuses unknown addresses, handleSignIn refuses users without access.
  if (code === 'auth/admin-restricted-operation' || code === 'functions/permission-denied') return signInMessages.notAuthorized
  if (code === 'auth/invalid-action-code' || code === 'auth/invalid-email' || code === 'auth/expired-action-code') return signInMessages.linkInvalid
  return signInMessages.cannotSend
}

export async function requestSignInLink(request: SignInRequest): Promise<SignInResponse> {
  const call = callable<SignInRequest, SignInResponse>(client().functions, 'sendSignInLink')
  return (await call(request)).data
}

export function isSignInLink(link: string): boolean {
  return isSignInWithEmailLink(client().auth, link)
}

/**
 * Completes sign-in from the emailed link: signs in with it, has the server copy the user's access
 * into their token, and starts the edge session with the refreshed token.
 */
export async function completeSignIn(email: string, link: string): Promise<Session | null> {
  const { auth, functions } = client()
  const { user } = await signInWithEmailLink(auth, email, link)
  const handleSignIn = callable(functions, 'handleSignIn')
  v.parse(HandleSignInResponseSchema, (await handleSignIn()).data)
  return syncSession(user, true)
}

async function syncSession(user: User, forceRefresh: boolean): Promise<Session | null> {
  const idToken = await user.getIdToken(forceRefresh)
  const { session, workspace } = await startSession({ data: { idToken, refreshToken: user.refreshToken } })
  clientBoot.setSession(session)
  clientBoot.setWorkspace(workspace)
  return session
}

export async function signOutEverywhere(): Promise<void> {
  await signOut(client().auth).catch(() => undefined)
  await endSession()
  clientBoot.setSession(null)
}

const seconds = (value: unknown): number | null =>
  value && typeof (value as Timestamp).toMillis === 'function' ? (value as Timestamp).toMillis() / 1000 : null

/**
 * Keeps a signed-in browser in step: every new ID token goes to the edge; an administrator's
 * revocation signs the user out at once; a change of access refreshes the token. `onChange` is
 * told whenever the session changed, so the app can re-render its guards and navigation.
 */
export function watchSession(onChange: (session: Session | null) => void): () => void {
  const { auth, firestore } = client()
  let stopAccess: (() => void) | undefined
  let lastToken: string | undefined
  let ended = false

  // Once: signing out of the SDK fires the token listener again with no user.
  const end = async () => {
    if (ended) return
    ended = true
    stopAccess?.()
    await signOutEverywhere()
    onChange(null)
  }

  const stopToken = onIdTokenChanged(auth, async (user) => {
    stopAccess?.()
    stopAccess = undefined
    // Signed out in the Firebase SDK (another tab, cleared storage): end the edge session too.
    if (!user) return end()
    const token = await user.getIdTokenResult()
    if (token.token !== lastToken) {
      lastToken = token.token
      onChange(await syncSession(user, false))
    }
    const signedInAt = Date.parse(token.authTime) / 1000
    const issuedAt = Date.parse(token.issuedAtTime) / 1000
    stopAccess = onSnapshot(
      doc(firestore, 'users_access', user.uid),
      async (snapshot) => {
        const claims = (snapshot.data()?.claims ?? {}) as { revoked?: unknown; synced?: unknown }
        const revoked = seconds(claims.revoked)
        const synced = seconds(claims.synced)
        if (revoked !== null && revoked >= signedInAt) await end()
        else if (synced !== null && synced > issuedAt) {
          await user.getIdToken(true)
        }
      },
      // Reading one's own access is always allowed; a denial means the sign-in is no longer valid.
      () => void end(),
    )
  })
  return () => {
    stopToken()
    stopAccess?.()
  }
}
