// updateUserAccess and removeUserFromCompany: change what a person may do. Only users_access is
// written; the claims trigger carries the change into their token and their open pages.
import { HttpsError } from 'firebase-functions/v2/https'
import { keepingHidden, mayManageEveryone, peopleMessages } from '#domain/admin-people-calls.ts'
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
  })
  return { changed }
})
