// addDraftFindings: one batch of what the analyst's browser parsed from one of the draft's files.
// The server computes each finding's fingerprint for the scan's service (never trusting one sent),
// folds instances of the same issue into one draft finding, gives mapped rules their template,
// and keeps the assets. Sending a batch again leaves the same documents. Batches arrive while the
// draft is importing; finishDraftImport then makes it whole.
import { Timestamp, type DocumentReference, type Firestore } from 'firebase-admin/firestore'
import type { CallableData } from '#domain/callables.ts'
import type { Scan } from '#domain/scans.ts'
import { HttpsError } from 'firebase-functions/v2/https'
import { assetId } from '#domain/fingerprints.ts'
import {
  draftAssetDocument,
  draftAssetsPath,
  draftFindingDocument,
  draftFindingFromDocument,
  draftFindingsPath,
  type StoredDraftFinding,
} from '#domain/scan-drafts.ts'
import { parsedFingerprint } from '#domain/scan-import/observed.ts'
import { storedTimes } from '#domain/stored.ts'
import { templateMappingFromDocument, templateMappingId, templateMappingPath } from '#domain/template-mappings.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { assertImporting, scanImporter } from './import-caller.ts'

/** Firestore's limit of writes in one batch. */
const BATCH_WRITES = 500

export const addDraftFindings = defineCallable('addDraftFindings', {}, async (caller, request) => {
  const db = adminDb()
  const { company, scanId, sourceFile } = request
  const { importer, scan } = await scanImporter(db, caller, company, scanId)
  assertImporting(scan)
  if (!scan.files.some((f) => f.sha256 === sourceFile)) throw new HttpsError('invalid-argument', 'This file is not part of the scan.')
  return writeDraftFindings(db, scan, request, importer.by)
})

/** One checked batch of a draft's findings and assets, written by `by`. */
export async function writeDraftFindings(
  db: Firestore,
  scan: Scan,
  request: CallableData<'addDraftFindings'>,
  by: string,
): Promise<{ findings: number; assets: number; unmapped: number }> {
  const { company, scanId, sourceFile } = request
  const now = Date.now()
  // Instances of one issue (the same fingerprint) become one draft finding.
  const byId = new Map<string, StoredDraftFinding>()
  for (const finding of request.findings) {
    const id = await parsedFingerprint(scan.service, finding)
    const known = byId.get(id)
    if (known) known.instances += 1
    else byId.set(id, draftFindingDocument(finding, sourceFile, by, now))
  }

  const ruleIds = [...new Set([...byId.values()].map((f) => f.ruleId))]
  const mappingRefs = await Promise.all(
    ruleIds.map(async (rule) => db.doc(templateMappingPath(await templateMappingId(scan.service, rule)))),
  )
  const mappings = new Map<string, string>()
  for (const snapshot of mappingRefs.length ? await db.getAll(...mappingRefs) : []) {
    const mapping = snapshot.exists ? templateMappingFromDocument(snapshot.id, snapshot.data()) : null
    if (mapping) mappings.set(mapping.ruleId.trim().toLowerCase(), mapping.templateSlug)
  }

  const collection = db.collection(draftFindingsPath(company, scanId))
  const findingRefs = [...byId.keys()].map((id) => collection.doc(id))
  const existing = new Map<string, StoredDraftFinding>()
  for (const snapshot of findingRefs.length ? await db.getAll(...findingRefs) : []) {
    const draft = snapshot.exists ? draftFindingFromDocument(snapshot.id, snapshot.data()) : null
    if (draft) existing.set(draft.id, draft)
  }

  const writes: [DocumentReference, Record<string, unknown>][] = []
  let unmapped = 0
  for (const [id, draft] of byId) {
    const before = existing.get(id)
    // Already in the draft (another file, or a batch sent again): the analyst's review stands.
    const merged: StoredDraftFinding = before
      ? { ...before, instances: Math.max(before.instances, draft.instances), updatedAt: now }
      : draft
    if (merged.templateSource !== 'analyst') {
      const slug = mappings.get(merged.ruleId.trim().toLowerCase()) ?? null
      merged.templateSlug = slug
      merged.templateSource = slug ? 'mapping' : 'none'
    }
    if (!merged.templateSlug) unmapped++
    writes.push([collection.doc(id), storedTimes(merged, Timestamp.fromMillis) as Record<string, unknown>])
  }
  const assets = db.collection(draftAssetsPath(company, scanId))
  for (const asset of request.assets)
    writes.push([assets.doc(await assetId(scan.service, asset.type, asset.value)), draftAssetDocument(asset)])

  for (let start = 0; start < writes.length; start += BATCH_WRITES) {
    const batch = db.batch()
    for (const [ref, data] of writes.slice(start, start + BATCH_WRITES)) batch.set(ref, data)
    await batch.commit()
  }
  return { findings: byId.size, assets: request.assets.length, unmapped }
}
