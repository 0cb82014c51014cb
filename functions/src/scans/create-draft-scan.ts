// createDraftScan: the start of an import. The draft's id is a hash of the service and the files'
// SHA-256, so importing the same files again answers with the scan they made and changes nothing.
// A new draft is 'importing' until its last batch has arrived (finishDraftImport): until then no
// one reviews or publishes it, and the same files imported again resume it instead of being
// refused as imported before (decision 0046).
// The scope key (which scans compare) is the analyst's, else the files' own targets' (decision 0045):
// never the latest published scan's, which would let a file of one host close the whole service.
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore'
import type { CreateDraftScanRequest } from '#domain/scan-import-calls.ts'
import { draftScanId } from '#domain/scan-drafts.ts'
import { importStats } from '#domain/scan-import/import-stats.ts'
import { targetsScopeKey } from '#domain/publication-scope.ts'
import { scanPath } from '#domain/scans.ts'
import { emptySeverityCounts } from '#domain/findings.ts'
import { storedTimes } from '#domain/stored.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { importCaller } from './import-caller.ts'

/** Targets kept on the scan document; the findings keep every one. */
const TARGETS_KEPT = 200

export const createDraftScan = defineCallable('createDraftScan', {}, async (caller, request) => {
  const db = adminDb()
  const importer = await importCaller(db, caller, request.company, request.service)
  return writeDraftScan(db, request, importer.by)
})

/** The draft scan of checked files, made by `by` (an analyst's email, or the agent that ran the scan). */
export async function writeDraftScan(
  db: Firestore,
  request: CreateDraftScanRequest,
  by: string,
): Promise<{ scanId: string; created: boolean; state: string }> {
  const { company, service } = request
  const scanId = await draftScanId(
    service,
    request.files.map((f) => f.sha256),
  )
  const ref = db.doc(scanPath(company, scanId))

  const scopeKey = request.scopeKey || targetsScopeKey(service, request.targets)

  return db.runTransaction(async (tx) => {
    const existing = await tx.get(ref)
    if (existing.exists) return { scanId, created: false, state: String(existing.data()?.state ?? 'draft') }
    const now = Date.now()
    const startedAt = request.startedAt ?? now
    tx.create(ref, {
      ...(storedTimes(
        {
          service,
          state: 'importing',
          title: request.title,
          tool: [...new Set(request.files.map((f) => f.tool))].join(', '),
          scopeKey,
          targets: request.targets.slice(0, TARGETS_KEPT),
          startedAt,
          finishedAt: request.finishedAt,
          publishedAt: null,
          publishedBy: null,
          previousScanId: null,
          counts: { bySeverity: emptySeverityCounts(), total: 0, new: 0, persisting: 0, notDetected: 0, reopened: 0 },
          stats: importStats(service, [], [], startedAt, request.serviceStats),
          files: request.files,
          importReport: request.report,
          importedBy: by,
        },
        Timestamp.fromMillis,
      ) as Record<string, unknown>),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: by,
    })
    return { scanId, created: true, state: 'importing' }
  })
}
