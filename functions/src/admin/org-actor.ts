// Who makes a company, service or DAST key change: their access as users_access states it now (the
// document wins over the token, as everywhere on the server, so a level lowered a moment ago
// already counts), read inside the change's own transaction.
import type { Firestore, Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { seesAllCompanies, type Access } from '#domain/access.ts'
import type { AuditEventInput } from '#domain/audit-events.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { callerMessages, type Caller } from '../define-callable.ts'

export interface OrgActor {
  uid: string
  /** What records' updatedBy says: the address, else the uid. */
  by: string
  access: Access
  companies: readonly string[]
  audit: AuditEventInput['actor']
}

export async function readOrgActor(db: Firestore, tx: Transaction, caller: Caller): Promise<OrgActor> {
  const stored = readUserAccess((await tx.get(db.doc(userAccessPath(caller.uid)))).data())
  return {
    uid: caller.uid,
    by: caller.email ?? caller.uid,
    access: accessFromDocument(stored, caller.access),
    companies: stored.companies,
    audit: { uid: caller.uid, email: caller.email },
  }
}

/** A member of the company, or an analyst who sees every company. */
export const selectsCompany = (actor: OrgActor, slug: string) => actor.companies.includes(slug) || seesAllCompanies(actor.access)

export function allow(allowed: boolean): void {
  if (!allowed) throw new HttpsError('permission-denied', callerMessages.denied)
}
