// reviewDraftFindings: what an analyst decides about a draft's findings before publishing: the
// severity and CVSS, a false positive, the template (and, when asked, the rule's mapping for later
// imports), findings that are one issue (merge), or a merge undone (split: a merged finding, or a
// finding and everything merged into it), or the analyst's own title, description or remediation
// of one finding.
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { parseCvssVector, severityOfScore } from '#domain/cvss.ts'
import {
  DRAFT_TEXT_FIELDS,
  draftFindingFromDocument,
  draftFindingPath,
  draftFindingsPath,
  type DraftFinding,
  type DraftTextField,
} from '#domain/scan-drafts.ts'
import type { DraftReview } from '#domain/scan-import-calls.ts'
import { templatePath } from '#domain/template-library.ts'
import { storedTemplateMapping, templateMappingId, templateMappingPath } from '#domain/template-mappings.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { assertDraft, scanImporter } from './import-caller.ts'

/** Values Firestore takes in one `in` filter. */
const IN_QUERY_VALUES = 30

/**
 * The severity a finding takes from its CVSS score when the review changes the score (or asks the
 * severity to follow it again), unless an analyst chose the severity by hand; nothing otherwise.
 */
function followedSeverity(finding: DraftFinding, review: DraftReview, cvss: DraftFinding['cvss']): Partial<DraftFinding> {
  const follows = (review.kind === 'cvss' && !finding.severityByHand) || (review.kind === 'severity' && review.severity === null)
  if (!follows) return {}
  const score = review.kind === 'cvss' ? cvss?.score : finding.cvss?.score
  return { severity: score === undefined ? finding.scannerSeverity : severityOfScore(score) }
}

/** What the analyst's text changes in the finding (each field sent becomes theirs), or null when nothing. */
function analystText(finding: DraftFinding, text: Partial<Record<DraftTextField, string>>): Partial<DraftFinding> | null {
  const patch: Partial<DraftFinding> = {}
  const edited = new Set(finding.edited)
  for (const field of DRAFT_TEXT_FIELDS) {
    const value = text[field]
    if (value === undefined || (value === finding[field] && edited.has(field))) continue
    patch[field] = value
    edited.add(field)
  }
  if (Object.keys(patch).length === 0) return null
  return { ...patch, edited: DRAFT_TEXT_FIELDS.filter((field) => edited.has(field)) }
}

export const reviewDraftFindings = defineCallable('reviewDraftFindings', {}, async (caller, request) => {
  const db = adminDb()
  const { company, scanId, review } = request
  const { importer, scan } = await scanImporter(db, caller, company, scanId)
  assertDraft(scan)

  let template: { slug: string; data: unknown } | null = null
  if (review.kind === 'template' && review.templateSlug) {
    const stored = await db.doc(templatePath(review.templateSlug)).get()
    if (!stored.exists) throw new HttpsError('not-found', `There is no template "${review.templateSlug}".`)
    template = { slug: review.templateSlug, data: stored.data() }
  }

  let cvss: DraftFinding['cvss'] = null
  if (review.kind === 'cvss' && review.vector !== null) {
    const parsed = parseCvssVector(review.vector)
    if (!parsed.ok) throw new HttpsError('invalid-argument', parsed.error)
    cvss = { version: parsed.version, vector: parsed.vector, score: parsed.score }
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
      case 'text': {
        const finding = findings[0]!
        const changes = analystText(finding, review)
        // The same text again (a save tried twice) writes nothing.
        if (!changes) return { changed: 0 }
        patch = changes
        break
      }
      case 'severity':
        // Null: the severity follows the CVSS score again (each finding's own), else the scanner's word.
        patch = review.severity ? { severity: review.severity, severityByHand: true } : { severityByHand: false }
        break
      case 'cvss':
        patch = { cvss }
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
    // A split also frees the findings merged into those named.
    const members: typeof refs = []
    if (review.kind === 'split') {
      const collection = db.collection(draftFindingsPath(company, scanId))
      for (let start = 0; start < ids.length; start += IN_QUERY_VALUES) {
        const merged = await tx.get(collection.where('mergedInto', 'in', ids.slice(start, start + IN_QUERY_VALUES)))
        for (const doc of merged.docs) if (!ids.includes(doc.id)) members.push(doc.ref)
      }
    }
    const now = Timestamp.fromMillis(Date.now())
    refs.forEach((ref, i) =>
      tx.update(ref, { ...patch, ...followedSeverity(findings[i]!, review, cvss), updatedAt: now, updatedBy: importer.by }),
    )
    for (const ref of members) tx.update(ref, { ...patch, updatedAt: now, updatedBy: importer.by })

    if (review.kind === 'template' && template && review.remember) {
      for (const ruleId of new Set(findings.map((f) => f!.ruleId))) {
        tx.set(db.doc(templateMappingPath(await templateMappingId(scan.service, ruleId))), {
          ...storedTemplateMapping({
            service: scan.service,
            ruleId,
            ruleTitle: findings.find((f) => f!.ruleId === ruleId)!.title,
            template,
            by: importer.by,
          }),
          updatedAt: FieldValue.serverTimestamp(),
        })
      }
    }
    return { changed: refs.length + members.length }
  })
})
