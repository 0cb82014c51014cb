// reviewDraftFindings: what an analyst decides about a draft's findings before publishing: the
// severity, a false positive, the template (and, when asked, the rule's mapping for later
// imports), two findings that are one issue (merge) or a merge undone (split).
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { draftFindingFromDocument, draftFindingPath, type DraftFinding } from '#domain/scan-drafts.ts'
import { templatePath } from '#domain/template-library.ts'
import { templateMappingId, templateMappingPath } from '#domain/template-mappings.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { assertDraft, scanImporter } from './import-caller.ts'

export const reviewDraftFindings = defineCallable('reviewDraftFindings', {}, async (caller, request) => {
  const db = adminDb()
  const { company, scanId, review } = request
  const { importer, scan } = await scanImporter(db, caller, company, scanId)
  assertDraft(scan)

  if (review.kind === 'template' && review.templateSlug) {
    const template = await db.doc(templatePath(review.templateSlug)).get()
    if (!template.exists) throw new HttpsError('not-found', `There is no template "${review.templateSlug}".`)
  }

  return db.runTransaction(async (tx) => {
    const ids = [...new Set(request.findingIds)]
    const refs = ids.map((id) => db.doc(draftFindingPath(company, scanId, id)))
    const intoRef = review.kind === 'merge' ? db.doc(draftFindingPath(company, scanId, review.into)) : null
    const snapshots = await tx.getAll(...refs, ...(intoRef ? [intoRef] : []))
    const drafts = snapshots.map((s) => (s.exists ? draftFindingFromDocument(s.id, s.data()) : null))
    const findings = drafts.slice(0, ids.length)
    if (findings.some((f) => f === null)) throw new HttpsError('not-found', 'There is no such draft finding.')

    let patch: Partial<Record<keyof DraftFinding, unknown>>
    switch (review.kind) {
      case 'severity':
        patch = { severity: review.severity }
        break
      case 'false_positive':
        patch = { falsePositive: review.value }
        break
      case 'template':
        patch = { templateSlug: review.templateSlug, templateSource: review.templateSlug ? 'analyst' : 'none' }
        break
      case 'merge': {
        const into = drafts[ids.length]
        if (!into) throw new HttpsError('not-found', 'There is no such draft finding to merge into.')
        if (ids.includes(into.id)) throw new HttpsError('invalid-argument', 'A finding cannot be merged into itself.')
        if (into.mergedInto) throw new HttpsError('failed-precondition', 'That finding is itself merged into another; merge into that one.')
        patch = { mergedInto: into.id }
        break
      }
      case 'split':
        patch = { mergedInto: null }
        break
    }
    const now = Timestamp.fromMillis(Date.now())
    for (const ref of refs) tx.update(ref, { ...patch, updatedAt: now, updatedBy: importer.by })

    if (review.kind === 'template' && review.templateSlug && review.remember) {
      for (const ruleId of new Set(findings.map((f) => f!.ruleId))) {
        tx.set(db.doc(templateMappingPath(await templateMappingId(scan.service, ruleId))), {
          service: scan.service,
          ruleId,
          templateSlug: review.templateSlug,
          updatedAt: FieldValue.serverTimestamp(),
          updatedBy: importer.by,
        })
      }
    }
    return { changed: refs.length }
  })
})
