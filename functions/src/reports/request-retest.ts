// requestRetest: a client asks the analysts to test findings of one service again. Creates the
// retest request (due after the turnaround), moves each finding the workflow allows to "retest
// requested" (its SLA clock stands still) and counts the request as waiting on the analysts.
// A try sent again with the same request id answers the first try's retest and writes nothing.
// The client API's POST /findings/{id}/retest makes the same request through retestRequest.
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import type { CallableResponse } from '#domain/callables.ts'
import { retestsPath } from '#domain/retests.ts'
import { DAY_MS, DEFAULT_RETEST_TURNAROUND_DAYS } from '#domain/sla.ts'
import { adminDb } from '../admin.ts'
import { once, type Transact } from '../call-receipts.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, planMoves } from './finding-store.ts'
import { readFindingsFor, reportCaller, type ReportCaller } from './report-caller.ts'

/**
 * A retest request of `findingIds` (one service) by `reader`, in the transaction `transact` runs:
 * refused with failed-precondition when the workflow moves none of them.
 */
export function retestRequest(
  db: Firestore,
  reader: ReportCaller,
  asked: { findingIds: readonly string[]; note: string },
  transact: Transact,
): Promise<CallableResponse<'requestRetest'>> {
  const company = reader.company.slug
  const ref = db.collection(retestsPath(company)).doc()
  return transact(async (tx) => {
    const findings = await readFindingsFor(db, tx, reader, asked.findingIds)
    const service = findings[0]!.service
    if (findings.some((f) => f.service !== service))
      throw new HttpsError('invalid-argument', 'Choose findings of one service for a retest.')

    const now = Date.now()
    const dueAt = now + DEFAULT_RETEST_TURNAROUND_DAYS * DAY_MS
    const { writes, refused } = planMoves(findings, 'request_retest', reader.actor, { note: asked.note, retestId: ref.id }, now)
    if (writes.length === 0) throw new HttpsError('failed-precondition', refused[0]?.reason ?? 'No finding can be retested.')

    const count = writes.length
    await applyFindingChanges(db, tx, {
      company,
      updatedBy: reader.by,
      findings: writes,
      retests: [{ service, before: null, after: { state: 'requested' } }],
      activity: [
        {
          type: 'retest_requested',
          service,
          summary: `Retest requested for ${count === 1 ? '1 finding' : `${count} findings`}`,
          count,
          retestId: ref.id,
          at: now,
          byName: reader.actor.name,
        },
      ],
    })
    const titles = new Map(findings.map((f) => [f.id, f.title]))
    tx.create(ref, {
      service,
      findingIds: writes.map((w) => w.id),
      findingTitles: writes.map((w) => titles.get(w.id) ?? ''),
      state: 'requested',
      note: asked.note,
      requestedByUid: reader.uid,
      requestedByName: reader.actor.name,
      requestedAt: Timestamp.fromMillis(now),
      dueAt: Timestamp.fromMillis(dueAt),
      results: [],
      completedAt: null,
      completedByName: null,
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: reader.by,
    })
    return { retestId: ref.id, dueAt, refused }
  })
}

export const requestRetest = defineCallable('requestRetest', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  return retestRequest(db, reader, request, async (work) => (await once(db, caller.uid, 'requestRetest', request, work)).answer)
})
