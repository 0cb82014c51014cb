// The edge's Firestore REST reads against the emulator and the real rules, with a person's own ID
// token: one batch read answers in the order asked, a missing document is null, and a batch holding
// any document the rules refuse is refused whole (which the workspace read relies on to fall back).
import { randomUUID } from 'node:crypto'
import { FieldValue } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { companyPath } from '#domain/companies.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { FirestoreReadDenied } from '../../app/server/firestore-rest.ts'
import { firestoreReader, type FirestoreReader } from '../../app/server/firestore-rest.server.ts'
import { createCompanyHints, readWorkspace } from '../../app/server/workspace-read.server.ts'
import { companyDocument } from '../builders.ts'

let admin: AdminClients
let reader: FirestoreReader
const uid = `edge-${randomUUID().slice(0, 8)}`
const mine = `edge-mine-${uid}`
const theirs = `edge-theirs-${uid}`
// Named in the person's access, so theirs to read, but never created.
const ghost = `edge-ghost-${uid}`
const session = { uid, email: `${uid}@edge.example`, userType: 'client' as const, accessLevel: 2 }

async function idTokenOf(claims: Record<string, unknown>): Promise<string> {
  const token = await admin.auth.createCustomToken(uid, claims)
  const response = await fetch(
    `http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-api-key`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, returnSecureToken: true }) },
  )
  return ((await response.json()) as { idToken: string }).idToken
}

beforeAll(async () => {
  admin = connectToEmulators()
  await admin.db.doc(companyPath(mine)).set(companyDocument(mine, { companyName: 'Mine' }))
  await admin.db.doc(companyPath(theirs)).set(companyDocument(theirs, { companyName: 'Theirs' }))
  await admin.db
    .doc(userAccessPath(uid))
    .set({ claims: { accessLevel: 2, userType: 'client' }, companies: [mine, ghost], servicesEnabled: [], servicesManaged: [] })
  await admin.db.doc(userPreferencesPath(uid)).set({ defaultCompany: mine })
  reader = firestoreReader(
    { projectId: PROJECT_ID, emulators: { firestore: `${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}` } as never },
    await idTokenOf({ accessLevel: 2, userType: 'client' }),
  )
})

afterAll(() => disconnect(admin))

describe('batch reads at the edge', () => {
  it('answers in the order asked, with null for a document that does not exist', async () => {
    const [access, missing, company, preferences] = await reader.getAll([
      userAccessPath(uid),
      companyPath(ghost),
      companyPath(mine),
      userPreferencesPath(uid),
    ])
    expect(access).toMatchObject({ companies: [mine, ghost] })
    expect(missing).toBeNull()
    expect(company).toMatchObject({ companyName: 'Mine' })
    expect(preferences).toEqual({ defaultCompany: mine })
    expect(await reader.getAll([])).toEqual([])
  })

  it('refuses the whole batch when the rules refuse one document of it', async () => {
    await expect(reader.getAll([userAccessPath(uid), companyPath(theirs)])).rejects.toBeInstanceOf(FirestoreReadDenied)
    await expect(reader.get(companyPath(theirs))).rejects.toBeInstanceOf(FirestoreReadDenied)
  })

  it('the workspace follows a company taken away since the last visit, with one batch read when nothing changed', async () => {
    const hints = createCompanyHints()
    await admin.db.doc(userAccessPath(uid)).update({ companies: [mine, theirs] })
    const both = await readWorkspace(reader, session, hints)
    expect(both?.companies.map((c) => c.companyName)).toEqual(['Mine', 'Theirs'])
    expect(await readWorkspace(reader, session, hints)).toEqual(both)

    await admin.db.doc(userAccessPath(uid)).update({ companies: [mine] })
    const one = await readWorkspace(reader, session, hints)
    expect(one?.companies.map((c) => c.companyName)).toEqual(['Mine'])
    expect(one?.company?.slug).toBe(mine)
  })

  // Last: it revokes the person's sign-in.
  it('a sign-in revoked after the edge checked it reads no workspace at all', async () => {
    await admin.db.doc(userAccessPath(uid)).update({ 'claims.revoked': FieldValue.serverTimestamp() })
    expect(await readWorkspace(reader, session, createCompanyHints())).toBeNull()
  })
})
