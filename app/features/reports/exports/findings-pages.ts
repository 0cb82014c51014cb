// The findings an export holds, read from the database page by page (cursor pagination), one query
// of the plan after another, each a query the indexes serve and the rules allow (it names the
// service). The pages come over Firestore's REST API with the person's ID token: each page is one
// response, gone once encoded, where the SDK's listen channel and cache would hold what a large
// service's export passed through them. Counts still go through the SDK (an aggregation answers a
// number). Loaded with `import()` (Firestore SDK). A cancelled export stops waiting at once and asks
// for no further page.
import { collection, getCountFromServer, orderBy, query, where, type QueryConstraint } from 'firebase/firestore'
import { findingFromDocument, findingsPath, type Finding } from '#domain/findings.ts'
import type { ServiceId } from '#domain/services.ts'
import { clientBoot } from '~/core/client-boot'
import { firebaseAuth, firestore } from '~/core/firebase'
import { READ_DEADLINE_MS, withinDeadline } from '~/core/read-deadline'
import { runStructuredQuery, type RestValue } from '~/server/firestore-rest'
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

const text = (value: string): RestValue => ({ stringValue: value })

/** One page of a segment's findings, newest seen first, after the document `after` names (its last-seen time and name). */
const segmentPage = (
  company: string,
  service: ServiceId,
  segment: ExportSegment,
  page: { size: number; after: RestValue[] | undefined; idToken: string; signal: AbortSignal },
) =>
  runStructuredQuery(
    clientBoot.current().firebase,
    page.idToken,
    {
      parent: findingsPath(company).slice(0, findingsPath(company).lastIndexOf('/')),
      collectionId: findingsPath(company).slice(findingsPath(company).lastIndexOf('/') + 1),
      filters: [
        { field: 'service', op: 'EQUAL', value: text(service) },
        segment.statuses.length === 1
          ? { field: 'status', op: 'EQUAL', value: text(segment.statuses[0]!) }
          : { field: 'status', op: 'IN', value: { arrayValue: { values: segment.statuses.map(text) } } },
        ...(segment.severity ? [{ field: 'severity', op: 'EQUAL' as const, value: text(segment.severity) }] : []),
      ],
      // The name breaks ties of the time, so the cursor passes each finding once.
      orderBy: [
        { field: 'lastSeenAt', direction: 'DESCENDING' },
        { field: '__name__', direction: 'DESCENDING' },
      ],
      limit: page.size,
      ...(page.after ? { startAfter: page.after } : {}),
    },
    page.signal,
  )

/** Every finding of the plan's queries, in their order, a page at a time. */
export async function* readFindingPages(
  company: string,
  service: ServiceId,
  segments: readonly ExportSegment[],
  signal: AbortSignal,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ExportPage> {
  for (const segment of segments) {
    let after: RestValue[] | undefined
    for (;;) {
      const user = firebaseAuth().currentUser
      if (!user) throw new Error('Sign in again to export the findings.')
      // A fresh token per page (the SDK keeps it until it is near its end): a long export outlives one.
      const idToken = await unlessAborted(user.getIdToken(), signal)
      // The request ends with the export (a cancel) or at the read's deadline, whichever comes first.
      const ended = AbortSignal.any([signal, AbortSignal.timeout(READ_DEADLINE_MS)])
      const documents = await withinDeadline(segmentPage(company, service, segment, { size: pageSize, after, idToken, signal: ended }))
      const findings: Finding[] = []
      for (const d of documents) {
        const finding = findingFromDocument(d.id, d.data)
        if (finding) findings.push(finding)
      }
      yield { read: documents.length, findings }
      if (documents.length < pageSize) break
      const last = documents[documents.length - 1]!
      after = [last.fields.lastSeenAt ?? { nullValue: null }, { referenceValue: last.name }]
    }
  }
}
