// fillMissingAddresses: the people lists page in order of the address users_access keeps
// (decision 0039), so a document written before it was kept is left out of them until its owner
// signs in or their access changes. A platform admin fills those in from Auth, here, a page of
// documents at a time in order of document id: safe to run again (an address already stored is
// never touched, so a second run writes nothing) and to stop anywhere (the answer says where to go
// on). A document whose account is gone is left as it is and counted.
import { FieldPath, type Firestore } from 'firebase-admin/firestore'
import type { Auth } from 'firebase-admin/auth'
import { mayManageEveryone } from '#domain/admin-people-calls.ts'
import { storedEmail, USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { allow, readOrgActor } from './org-actor.ts'

/** Documents read at once: one transaction writes at most this many (Firestore allows 500). */
export const FILL_PAGE = 200
/** How long one call goes on before it answers with its cursor (callables time out at 60 s). */
const CALL_BUDGET_MS = 20_000

export interface FillTotals {
  read: number
  filled: number
  withoutAccount: number
  /** The last document read; null once the last page was read. */
  next: string | null
}

/** Auth's addresses of these uids, a hundred at a time (Auth's limit); a uid without an account is absent. */
async function addresses(auth: Auth, uids: readonly string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>()
  for (let i = 0; i < uids.length; i += 100) {
    const { users } = await auth.getUsers(uids.slice(i, i + 100).map((uid) => ({ uid })))
    for (const user of users) found.set(user.uid, storedEmail(user.email))
  }
  return found
}

/** One page after `cursor`: the documents without `email` get Auth's, in one transaction. */
async function fillPage(db: Firestore, auth: Auth, cursor: string | null, pageSize: number): Promise<FillTotals> {
  const ordered = db.collection(USERS_ACCESS_COLLECTION).orderBy(FieldPath.documentId())
  // Only the ids and whether `email` is there: a page's documents are not read whole.
  const page = await (cursor === null ? ordered : ordered.startAfter(cursor)).select('email').limit(pageSize).get()
  const lacking = page.docs.filter((doc) => doc.get('email') === undefined).map((doc) => doc.ref)
  const known = await addresses(
    auth,
    lacking.map((ref) => ref.id),
  )
  // Read again in the transaction: an address a sign-in stored meanwhile is kept, a removed document stays removed.
  const filled =
    lacking.length === 0
      ? 0
      : await db.runTransaction(async (tx) => {
          const current = await tx.getAll(...lacking, { fieldMask: ['email'] })
          let written = 0
          for (const snapshot of current) {
            if (!snapshot.exists || snapshot.get('email') !== undefined || !known.has(snapshot.id)) continue
            tx.update(snapshot.ref, { email: known.get(snapshot.id) ?? null })
            written += 1
          }
          return written
        })
  return {
    read: page.size,
    filled,
    withoutAccount: lacking.filter((ref) => !known.has(ref.id)).length,
    next: page.size < pageSize ? null : (page.docs.at(-1)?.id ?? null),
  }
}

/** Pages from `cursor` on until the last or until `deadline` (epoch ms) has passed, at least one page. */
export async function fillMissingAddressesFrom(
  db: Firestore,
  auth: Auth,
  cursor: string | null,
  { deadline, pageSize = FILL_PAGE }: { deadline: number; pageSize?: number },
): Promise<FillTotals> {
  const totals: FillTotals = { read: 0, filled: 0, withoutAccount: 0, next: cursor }
  do {
    const page = await fillPage(db, auth, totals.next, pageSize)
    totals.read += page.read
    totals.filled += page.filled
    totals.withoutAccount += page.withoutAccount
    totals.next = page.next
  } while (totals.next !== null && Date.now() < deadline)
  return totals
}

export const fillMissingAddresses = defineCallable('fillMissingAddresses', {}, async (caller, { cursor }) => {
  const db = adminDb()
  await db.runTransaction(async (tx) => allow(mayManageEveryone((await readOrgActor(db, tx, caller)).access)))
  return fillMissingAddressesFrom(db, adminAuth(), cursor, { deadline: Date.now() + CALL_BUDGET_MS })
})
