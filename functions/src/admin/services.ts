// The platform's service catalogue: saveService changes what is named of one service (its label,
// description, whether new companies get it, its default remediation targets) with its audit
// event. Who manages a service is a page of listUsers (`manages`: their users_access says so).
import { FieldValue } from 'firebase-admin/firestore'
import { mayManageServiceCatalogue } from '#domain/access.ts'
import { catalogueEntryFromDocument, servicePath, type ServiceCatalogueEntry } from '#domain/service-catalogue.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { recordAuditEvent } from './audit.ts'
import { allow, readOrgActor } from './org-actor.ts'

export const saveService = defineCallable('saveService', {}, async (caller, request) => {
  const db = adminDb()
  const changed = await db.runTransaction(async (tx) => {
    const actor = await readOrgActor(db, tx, caller)
    allow(mayManageServiceCatalogue(actor.access))
    const current = catalogueEntryFromDocument(request.service, (await tx.get(db.doc(servicePath(request.service)))).data())
    const next: ServiceCatalogueEntry = {
      ...current,
      label: request.label ?? current.label,
      description: request.description ?? current.description,
      defaultEnabled: request.defaultEnabled ?? current.defaultEnabled,
      sla: { ...current.sla },
    }
    for (const severity of SEVERITIES) {
      const days = request.sla?.[severity]
      if (days !== undefined) next.sla[severity] = days
    }
    const before: Record<string, unknown> = {}
    const after: Record<string, unknown> = {}
    for (const key of ['label', 'description', 'defaultEnabled'] as const) {
      if (next[key] !== current[key]) [before[key], after[key]] = [current[key], next[key]]
    }
    if (SEVERITIES.some((severity) => next.sla[severity] !== current.sla[severity])) [before.sla, after.sla] = [current.sla, next.sla]
    if (Object.keys(after).length === 0) return false
    const { id: _id, ...stored } = next
    tx.set(db.doc(servicePath(request.service)), { ...stored, updatedAt: FieldValue.serverTimestamp(), updatedBy: actor.by })
    recordAuditEvent(db, tx, {
      actor: actor.audit,
      action: 'service.updated',
      target: { kind: 'service', id: request.service, label: next.label },
      companyId: null,
      before,
      after,
    })
    return true
  })
  return { changed }
})
