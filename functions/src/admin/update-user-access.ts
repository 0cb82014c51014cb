// updateUserAccess, removeUserFromCompany and restoreUserToCompany: change what a person may do.
// Only users_access is written; the claims trigger carries the change into their token and their
// open pages. A removal keeps the company in `removedFrom`, so its admins list the person as removed
// and may give it back (a restore) until the person is in it again.
import { HttpsError } from 'firebase-functions/v2/https'
import { keepingHidden, mayManageEveryone, peopleMessages, restoreRefusal } from '#domain/admin-people-calls.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { changePerson } from './people.ts'

export const updateUserAccess = defineCallable('updateUserAccess', {}, async (caller, { uid, ...requested }) => {
  const changed = await changePerson(adminDb(), caller, uid, {
    action: 'user.updated',
    // Below platform admin the request speaks of what listUsers showed: the person's other companies
    // and the services that apply only there stay as they are.
    after: (before, actor, flags) =>
      mayManageEveryone(actor.access) ? requested : keepingHidden(before, requested, actor.companies, flags),
  })
  return { changed }
})

export const removeUserFromCompany = defineCallable('removeUserFromCompany', {}, async (caller, { uid, company }) => {
  const changed = await changePerson(adminDb(), caller, uid, {
    action: 'user.removed_from_company',
    after: (before) => {
      if (!before.companies.includes(company)) throw new HttpsError('failed-precondition', peopleMessages.notMember)
      return { ...before, companies: before.companies.filter((slug) => slug !== company) }
    },
    restorable: [company],
  })
  return { changed }
})

export const restoreUserToCompany = defineCallable('restoreUserToCompany', {}, async (caller, { uid, company }) => {
  const changed = await changePerson(adminDb(), caller, uid, {
    action: 'user.restored_to_company',
    after: (before) => ({ ...before, companies: [...before.companies, company] }),
    refusal: (actor, before, removedFrom, flags) => restoreRefusal(actor, uid, before, removedFrom, company, flags),
  })
  return { changed }
})
