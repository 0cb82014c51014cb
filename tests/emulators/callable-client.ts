// A browser-like Firebase client for tests that call the callables the way the app does: the client
// SDK, connected to the Auth and Functions emulators.
import { randomUUID } from 'node:crypto'
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app'
import { connectAuthEmulator, getAuth, signOut, type Auth } from 'firebase/auth'
import { connectFunctionsEmulator, getFunctions, type Functions } from 'firebase/functions'
import { expect } from 'vitest'
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

export async function expectCallableError(call: Promise<unknown>, code: string): Promise<void> {
  await expect(call).rejects.toMatchObject({ code: `functions/${code}` })
}
