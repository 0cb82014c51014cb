// listUsers: one page of the people a platform admin (everyone, or a service's managers), a company
// admin (the clients of one of their companies) or a senior analyst (the people of any company)
// reads, with what Auth knows of them: disabled, created, last sign-in. Pages go in order of address (users_access keeps
// it lower-cased: Auth cannot list a company's people), each answer with the exact number the
// filters match, counted by Firestore (a read per 1,000 people) rather than by reading them.
// Below platform admin a row tells only what concerns the listed company and the caller's own
// (accessWithin): not which other companies a person works for, nor their services there.
// `removed` lists those removed from the company instead (users_access.removedFrom), whom its
// admins may restore (decision 0041).
import type { UserRecord } from 'firebase-admin/auth'
import { FieldPath, type Firestore, type Query } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayManageServiceCatalogue, seesAllCompanies, type UserType } from '#domain/access.ts'
import {
  accessWithin,
  belongsElsewhere,
  mayChangePeopleOf,
  mayManageEveryone,
  peopleMessages,
  type Actor,
  type PeopleCursor,
  type PersonRow,
} from '#domain/admin-people-calls.ts'
import { lastSignInOf } from '#domain/sign-in.ts'
import { USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { allow } from './org-actor.ts'
import { personAccess, readActor, readFlags } from './people.ts'

const time = (text: string | undefined) => (text ? Date.parse(text) : null)

/** Past every character an address may hold after the prefix: the end of a prefix range. */
const PREFIX_END = '\uf8ff'

interface Scope {
  company: string | null
  userType: UserType | null
  accessLevel: number | null
  emailPrefix: string
  /** The managers of one service (alone: the request schema allows no company, type or level with it). */
  manages: string | null
  /** Those removed from `company` (never null then) instead of its members. */
  removed: boolean
}

/**
 * The people of a scope unordered (every document, with an address or not), and in the list's
 * order: by address, then uid, from the start of the address on. Ordering by `email` leaves out the
 * documents that do not hold one yet.
 */
function peopleQueries(
  db: Firestore,
  { company, userType, accessLevel, emailPrefix, manages, removed }: Scope,
): { scope: Query; ordered: Query } {
  const everyone = db.collection(USERS_ACCESS_COLLECTION)
  const all = manages === null ? everyone : everyone.where('servicesManaged', 'array-contains', manages)
  const inCompany =
    company === null
      ? all
      : removed
        ? all.where('removedFrom', 'array-contains', company)
        : all.where('companies', 'array-contains', company)
  const ofType = userType === null ? inCompany : inCompany.where('claims.userType', '==', userType)
  const scope = accessLevel === null ? ofType : ofType.where('claims.accessLevel', '==', accessLevel)
  const starting = emailPrefix ? scope.where('email', '>=', emailPrefix).where('email', '<', `${emailPrefix}${PREFIX_END}`) : scope
  return { scope, ordered: starting.orderBy('email').orderBy(FieldPath.documentId()) }
}

/** Auth's records of these people, a hundred at a time (Auth's limit); the missing are left out. */
async function accounts(uids: readonly string[]): Promise<Map<string, UserRecord>> {
  const users = new Map<string, UserRecord>()
  for (let i = 0; i < uids.length; i += 100) {
    const { users: found } = await adminAuth().getUsers(uids.slice(i, i + 100).map((uid) => ({ uid })))
    for (const user of found) users.set(user.uid, user)
  }
  return users
}

export const listUsers = defineCallable('listUsers', {}, async (caller, request) => {
  const { company, pageSize, cursor, emailPrefix, accessLevel, manages, removed } = request
  const db = adminDb()
  // The companies whose part of each row a caller below platform admin reads: the listed one and theirs.
  const viewOf = (actor: Actor) => (company === null || mayManageEveryone(actor.access) ? [] : [...new Set([company, ...actor.companies])])
  const { actor, flags } = await db.runTransaction(async (tx) => {
    const actor = await readActor(db, tx, caller)
    return { actor, flags: await readFlags(db, tx, viewOf(actor)) }
  })
  const platform = mayManageEveryone(actor.access)
  // A service's managers are the service catalogue's (platform admins).
  if (manages !== null) allow(mayManageServiceCatalogue(actor.access))
  // Senior analysts open every company's pages (its users page included): they read its people.
  if (!platform && !(company !== null && (seesAllCompanies(actor.access) || actor.companies.includes(company)))) {
    throw new HttpsError('permission-denied', peopleMessages.notYourCompany)
  }
  const view = viewOf(actor)
  // Company admins manage clients only: analysts working for the company are not theirs to list.
  // Those who see every company read its analysts too (the company's page names who works for it).
  const userType = seesAllCompanies(actor.access) ? request.userType : 'client'
  const { scope, ordered } = peopleQueries(db, { company, userType, accessLevel, emailPrefix, manages, removed })
  const first = cursor === null && emailPrefix === ''
  const [snapshot, counted, everyone] = await Promise.all([
    // One more than asked: whether a next page exists, without a page that turns out empty.
    (cursor ? ordered.startAfter(cursor.email, cursor.uid) : ordered).limit(pageSize + 1).get(),
    ordered.count().get(),
    first ? scope.count().get() : null,
  ])
  const docs = snapshot.docs.slice(0, pageSize)
  const last = docs.at(-1)
  const next: PeopleCursor | null =
    snapshot.docs.length > pageSize && last ? { email: (last.get('email') as string | null | undefined) ?? null, uid: last.id } : null
  const total = counted.data().count
  const users = await accounts(docs.map((doc) => doc.id))
  const people: PersonRow[] = docs.flatMap((doc) => {
    const user = users.get(doc.id)
    if (!user) return []
    const full = personAccess(doc.data())
    const access = platform ? full : accessWithin(full, view, flags)
    return [
      {
        uid: doc.id,
        email: user.email ?? null,
        displayName: user.displayName ?? null,
        disabled: user.disabled,
        createdAt: time(user.metadata.creationTime),
        lastSignInAt: lastSignInOf(user),
        userType: access.userType,
        accessLevel: access.accessLevel,
        companies: [...access.companies],
        servicesEnabled: [...access.servicesEnabled],
        servicesManaged: [...access.servicesManaged],
        inOtherCompanies: !platform && belongsElsewhere(full, view),
        removed,
      },
    ]
  })
  return {
    people,
    next,
    total,
    unlisted: everyone ? Math.max(0, everyone.data().count - total) : null,
    mayChange: mayChangePeopleOf(actor, company),
  }
})
