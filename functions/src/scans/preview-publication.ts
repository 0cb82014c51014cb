// previewPublication: what publishing a draft will do, said before the analyst confirms (decision
// 0045): the scan of the same scope it compares with, whether it goes out as a side scan, and how
// many open findings become "not detected". The findings are counted by count() queries over those
// last seen by a published scan of the same scope, one per status and thirty scans, less the ones
// the draft lists (read by id, a field or two each): reads grow with the draft, never with the
// company's findings. The publication itself goes by the same rule (publish-scan.ts).
import { FieldPath, type Firestore } from 'firebase-admin/firestore'
import { SCAN_CAN_CLEAR } from '#domain/finding-workflow.ts'
import { findingPath, findingsPath, OPEN_STATUSES, type FindingStatus } from '#domain/findings.ts'
import { publicationScope } from '#domain/publication-scope.ts'
import type { PublicationPreview } from '#domain/scan-import-calls.ts'
import { draftFindingsPath } from '#domain/scan-drafts.ts'
import type { Scan } from '#domain/scans.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { assertDraft, scanImporter } from './import-caller.ts'
import { draftMerges, publishedScansOf } from './publish-scan.ts'

/** Values an `in` filter takes. */
const IN_VALUES = 30
/** Draft findings read per page (two fields each). */
const DRAFT_PAGE = 2_000
/** Findings read by id per getAll. */
const READ_IDS = 300

export const previewPublication = defineCallable('previewPublication', {}, async (caller, request) => {
  const db = adminDb()
  const { scan } = await scanImporter(db, caller, request.company, request.scanId)
  assertDraft(scan)
  return previewDraftPublication(db, request.company, scan)
})

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, n) => items.slice(n * size, (n + 1) * size))

export async function previewDraftPublication(db: Firestore, company: string, scan: Scan): Promise<PublicationPreview> {
  const { previous, sameScope, side } = publicationScope(scan, await publishedScansOf(db, company, scan.service))
  const answer = (notDetected: number, held: number): PublicationPreview => ({
    scopeKey: scan.scopeKey,
    side,
    previous: previous
      ? { id: previous.id, title: previous.title, startedAt: previous.startedAt, publishedAt: previous.publishedAt }
      : null,
    notDetected,
    held,
  })
  if (sameScope.length === 0) return answer(0, 0)

  const scopeScans = new Set(sameScope.map((s) => s.id))
  const clears = (status: FindingStatus) => SCAN_CAN_CLEAR.includes(status)
  // Open findings the scope's scans saw last: those a scan that lists none of them would miss.
  const counted = await Promise.all(
    chunks([...scopeScans], IN_VALUES).flatMap((ids) =>
      OPEN_STATUSES.map(async (status) => {
        const snapshot = await db
          .collection(findingsPath(company))
          .where('lastSeenScanId', 'in', ids)
          .where('status', '==', status)
          .count()
          .get()
        return { status, count: snapshot.data().count }
      }),
    ),
  )
  let notDetected = 0
  let held = 0
  for (const { status, count } of counted)
    if (clears(status)) notDetected += count
    else held += count

  // Less those the draft lists: seen again, or dismissed as false positives. A finding merged into
  // another is published as that one, so its own record is missed like any other.
  const merges = await draftMerges(db, company, scan.id)
  let cursor: string | null = null
  for (;;) {
    let query = db
      .collection(draftFindingsPath(company, scan.id))
      .select('mergedInto', 'falsePositive')
      .orderBy(FieldPath.documentId())
      .limit(DRAFT_PAGE)
    if (cursor) query = query.startAfter(cursor)
    const docs = (await query.get()).docs
    if (docs.length === 0) break
    cursor = docs.at(-1)!.id
    const listed = docs
      .map((d) => ({
        id: d.id,
        mergedInto: typeof d.get('mergedInto') === 'string' ? (d.get('mergedInto') as string) : null,
        falsePositive: d.get('falsePositive') === true,
      }))
      .filter((d) => d.mergedInto === null || merges.dismissed(d))
    for (const ids of chunks(listed, READ_IDS)) {
      const snapshots = await db.getAll(...ids.map((d) => db.doc(findingPath(company, d.id))), {
        fieldMask: ['status', 'lastSeenScanId'],
      })
      for (const snapshot of snapshots) {
        if (!snapshot.exists || !scopeScans.has(String(snapshot.get('lastSeenScanId')))) continue
        const status = snapshot.get('status') as FindingStatus
        if (clears(status)) notDetected--
        else if (OPEN_STATUSES.includes(status)) held--
      }
    }
  }
  return answer(notDetected, held)
}
