// The company callables: create a company (its slug derived from the name and unique), rename it
// and switch its services, change its scan scope (its people are a page of listUsers). Each change
// is one transaction with its audit event; the browsers that show the company follow its document live.
import { FieldValue, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { COMPANY_FLAGS, mayManageCompanies, type CompanyFlag } from '#domain/access.ts'
import { companyFromDocument, companyPath, kevSlaDaysOf, type Company } from '#domain/companies.ts'
import { companyMessages, slugCandidates } from '#domain/company-admin.ts'
import { ScanScopeSchema, scanScopeFromDocument, scanScopePath, scopeEntryKey, type ScopeEntry } from '#domain/scan-scope.ts'
import * as v from 'valibot'
import { adminDb } from '../admin.ts'
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
    if (request.kevSlaDays !== undefined) {
      const kevSlaDays = kevSlaDaysOf((await tx.get(db.doc(companyPath(request.company)))).data())
      if (request.kevSlaDays !== kevSlaDays) {
        before.kevSlaDays = kevSlaDays
        after.kevSlaDays = request.kevSlaDays
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
