// Who calls a report callable, in the company they name: their access as users_access states it
// (the document wins over the token, as everywhere on the server), the company's switches, and
// their role in the findings workflow. Every report callable starts here, so all refuse alike; an
// API token's writes start at tokenReportCaller.
import type { Firestore, Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { API_TOKEN_ACCESS, canViewResults, findingRole, seesAllCompanies, type Access, type FindingRole } from '#domain/access.ts'
import { apiTokenActorUid, type ApiToken } from '#domain/api-tokens.ts'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import type { Actor } from '#domain/finding-workflow.ts'
import type { Finding } from '#domain/findings.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { callerMessages, type Caller } from '../define-callable.ts'
import { readFinding } from './finding-store.ts'

export interface ReportCaller {
  uid: string
  /** What records' updatedBy says: the address, else the uid. */
  by: string
  access: Access
  role: FindingRole
  company: Company
  actor: Actor
}

export const reportMessages = {
  noCompany: (slug: string) => `There is no company "${slug}".`,
  noFinding: 'There is no such finding.',
  noRetest: 'There is no such retest request.',
} as const

/** The caller in `slug`: not-found for an unknown company, permission-denied unless they may select it. */
export async function reportCaller(db: Firestore, caller: Caller, slug: string): Promise<ReportCaller> {
  const [accessSnapshot, companySnapshot] = await db.getAll(db.doc(userAccessPath(caller.uid)), db.doc(companyPath(slug)))
  const stored = readUserAccess(accessSnapshot?.data())
  const access = accessFromDocument(stored, caller.access)
  const company = companyFromDocument(slug, companySnapshot?.data())
  const selects = stored.companies.includes(slug) || seesAllCompanies(access)
  if (!selects) throw new HttpsError('permission-denied', callerMessages.denied)
  if (!company) throw new HttpsError('not-found', reportMessages.noCompany(slug))
  const role = findingRole(access)
  if (!role) throw new HttpsError('permission-denied', callerMessages.denied)
  const tokenName = typeof caller.token.name === 'string' ? caller.token.name.trim() : ''
  const name = tokenName || caller.email || caller.uid
  return { uid: caller.uid, by: caller.email ?? caller.uid, access, role, company, actor: { uid: caller.uid, name, role } }
}

/**
 * An API token of `company` as the caller of the report writes (decision 0050): a client manager
 * of the company in the workflow (API_TOKEN_ACCESS), named in the records by the token's name.
 */
export function tokenReportCaller(token: ApiToken, company: Company): ReportCaller {
  const uid = apiTokenActorUid(token.id)
  const role = findingRole(API_TOKEN_ACCESS) ?? 'viewer'
  return { uid, by: uid, access: API_TOKEN_ACCESS, role, company, actor: { uid, name: `${token.name} (API token)`, role } }
}

/** Refuses a service whose results the caller may not read in this company. */
export function assertSeesResults(reader: ReportCaller, service: string): void {
  if (!canViewResults(reader.access, reader.company, service)) throw new HttpsError('permission-denied', callerMessages.denied)
}

/** The named findings, read in `tx`: not-found for a missing one, permission-denied for results the caller may not read. */
export async function readFindingsFor(db: Firestore, tx: Transaction, reader: ReportCaller, ids: readonly string[]): Promise<Finding[]> {
  const findings: Finding[] = []
  for (const id of ids) {
    const finding = await readFinding(db, tx, reader.company.slug, id)
    if (!finding) throw new HttpsError('not-found', reportMessages.noFinding)
    assertSeesResults(reader, finding.service)
    findings.push(finding)
  }
  return findings
}

/** Where a finding opens in the reports. */
export const findingLink = (service: string, findingId: string) => `/reports/${service}/${encodeURIComponent(findingId)}`
