// A browser-like Firebase client for tests that call the callables the way the app does: the client
// SDK, connected to the Auth and Functions emulators.
import { randomUUID } from 'node:crypto'
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app'
import type { Auth as AdminAuth } from 'firebase-admin/auth'
import { connectAuthEmulator, getAuth, signInWithEmailLink, signOut, type Auth } from 'firebase/auth'
import { connectFunctionsEmulator, getFunctions, httpsCallable, type Functions } from 'firebase/functions'
import { expect } from 'vitest'
import type { CallableName } from '#domain/callables.ts'
import { SIGN_IN_PATH } from '#domain/sign-in.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'

export interface CallableClient {
  app: FirebaseApp
  auth: Auth
  functions: Functions
  close(): Promise<void>
}

/** `name` keeps test files' clients apart when they run in one process. */
export function connectCallableClient(name: string): CallableClient {
  const app = initializeApp(
    { projectId: PROJECT_ID, apiKey: 'fake-api-key', authDomain: `${PROJECT_ID}.firebaseapp.com` },
    `${name}-${randomUUID().slice(0, 8)}`,
  )
  const auth = getAuth(app)
  connectAuthEmulator(auth, `http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}`, { disableWarnings: true })
  const functions = getFunctions(app, 'us-central1')
  connectFunctionsEmulator(functions, EMULATOR_HOST, EMULATOR_PORTS.functions)
  return {
    app,
    auth,
    functions,
    async close() {
      await signOut(auth).catch(() => {})
      await deleteApp(app)
    },
  }
}

/** The call fails with this code and, when given, the server's message (the SDK appends the HTTP status). */
export async function expectCallableError(call: Promise<unknown>, code: string, message?: string): Promise<void> {
  const error: unknown = await call.then(
    () => null,
    (reason: unknown) => reason,
  )
  expect(error).toMatchObject({ code: `functions/${code}` })
  if (message !== undefined) expect((error as Error).message.replace(/ \[\d+\]$/, '')).toBe(message)
}

/**
 * Signs the client in as a new account whose ID token carries `claims`, through an email link the
 * Admin SDK made (no callable, so no sign-in rate limit is spent).
 */
export async function signInWithClaims(
  client: Pick<CallableClient, 'auth'>,
  adminAuth: AdminAuth,
  claims: Record<string, unknown>,
): Promise<{ uid: string; email: string }> {
  const email = `caller-${randomUUID().slice(0, 8)}@callers.example`
  const user = await adminAuth.createUser({ email, emailVerified: true })
  await adminAuth.setCustomUserClaims(user.uid, claims)
  const link = await adminAuth.generateSignInWithEmailLink(email, { url: `http://127.0.0.1:3000${SIGN_IN_PATH}`, handleCodeInApp: true })
  await signInWithEmailLink(client.auth, email, link)
  return { uid: user.uid, email }
}

/** Calls the callable `name` with any payload, as the SDK sends it: the server's contract is under test. */
export async function callByName(client: CallableClient, name: CallableName, data?: unknown): Promise<unknown> {
  return (await httpsCallable(client.functions, name)(data)).data
}

/**
 * Revokes the client's current sign-in the way an administrator does: the `revoked` claim (seconds)
 * set to the sign-in's time, other claims kept; the client's token is then refreshed, so it
 * carries the claim while its sign-in stays the old one.
 */
export async function revokeSignIn(client: CallableClient, adminAuth: AdminAuth): Promise<void> {
  const user = client.auth.currentUser
  if (!user) throw new Error('nobody is signed in')
  const signedInAt = Number((await user.getIdTokenResult()).claims.auth_time)
  const { customClaims } = await adminAuth.getUser(user.uid)
  await adminAuth.setCustomUserClaims(user.uid, { ...customClaims, revoked: signedInAt })
  const refreshed = await user.getIdTokenResult(true)
  expect(refreshed.claims.revoked).toBe(signedInAt)
  expect(Number(refreshed.claims.auth_time)).toBe(signedInAt)
}
