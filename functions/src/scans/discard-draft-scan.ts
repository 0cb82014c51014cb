// discardDraftScan: an analyst drops a draft (a wrong file, a test run). Its draft findings and
// assets go with it; the same files can be imported again afterwards. An import that did not finish
// can be dropped the same way.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { scanPath } from '#domain/scans.ts'
import { assertDraft, scanImporter } from './import-caller.ts'

export const discardDraftScan = defineCallable('discardDraftScan', {}, async (caller, request) => {
  const db = adminDb()
  const { scan } = await scanImporter(db, caller, request.company, request.scanId)
  if (scan.state !== 'importing') assertDraft(scan)
  await db.recursiveDelete(db.doc(scanPath(request.company, request.scanId)))
  return { discarded: true }
})
