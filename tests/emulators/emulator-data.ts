// Helpers for emulator tests: wiping and reading the whole state of the demo project.
import { USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { USERS_PREFERENCES_COLLECTION } from '#domain/users-preferences.ts'
import { COMPANIES_COLLECTION } from '#domain/companies.ts'
import { EMAIL_KEYS_COLLECTION } from '#domain/email-keys.ts'
import type { AdminClients } from '../../emulators/firebase/admin.ts'
import { PROJECT_ID } from '../../emulators/firebase/env.ts'
import { withoutBackgroundTriggers } from '../../emulators/firebase/triggers.ts'

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set`)
  return value
}

// The emulators' own REST endpoints for deleting every document and every account. With the
// triggers held back: an earlier file's late trigger (the claims sync of a users_access document it
// wrote, say) would otherwise run on the state the next file is building, and change it.
export async function clearEmulators(): Promise<void> {
  const firestore = `http://${required('FIRESTORE_EMULATOR_HOST')}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`
  const auth = `http://${required('FIREBASE_AUTH_EMULATOR_HOST')}/emulator/v1/projects/${PROJECT_ID}/accounts`
  await withoutBackgroundTriggers(async () => {
    for (const url of [firestore, auth]) {
      const response = await fetch(url, { method: 'DELETE' })
      if (!response.ok) throw new Error(`DELETE ${url}: ${response.status}`)
    }
  })
}

export interface ProjectState {
  users: Record<string, unknown>[]
  documents: Record<string, unknown>
}

// Users and the seeded collections, in a stable order, for comparing two moments.
export async function readProjectState({ auth, db }: AdminClients): Promise<ProjectState> {
  const { users } = await auth.listUsers(1000)
  const documents: Record<string, unknown> = {}
  const snapshots = await Promise.all([
    ...[
      COMPANIES_COLLECTION,
      USERS_ACCESS_COLLECTION,
      USERS_PREFERENCES_COLLECTION,
      EMAIL_KEYS_COLLECTION,
      'finding_templates',
      'finding_tags',
    ].map((name) => db.collection(name).get()),
    // The references of each tag, and the findings of each company.
    ...['tags', 'findings'].map((name) => db.collectionGroup(name).get()),
  ])
  for (const snapshot of snapshots) for (const doc of snapshot.docs) documents[doc.ref.path] = doc.data()
  return {
    users: users
      .map((u) => ({
        uid: u.uid,
        email: u.email,
        displayName: u.displayName,
        emailVerified: u.emailVerified,
        disabled: u.disabled,
        photoURL: u.photoURL,
        customClaims: u.customClaims,
      }))
      .sort((a, b) => a.uid.localeCompare(b.uid)),
    documents: Object.fromEntries(Object.entries(documents).sort(([a], [b]) => a.localeCompare(b))),
  }
}
