// listUsers: the people a platform admin (everyone), a company admin (the clients of one of their
// companies) or a senior analyst (the clients of any company) manages, with what Auth knows of them: disabled, created, last sign-in.
// Below platform admin a row tells only what concerns the listed company and the caller's own
// (accessWithin): not which other companies a person works for, nor their services there.
import type { UserRecord } from 'firebase-admin/auth'
import { HttpsError } from 'firebase-functions/v2/https'
import { seesAllCompanies } from '#domain/access.ts'
import {
  accessWithin,
  belongsElsewhere,
  mayChangePeopleOf,
  mayManageEveryone,
  peopleMessages,
  type Actor,
  type PersonRow,
} from '#domain/admin-people-calls.ts'
import { USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { personAccess, readActor, readFlags } from './people.ts'

const time = (text: string | undefined) => (text ? Date.parse(text) : null)

export const listUsers = defineCallable('listUsers', {}, async (caller, { company }) => {
  const db = adminDb()
  // The companies whose part of each row a caller below platform admin reads: the listed one and theirs.
  const viewOf = (actor: Actor) => (company === null || mayManageEveryone(actor.access) ? [] : [...new Set([company, ...actor.companies])])
  const { actor, flags } = await db.runTransaction(async (tx) => {
    const actor = await readActor(db, tx, caller)
    return { actor, flags: await readFlags(db, tx, viewOf(actor)) }
  })
  const platform = mayManageEveryone(actor.access)
  // Senior analysts open every company's pages (its users page included): they see its clients.
  if (!platform && !(company !== null && (seesAllCompanies(actor.access) || actor.companies.includes(company)))) {
    throw new HttpsError('permission-denied', peopleMessages.notYourCompany)
  }
  const view = viewOf(actor)
  const collection = db.collection(USERS_ACCESS_COLLECTION)
  const snapshot = await (company === null ? collection.get() : collection.where('companies', 'array-contains', company).get())
  // Company admins manage clients only: analysts working for the company are not theirs to list.
  const docs = snapshot.docs
    .map((doc) => ({ uid: doc.id, access: personAccess(doc.data()) }))
    .filter(({ access }) => platform || access.userType === 'client')
  const users = new Map<string, UserRecord>()
  for (let i = 0; i < docs.length; i += 100) {
    const { users: found } = await adminAuth().getUsers(docs.slice(i, i + 100).map(({ uid }) => ({ uid })))
    for (const user of found) users.set(user.uid, user)
  }
  const people: PersonRow[] = docs.flatMap(({ uid, access: full }) => {
    const user = users.get(uid)
    if (!user) return []
    const access = platform ? full : accessWithin(full, view, flags)
    return [
      {
        uid,
        email: user.email ?? null,
        displayName: user.displayName ?? null,
        disabled: user.disabled,
        createdAt: time(user.metadata.creationTime),
        lastSignInAt: time(user.metadata.lastSignInTime),
        userType: access.userType,
        accessLevel: access.accessLevel,
        companies: [...access.companies],
        servicesEnabled: [...access.servicesEnabled],
        servicesManaged: [...access.servicesManaged],
        inOtherCompanies: !platform && belongsElsewhere(full, view),
      },
    ]
  })
  people.sort((a, b) => (a.email ?? a.uid).localeCompare(b.email ?? b.uid))
  return { people, mayChange: mayChangePeopleOf(actor, company) }
})
