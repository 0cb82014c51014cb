// Admin SDK clients, created on first use: the deploy and emulator discovery load this module
// without calling anything.
import { getApps, initializeApp, type App } from 'firebase-admin/app'
import { getAuth, type Auth } from 'firebase-admin/auth'
import { getFirestore, type Firestore } from 'firebase-admin/firestore'
import { failAbandonedWrites } from './database-reach.ts'

function app(): App {
  return getApps()[0] ?? initializeApp()
}

export function adminAuth(): Auth {
  return getAuth(app())
}

let db: Firestore | undefined

export function adminDb(): Firestore {
  if (!db) {
    db = getFirestore(app())
    db.settings({ grpcOptions: { 'grpc.callInvocationTransformer': failAbandonedWrites } })
  }
  return db
}
