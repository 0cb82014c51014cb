// Findings written behind the users' backs through the Admin SDK, as a published scan would leave
// them (the demo seed's findings are not needed for these tests), and a callable called directly.
import { randomUUID } from 'node:crypto'
import type { StoredFinding } from '#domain/findings.ts'
import { FINDING_COMMENTS_COLLECTION } from '#domain/finding-comments.ts'
import { FINDING_HISTORY_COLLECTION } from '#domain/finding-history.ts'
import { FINDING_OCCURRENCES_COLLECTION, findingPath } from '#domain/findings.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import type { ServiceId } from '#domain/services.ts'
import { EMULATOR_PORTS, PROJECT_ID } from '../../../emulators/firebase/env.ts'
import { sharedAdmin } from '../../../emulators/firebase/admin.ts'
import { findingDocument } from '../../builders.ts'

const db = () => sharedAdmin().db

/** An open finding of `service` in `company`, published today; its id. */
export async function createFinding(company: string, service: ServiceId, overrides: Partial<StoredFinding> = {}): Promise<string> {
  const id = `e2e-${randomUUID()}`
  const now = Date.now()
  await db()
    .doc(findingPath(company, id))
    .set({ ...findingDocument(service, { fingerprint: id, ...overrides }, now) })
  return id
}

/** `count` open findings of `service` in `company` in one batch, the `n`th given `overrides(n)`; their ids. */
export async function createFindings(
  company: string,
  service: ServiceId,
  count: number,
  overrides: (n: number) => Partial<StoredFinding>,
): Promise<string[]> {
  const now = Date.now()
  const ids = Array.from({ length: count }, () => `e2e-${randomUUID()}`)
  const batch = db().batch()
  ids.forEach((id, n) =>
    batch.set(db().doc(findingPath(company, id)), { ...findingDocument(service, { fingerprint: id, ...overrides(n) }, now) }),
  )
  await batch.commit()
  return ids
}

/**
 * Removes findings the test made, with what hangs off them. Each subcollection is listed on its own:
 * a recursive delete searches every document below the company, which is slow with the demo year.
 */
export async function deleteFindings(company: string, ids: readonly string[]): Promise<void> {
  const children = await Promise.all(
    ids.flatMap((id) =>
      [FINDING_HISTORY_COLLECTION, FINDING_COMMENTS_COLLECTION, FINDING_OCCURRENCES_COLLECTION].map((name) =>
        db().doc(findingPath(company, id)).collection(name).listDocuments(),
      ),
    ),
  )
  const doomed = [...children.flat(), ...ids.map((id) => db().doc(findingPath(company, id)))]
  // A batch holds at most 500 writes.
  for (let start = 0; start < doomed.length; start += 500) {
    const batch = db().batch()
    for (const ref of doomed.slice(start, start + 500)) batch.delete(ref)
    await batch.commit()
  }
}

/** The company a demo user starts in (their stored choice), to set for a test and put back after. */
export async function defaultCompanyOf(uid: string): Promise<string | undefined> {
  return ((await db().doc(userPreferencesPath(uid)).get()).data() as { defaultCompany?: string } | undefined)?.defaultCompany
}

/** An ID token of the demo user, from the Auth emulator (their custom claims included). */
async function idTokenOf(uid: string): Promise<string> {
  const token = await sharedAdmin().auth.createCustomToken(uid)
  const response = await fetch(
    `http://127.0.0.1:${EMULATOR_PORTS.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-key`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, returnSecureToken: true }) },
  )
  return ((await response.json()) as { idToken: string }).idToken
}

/** Calls a callable as the demo user, as the SDK would; the HTTP status and the error's status. */
export async function callAs(
  uid: string,
  name: string,
  data: unknown,
): Promise<{ status: number; error?: { status: string; message: string } }> {
  const response = await fetch(`http://127.0.0.1:${EMULATOR_PORTS.functions}/${PROJECT_ID}/us-central1/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await idTokenOf(uid)}` },
    body: JSON.stringify({ data }),
  })
  const body = (await response.json()) as { error?: { status: string; message: string } }
  return { status: response.status, error: body.error }
}
