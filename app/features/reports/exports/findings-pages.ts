// The findings an export holds, read from the database page by page (cursor pagination), one query
// of the plan after another, each a query the indexes serve and the rules allow (it names the
// service). Loaded with `import()` (Firestore SDK). Read from the server: an export never holds a
// cache's part of the list. A cancelled export stops waiting at once and asks for no further page.
import {
  collection,
  getCountFromServer,
  getDocsFromServer,
  limit,
  orderBy,
  query,
  startAfter,
  where,
  type QueryConstraint,
  type QueryDocumentSnapshot,
} from 'firebase/firestore'
import { findingFromDocument, findingsPath, type Finding } from '#domain/findings.ts'
import type { ServiceId } from '#domain/services.ts'
import { firestore } from '~/core/firebase'
import { withinDeadline } from '~/core/read-deadline'
import { unlessAborted } from './abortable'
import type { ExportSegment } from './export-plan'
import type { ExportPage } from './export-source'

export const EXPORT_PAGE_SIZE = 500

const segmentQuery = (company: string, service: ServiceId, segment: ExportSegment, ...more: QueryConstraint[]) =>
  query(
    collection(firestore(), findingsPath(company)),
    where('service', '==', service),
    segment.statuses.length === 1 ? where('status', '==', segment.statuses[0]) : where('status', 'in', [...segment.statuses]),
    ...(segment.severity ? [where('severity', '==', segment.severity)] : []),
    orderBy('lastSeenAt', 'desc'),
    ...more,
  )

/** How many findings the plan's queries hold (an aggregation: one read per thousand). */
export async function countFindings(company: string, service: ServiceId, segments: readonly ExportSegment[]): Promise<number> {
  const counts = await Promise.all(
    segments.map(async (segment) => (await withinDeadline(getCountFromServer(segmentQuery(company, service, segment)))).data().count),
  )
  return counts.reduce((a, b) => a + b, 0)
}

/** Every finding of the plan's queries, in their order, a page at a time. */
export async function* readFindingPages(
  company: string,
  service: ServiceId,
  segments: readonly ExportSegment[],
  signal: AbortSignal,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ExportPage> {
  for (const segment of segments) {
    let cursor: QueryDocumentSnapshot | null = null
    for (;;) {
      const q = segmentQuery(company, service, segment, ...(cursor ? [startAfter(cursor)] : []), limit(pageSize))
      const snapshot = await unlessAborted(withinDeadline(getDocsFromServer(q)), signal)
      const findings: Finding[] = []
      for (const d of snapshot.docs) {
        const finding = findingFromDocument(d.id, d.data())
        if (finding) findings.push(finding)
      }
      yield { read: snapshot.docs.length, findings }
      if (snapshot.docs.length < pageSize) break
      cursor = snapshot.docs[snapshot.docs.length - 1]!
    }
  }
}
