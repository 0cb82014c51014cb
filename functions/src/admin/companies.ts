// The company callables: create a company (its slug derived from the name and unique), rename it
// and switch its services, change its scan scope, and list its people. Each change is one
// transaction with its audit event; the browsers that show the company follow its document live.
import { FieldValue, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { COMPANY_FLAGS, mayManageCompanies, type CompanyFlag } from '#domain/access.ts'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { companyMessages, slugCandidates, type CompanyPerson } from '#domain/company-admin.ts'
import { ScanScopeSchema, scanScopeFromDocument, scanScopePath, scopeEntryKey, type ScopeEntry } from '#domain/scan-scope.ts'
import { readUserAccess, USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import * as v from 'valibot'
import { adminAuth, adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { recordAuditEvent } from './audit.ts'
import { allow, readOrgActor } from './org-actor.ts'

const flagsOf = (company: Company) => Object.fromEntries(COMPANY_FLAGS.map((flag) => [flag, company[flag]])) as Record<CompanyFlag, boolean>

async function readCompany(db: Firestore, tx: Transaction, slug: string): Promise<Company> {
  const company = companyFromDocument(slug, (await tx.get(db.doc(companyPath(slug)))).data())
  if (!company) throw new HttpsError('not-found', companyMessages.noCompany(slug))
  return company
}

export const createCompany = defineCallable('createCompany', {}, async (caller, request) => {
  const db = adminDb()
  const slug = await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    allow(mayManageCompanies(actor.access))
    const candidates = slugCandidates(request.companyName)
    const taken = await tx.getAll(...candidates.map((candidate) => db.doc(companyPath(candidate))))
    const slug = candidates.find((_, i) => !taken[i]!.exists)
    if (!slug) throw new HttpsError('already-exists', companyMessages.noSlugLeft)
    const stamp = { updatedAt: FieldValue.serverTimestamp(), updatedBy: actor.by }
    tx.create(db.doc(companyPath(slug)), {
      slug,
      companyName: request.companyName,
      ...request.flags,
      createdAt: FieldValue.serverTimestamp(),
      createdBy: actor.by,
      ...stamp,
    })
    tx.create(db.doc(scanScopePath(slug)), { entries: request.scanScope, ...stamp })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'company.created',
      target: { kind: 'company', id: slug, label: request.companyName },
      companyId: slug,
      before: null,
      after: { companyName: request.companyName, ...request.flags, scanScope: request.scanScope },
    })
    return slug
  })
  return { slug }
})

export const updateCompany = defineCallable('updateCompany', {}, async (caller, request) => {
  const db = adminDb()
  const changed = await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    allow(mayManageCompanies(actor.access))
    const company = await readCompany(db, tx, request.company)
    const before: Record<string, unknown> = {}
    const after: Record<string, unknown> = {}
    if (request.companyName !== undefined && request.companyName !== company.companyName) {
      before.companyName = company.companyName
      after.companyName = request.companyName
    }
    const flags = flagsOf(company)
    for (const flag of COMPANY_FLAGS) {
      const wanted = request.flags?.[flag]
      if (wanted !== undefined && wanted !== flags[flag]) {
        before[flag] = flags[flag]
        after[flag] = wanted
      }
    }
    if (Object.keys(after).length === 0) return false
    tx.update(db.doc(companyPath(request.company)), { ...after, updatedAt: FieldValue.serverTimestamp(), updatedBy: actor.by })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'company.updated',
      target: { kind: 'company', id: request.company, label: (after.companyName as string | undefined) ?? company.companyName },
      companyId: request.company,
      before,
      after,
    })
    return true
  })
  return { changed }
})

export const updateScanScope = defineCallable('updateScanScope', {}, async (caller, request) => {
  const db = adminDb()
  const entries = await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    allow(mayManageCompanies(actor.access))
    const company = await readCompany(db, tx, request.company)
    const current = scanScopeFromDocument((await tx.get(db.doc(scanScopePath(request.company)))).data())
    const removed = new Set(request.remove.map(scopeEntryKey))
    const next: ScopeEntry[] = current.filter((entry) => !removed.has(scopeEntryKey(entry)))
    for (const entry of request.add) if (!next.some((kept) => scopeEntryKey(kept) === scopeEntryKey(entry))) next.push(entry)
    const checked = v.safeParse(ScanScopeSchema, next)
    if (!checked.success) throw new HttpsError('invalid-argument', checked.issues[0].message)
    const same = next.length === current.length && next.every((entry, i) => scopeEntryKey(entry) === scopeEntryKey(current[i]!))
    if (same) return current.length
    tx.set(db.doc(scanScopePath(request.company)), { entries: next, updatedAt: FieldValue.serverTimestamp(), updatedBy: actor.by })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'company.updated',
      target: { kind: 'company', id: request.company, label: company.companyName },
      companyId: request.company,
      before: { scanScope: current },
      after: { scanScope: next },
    })
    return next.length
  })
  return { entries }
})

/** People whose users_access names the company, with their sign-in account's address and state. */
export const listCompanyPeople = defineCallable('listCompanyPeople', {}, async (caller, request) => {
  const db = adminDb()
  await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    allow(mayManageCompanies(actor.access))
    await readCompany(db, tx, request.company)
  })
  const snapshot = await db.collection(USERS_ACCESS_COLLECTION).where('companies', 'array-contains', request.company).get()
  return { people: await peopleOf(snapshot.docs.map((doc) => ({ uid: doc.id, data: doc.data() }))) }
})

function safeAccess(data: unknown) {
  try {
    return readUserAccess(data)
  } catch {
    return null
  }
}

/** Rows for people by their users_access documents, with what their accounts say; by address. */
export async function peopleOf(documents: readonly { uid: string; data: unknown }[]): Promise<CompanyPerson[]> {
  const accounts = new Map<string, { email: string | null; displayName: string | null; disabled: boolean; lastSignInAt: number | null }>()
  for (let start = 0; start < documents.length; start += 100) {
    const { users } = await adminAuth().getUsers(documents.slice(start, start + 100).map(({ uid }) => ({ uid })))
    for (const user of users) {
      const lastSignIn = user.metadata.lastSignInTime ? Date.parse(user.metadata.lastSignInTime) : NaN
      accounts.set(user.uid, {
        email: user.email ?? null,
        displayName: user.displayName ?? null,
        disabled: user.disabled,
        lastSignInAt: Number.isFinite(lastSignIn) ? lastSignIn : null,
      })
    }
  }
  return documents
    .flatMap(({ uid, data }) => {
      // A malformed access document is left out rather than failing the whole list.
      const access = safeAccess(data)
      if (!access) return []
      const account = accounts.get(uid)
      return {
        uid,
        email: account?.email ?? null,
        displayName: account?.displayName ?? null,
        userType: access.claims.userType ?? null,
        accessLevel: access.claims.accessLevel ?? null,
        servicesEnabled: access.servicesEnabled,
        servicesManaged: access.servicesManaged,
        disabled: account?.disabled ?? false,
        lastSignInAt: account?.lastSignInAt ?? null,
      }
    })
    .sort((a, b) => (a.email ?? a.uid).localeCompare(b.email ?? b.uid))
}
