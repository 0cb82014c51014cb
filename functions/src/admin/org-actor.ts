// Who makes a company, service or DAST key change: their access as users_access states it now (the
// document wins over the token, as everywhere on the server, so a level lowered a moment ago
// already counts), read inside the change's own transaction.
import { FieldValue, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { seesAllCompanies, type Access, type CompanyFlags } from '#domain/access.ts'
import type { AuditAction, AuditEventInput, AuditTargetKind } from '#domain/audit-events.ts'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { companyMessages } from '#domain/company-admin.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { callerMessages, type Caller } from '../define-callable.ts'
import { recordAuditEvent } from './audit.ts'

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

/**
 * The company, once the actor may manage its tokens by `may` (mayManageDastKeysOf,
 * mayManageApiTokensOf): permission-denied before anything is said of it.
 */
export async function companyManagedBy(
  db: Firestore,
  tx: Transaction,
  actor: OrgActor,
  slug: string,
  may: (access: Access, company: CompanyFlags, selects: boolean) => boolean,
): Promise<Company> {
  const selects = selectsCompany(actor, slug)
  allow(selects)
  const company = companyFromDocument(slug, (await tx.get(db.doc(companyPath(slug)))).data())
  if (!company) throw new HttpsError('not-found', companyMessages.noCompany(slug))
  allow(may(actor.access, company, selects))
  return company
}

/**
 * Revokes a company token of either kind (DAST key, API token) for someone `may` allows, with its
 * audit event in the same transaction: true when it was revoked now, false when it already was.
 */
export async function revokeCompanyToken(
  db: Firestore,
  caller: Caller,
  kind: {
    path: (id: string) => string
    read: (id: string, data: unknown) => { id: string; name: string; company: string; revokedAt: number | null } | null
    may: (access: Access, company: CompanyFlags, selects: boolean) => boolean
    noToken: string
    action: AuditAction
    target: AuditTargetKind
  },
  id: string,
): Promise<boolean> {
  return db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    const snapshot = await tx.get(db.doc(kind.path(id)))
    const token = snapshot.exists ? kind.read(id, snapshot.data()) : null
    if (!token) throw new HttpsError('not-found', kind.noToken)
    await companyManagedBy(db, tx, actor, token.company, kind.may)
    if (token.revokedAt !== null) return false
    tx.update(db.doc(kind.path(id)), { revokedAt: FieldValue.serverTimestamp(), revokedBy: actor.by })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: kind.action,
      target: { kind: kind.target, id: token.id, label: token.name },
      companyId: token.company,
      before: { revokedAt: null },
      after: { revokedBy: actor.by },
    })
    return true
  })
}
