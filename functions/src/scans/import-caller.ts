// Who calls an import callable: a report caller (reports/report-caller.ts) who may also import the
// named service's scans (the analyst service page's rule), and the draft scan they name.
import type { Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayImportAnyScans, mayImportScans } from '#domain/scan-import-calls.ts'
import { scanFromDocument, scanPath, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { callerMessages, type Caller } from '../define-callable.ts'
import { reportCaller, type ReportCaller } from '../reports/report-caller.ts'

export const importMessages = {
  noScan: 'There is no such scan.',
  notDraft: 'This scan is published: its findings change through the reports now.',
  importing: 'This import has not finished: import the same files again to finish it.',
  finished: 'This import has finished: its findings are in the draft.',
  nothingArrived: 'None of the files’ findings arrived: import the same files again.',
} as const

/** The caller in `company`, refused unless they may import `service`'s scans (a stored job's service is any string). */
export async function importCaller(db: Firestore, caller: Caller, company: string, service: ServiceId | string): Promise<ReportCaller> {
  const importer = await reportCaller(db, caller, company)
  if (!mayImportScans(importer.access, service)) throw new HttpsError('permission-denied', callerMessages.denied)
  return importer
}

/** The named scan and its importer: not-found for no scan, permission-denied unless they may import its service. */
export async function scanImporter(
  db: Firestore,
  caller: Caller,
  company: string,
  scanId: string,
): Promise<{ importer: ReportCaller; scan: Scan }> {
  const [importer, snapshot] = await Promise.all([reportCaller(db, caller, company), db.doc(scanPath(company, scanId)).get()])
  const scan = snapshot.exists ? scanFromDocument(snapshot.id, snapshot.data()) : null
  // Refuse the caller before saying whether the scan exists.
  if (!(scan ? mayImportScans(importer.access, scan.service) : mayImportAnyScans(importer.access)))
    throw new HttpsError('permission-denied', callerMessages.denied)
  if (!scan) throw new HttpsError('not-found', importMessages.noScan)
  return { importer, scan }
}

/** Refuses a scan that is not a whole draft: one still importing, or one published. */
export function assertDraft(scan: Scan): void {
  if (scan.state === 'importing') throw new HttpsError('failed-precondition', importMessages.importing)
  if (scan.state !== 'draft') throw new HttpsError('failed-precondition', importMessages.notDraft)
}

/** Refuses a scan whose import has finished: its findings no longer arrive in batches. */
export function assertImporting(scan: Scan): void {
  if (scan.state === 'draft') throw new HttpsError('failed-precondition', importMessages.finished)
  if (scan.state !== 'importing') throw new HttpsError('failed-precondition', importMessages.notDraft)
}
