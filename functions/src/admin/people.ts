// What every people callable does the same way: read the administrator's and the person's
// access in one transaction, ask accessChangeRefusal and the last-admin rule, write users_access
// (the claims trigger carries the change into the token) and record the audit events with it:
// one in each company the change concerns, holding what that company may know of the person.
import { FieldValue, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import {
  accessChangeRefusal,
  accessWithin,
  companiesLosingAdmin,
  isCompanyAdminOf,
  peopleMessages,
  type Actor,
  type PersonAccess,
} from '#domain/admin-people-calls.ts'
import type { CompanyFlags } from '#domain/access.ts'
import type { AuditAction, AuditEventInput, AuditSnapshot } from '#domain/audit-events.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import { readUserAccess, storedEmail, USERS_ACCESS_COLLECTION, userAccessPath } from '#domain/users-access.ts'
import { adminAuth } from '../admin.ts'
import type { Caller } from '../define-callable.ts'
import { recordAuditEvent } from './audit.ts'
import { readOrgActor } from './org-actor.ts'

export const personAccess = (data: unknown): PersonAccess => {
  const doc = readUserAccess(data)
  return {
    userType: doc.claims.userType ?? null,
    accessLevel: doc.claims.accessLevel ?? null,
    companies: doc.companies,
    servicesEnabled: doc.servicesEnabled,
    servicesManaged: doc.servicesManaged,
  }
}

/** The audit snapshot of a person's access: plain JSON. */
export const accessSnapshot = (access: PersonAccess | null) =>
  access && {
    userType: access.userType,
    accessLevel: access.accessLevel,
    companies: [...access.companies],
    servicesEnabled: [...access.servicesEnabled],
    servicesManaged: [...access.servicesManaged],
  }

/** The caller as an administrator, as users_access states it now: a level lowered a moment ago already counts. */
export const readActor: (db: Firestore, tx: Transaction, caller: Caller) => Promise<Actor> = readOrgActor

/** The switches of these companies (a company admin grants only services theirs have on; each company sees the services on there). */
export async function readFlags(db: Firestore, tx: Transaction, companies: readonly string[]): Promise<Record<string, CompanyFlags>> {
  if (companies.length === 0) return {}
  const snapshots = await tx.getAll(...companies.map((slug) => db.doc(companyPath(slug))))
  const flags: Record<string, CompanyFlags> = {}
  for (const snapshot of snapshots) {
    const company = snapshot.exists ? companyFromDocument(snapshot.id, snapshot.data()) : null
    if (company) flags[snapshot.id] = company
  }
  return flags
}

/** Refuses, with permission-denied, a change the rules do not allow, including one that leaves a company without an admin. */
export async function assertChangeAllowed(
  db: Firestore,
  tx: Transaction,
  actor: Actor,
  targetUid: string | null,
  before: PersonAccess | null,
  after: PersonAccess | null,
  flags: Readonly<Record<string, CompanyFlags>>,
): Promise<void> {
  const refusal = accessChangeRefusal(actor, targetUid, before, after, flags)
  if (refusal) throw new HttpsError('permission-denied', refusal)
  await assertAdminsKept(db, tx, targetUid, before, after)
}

/** Refuses, with permission-denied, a change that leaves one of the person's companies without an admin. */
async function assertAdminsKept(
  db: Firestore,
  tx: Transaction,
  targetUid: string | null,
  before: PersonAccess | null,
  after: PersonAccess | null,
): Promise<void> {
  for (const company of companiesLosingAdmin(before, after)) {
    const people = await tx.get(db.collection(USERS_ACCESS_COLLECTION).where('companies', 'array-contains', company))
    const others = people.docs.filter((doc) => doc.id !== targetUid && isCompanyAdminOf(personAccess(doc.data()), company))
    if (others.length === 0) throw new HttpsError('permission-denied', peopleMessages.lastAdmin)
  }
}

/** The users_access fields an administrator sets (never `claims.synced`: the claims trigger owns it). */
export const accessWrite = (access: PersonAccess, editor: string) => ({
  'claims.userType': access.userType,
  'claims.accessLevel': access.accessLevel,
  companies: [...access.companies],
  servicesEnabled: [...access.servicesEnabled],
  servicesManaged: [...access.servicesManaged],
  updatedAt: FieldValue.serverTimestamp(),
  updatedBy: editor,
})

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

export const sameAccess = (a: PersonAccess, b: PersonAccess) =>
  a.userType === b.userType &&
  a.accessLevel === b.accessLevel &&
  sameList(a.companies, b.companies) &&
  sameList(a.servicesEnabled, b.servicesEnabled) &&
  sameList(a.servicesManaged, b.servicesManaged)

/** The companies a change of `before` into `after` touches: the person's, before and after. */
export const touchedCompanies = (before: PersonAccess | null, after: PersonAccess | null) => [
  ...new Set([...(before?.companies ?? []), ...(after?.companies ?? [])]),
]

/** What an event holds before and after, from the person's access as one company sees it. */
export type Snapshots = (before: PersonAccess | null, after: PersonAccess | null) => { before: AuditSnapshot; after: AuditSnapshot }

const accessSnapshots: Snapshots = (before, after) => ({ before: accessSnapshot(before), after: accessSnapshot(after) })

/**
 * Records a change of a person in each company it touches, so each company's trail shows it, with
 * the person's access as that company sees it (accessWithin: not their other companies). A company
 * that sees nothing change (someone else's company added or taken away) gets no event; a change
 * none of them sees, or of someone in no company, goes to the platform admins with everything.
 */
export function recordPersonEvents(
  db: Firestore,
  tx: Transaction,
  event: Pick<AuditEventInput, 'actor' | 'action' | 'target'>,
  before: PersonAccess | null,
  after: PersonAccess | null,
  flags: Readonly<Record<string, CompanyFlags>>,
  snapshots: Snapshots = accessSnapshots,
): void {
  const copies = touchedCompanies(before, after).flatMap((company) => {
    const seen = (access: PersonAccess | null) => access && accessWithin(access, [company], flags)
    const held = snapshots(seen(before), seen(after))
    return JSON.stringify(held.before) === JSON.stringify(held.after) ? [] : [{ companyId: company, ...held }]
  })
  for (const copy of copies.length > 0 ? copies : [{ companyId: null, ...snapshots(before, after) }]) {
    recordAuditEvent(db, tx, { ...event, ...copy })
  }
}

/** The person's Auth account, null when there is none (any more). */
const accountOf = (uid: string) =>
  adminAuth()
    .getUser(uid)
    .catch(() => null)

export interface PersonChange {
  action: AuditAction
  /**
   * The new access; null leaves users_access as it is (revocations, disabling). `flags` holds the
   * switches of the actor's companies and of the person's.
   */
  after: (before: PersonAccess, actor: Actor, flags: Readonly<Record<string, CompanyFlags>>) => PersonAccess | null
  /** Extra users_access fields written with the change (e.g. `claims.revoked`). */
  extra?: Record<string, unknown>
  /** Work outside Firestore (Auth), done before the writes: if it fails, nothing is written. */
  beforeWrite?: () => Promise<void>
  /** The audit snapshots, when not the access itself: `before` is the person's access as the event's company sees it. */
  snapshots?: (before: PersonAccess) => { before: Record<string, unknown>; after: Record<string, unknown> }
  /** Refused on oneself whatever the access (disabling). */
  selfForbidden?: boolean
  /** A deletion removes the documents instead. */
  remove?: string[]
  /** Companies the change takes away that their admins may give back (removeUserFromCompany): kept in `removedFrom`. */
  restorable?: readonly string[]
  /**
   * Replaces accessChangeRefusal's answer (the last-admin rule still holds): a restore is judged by
   * what the person was in the company, not by whether they are in one of the actor's now.
   * `removedFrom` is as stored.
   */
  refusal?: (
    actor: Actor,
    before: PersonAccess,
    removedFrom: readonly string[],
    flags: Readonly<Record<string, CompanyFlags>>,
  ) => string | null
}

/**
 * The companies someone may be restored to after `before` becomes `after`: those kept before, and
 * those the change makes restorable, less any that are theirs again.
 */
export const nextRemovedFrom = (removedFrom: readonly string[], restorable: readonly string[], after: PersonAccess) => [
  ...new Set([...removedFrom, ...restorable].filter((company) => !after.companies.includes(company))),
]

/**
 * Changes one person's access in one transaction with its audit event; false when the change
 * would leave everything as it is (nothing written, no event).
 */
export async function changePerson(db: Firestore, caller: Caller, uid: string, change: PersonChange): Promise<boolean> {
  const account = await accountOf(uid)
  // Events name a person by their address, else their uid.
  const label = account?.email ?? uid
  // A change of access also stores the address, for a document written before users_access kept it.
  const address = account ? { email: storedEmail(account.email) } : {}
  return db.runTransaction(async (tx) => {
    const actor = await readActor(db, tx, caller)
    if (change.selfForbidden && uid === caller.uid) throw new HttpsError('permission-denied', peopleMessages.yourself)
    const ref = db.doc(userAccessPath(uid))
    const snapshot = await tx.get(ref)
    if (!snapshot.exists) throw new HttpsError('not-found', peopleMessages.noPerson)
    const before = personAccess(snapshot.data())
    const { removedFrom } = readUserAccess(snapshot.data())
    const known = await readFlags(db, tx, [...new Set([...actor.companies, ...before.companies])])
    const after = change.after(before, actor, known)
    const next = change.remove ? null : (after ?? before)
    // A platform admin may add companies that are neither theirs nor the person's: their audit copies need their switches too.
    const flags = {
      ...known,
      ...(await readFlags(
        db,
        tx,
        (next?.companies ?? []).filter((company) => !(company in known)),
      )),
    }
    if (change.refusal) {
      const refusal = change.refusal(actor, before, removedFrom, flags)
      if (refusal) throw new HttpsError('permission-denied', refusal)
      await assertAdminsKept(db, tx, uid, before, next)
    } else await assertChangeAllowed(db, tx, actor, uid, before, next, flags)
    const nothing = !change.extra && !change.remove && !change.beforeWrite
    if ((after === null || sameAccess(before, after)) && nothing) return false
    await change.beforeWrite?.()
    if (change.remove) for (const path of change.remove) tx.delete(db.doc(path))
    else if (after || change.extra) {
      const restorable = after ? nextRemovedFrom(removedFrom, change.restorable ?? [], after) : removedFrom
      tx.update(ref, {
        ...(after ? { ...accessWrite(after, caller.email ?? caller.uid), ...address } : {}),
        // Written only when it moves, so documents without the field stay as they are.
        ...(restorable.join('\n') !== removedFrom.join('\n') ? { removedFrom: restorable } : {}),
        ...change.extra,
      })
    }
    const own = change.snapshots
    recordPersonEvents(
      db,
      tx,
      { actor: { uid: caller.uid, email: caller.email }, action: change.action, target: { kind: 'user', id: uid, label } },
      before,
      next,
      flags,
      own && ((seenBefore) => own(seenBefore ?? before)),
    )
    return true
  })
}
