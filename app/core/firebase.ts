// The Firebase web SDK, loaded on demand (it is larger than the rest of the first page together):
// import this module only with `import()`, from event handlers, effects and other lazy modules.
import { getApp, getApps, initializeApp, type FirebaseApp } from 'firebase/app'
import { browserLocalPersistence, connectAuthEmulator, indexedDBLocalPersistence, initializeAuth, type Auth } from 'firebase/auth'
import { connectFirestoreEmulator, getFirestore, type Firestore } from 'firebase/firestore'
import { connectFunctionsEmulator, getFunctions, type Functions } from 'firebase/functions'
import { clientBoot } from './client-boot'
import type { PublicConfig } from './session'

export interface FirebaseClient {
  app: FirebaseApp
  auth: Auth
  functions: Functions
  firestore: Firestore
}

let client: FirebaseClient | undefined

const hostAndPort = (value: string): [string, number] => {
  const at = value.lastIndexOf(':')
  return [value.slice(0, at), Number(value.slice(at + 1))]
}

function connect(config: PublicConfig): FirebaseClient {
  const app =
    getApps().length > 0 ? getApp() : initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId })
  const auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] })
  // The callables' region, Firebase's default (functions/src/options.ts).
  const functions = getFunctions(app, 'us-central1')
  const firestore = getFirestore(app)
  const emulators = config.emulators
  if (emulators) {
    connectAuthEmulator(auth, `http://${emulators.auth}`, { disableWarnings: true })
    if (emulators.functions) connectFunctionsEmulator(functions, ...hostAndPort(emulators.functions))
    if (emulators.firestore) connectFirestoreEmulator(firestore, ...hostAndPort(emulators.firestore))
  }
  return { app, auth, functions, firestore }
}

/** The app's Firebase clients, set up once from the settings the server rendered with. */
function firebaseClient(): FirebaseClient {
  client ??= connect(clientBoot.current().firebase)
  return client
}

export const firebaseAuth = (): Auth => firebaseClient().auth
export const firestore = (): Firestore => firebaseClient().firestore
export const functions = (): Functions => firebaseClient().functions
