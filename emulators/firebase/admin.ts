// The Admin SDK against the local emulators of the demo project. The seed, the emulator tests, the
// e2e support code and the benchmarks all connect here, so they agree on the project and the hosts.
import { deleteApp, initializeApp, type App } from 'firebase-admin/app'
import { getAuth, type Auth } from 'firebase-admin/auth'
import { getFirestore, type Firestore } from 'firebase-admin/firestore'
import { emulatorClientEnv, PROJECT_ID } from './env.ts'

export interface AdminClients {
  app: App
  auth: Auth
  db: Firestore
}

let appCount = 0

// firebase-admin takes the emulator addresses only from the environment, so the standard ones are
// filled in where unset (emulators:exec sets its own); without them it would reach a real project.
function useEmulatorHosts(): void {
  for (const [name, value] of Object.entries(emulatorClientEnv())) process.env[name] ??= value
  if (!process.env.FIRESTORE_EMULATOR_HOST || !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('Refusing to use the Admin SDK without FIRESTORE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST')
  }
}

/** Clients of an app of their own; `disconnect` them when done. */
export function connectToEmulators(): AdminClients {
  useEmulatorHosts()
  appCount += 1
  const app = initializeApp({ projectId: PROJECT_ID }, `admin-${process.pid}-${appCount}`)
  return { app, auth: getAuth(app), db: getFirestore(app) }
}

let shared: AdminClients | undefined

/** One set of clients for the life of the process (e2e support code, benchmarks). */
export function sharedAdmin(): AdminClients {
  shared ??= connectToEmulators()
  return shared
}

export async function disconnect(clients: AdminClients): Promise<void> {
  if (clients === shared) shared = undefined
  await deleteApp(clients.app)
}
