// finishDraftImport: the analyst's browser has sent the last batch of an import; the draft becomes
// whole (state 'draft'), to review and publish, and its files count as imported before. A draft
// whose files had findings and none of which arrived is refused: it stays importing, and the same
// files imported again send them. Finishing a finished import answers the same (decision 0046).
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import { scanFromDocument, scanPath } from '#domain/scans.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { assertImporting, importMessages, scanImporter } from './import-caller.ts'

export const finishDraftImport = defineCallable('finishDraftImport', {}, async (caller, request) => {
  const db = adminDb()
  const { importer } = await scanImporter(db, caller, request.company, request.scanId)
  return finishImport(db, request.company, request.scanId, importer.by)
})

/** Makes an importing draft whole once its findings are there; a draft already whole is answered as it is. */
export async function finishImport(db: Firestore, company: string, scanId: string, by: string): Promise<{ findings: number }> {
  const ref = db.doc(scanPath(company, scanId))
  const findings = db.collection(draftFindingsPath(company, scanId))
  return db.runTransaction(async (tx) => {
    const [snapshot, counted] = await Promise.all([tx.get(ref), tx.get(findings.count())])
    const scan = snapshot.exists ? scanFromDocument(snapshot.id, snapshot.data()) : null
    if (!scan) throw new HttpsError('not-found', importMessages.noScan)
    const count = counted.data().count
    if (scan.state === 'draft') return { findings: count }
    assertImporting(scan)
    if (count === 0 && (scan.importReport?.findings ?? 0) > 0) throw new HttpsError('failed-precondition', importMessages.nothingArrived)
    tx.update(ref, { state: 'draft', updatedAt: FieldValue.serverTimestamp(), updatedBy: by })
    return { findings: count }
  })
}
