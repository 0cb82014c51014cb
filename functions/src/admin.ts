// Admin SDK clients, created on first use: the deploy and emulator discovery load this module
// without calling anything.
import { getApps, initializeApp, type App } from 'firebase-admin/app'
import { getAuth, type Auth } from 'firebase-admin/auth'
import { getFirestore, type Firestore } from 'firebase-admin/firestore'

function app(): App {
  return getApps()[0] ?? initializeApp()
}

export function adminAuth(): Auth {
  return getAuth(app())
}

export function adminDb(): Firestore {
  return getFirestore(app())
}
