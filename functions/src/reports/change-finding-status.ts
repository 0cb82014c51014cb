// changeFindingStatus: a person's move on one finding or a selection (start remediation, ask to
// accept a risk, approve it, dispute, mark false positive ...). Each finding is planned by the
// workflow and moved, or refused with the workflow's reason; all in one transaction. The client
// API's POST /findings/{id}/accept-risk makes its request_acceptance through findingMoves.
import type { Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import type { CallableResponse } from '#domain/callables.ts'
import type { FindingAction } from '#domain/finding-workflow.ts'
import { adminDb } from '../admin.ts'
import type { Transact } from '../call-receipts.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, planMoves } from './finding-store.ts'
import { readFindingsFor, reportCaller, type ReportCaller } from './report-caller.ts'

/**
 * `action` on each of `findingIds` by `reader`, in the transaction `transact` runs: those moved
 * and those refused, with why. `allOrNone`: a refusal refuses the whole call (failed-precondition,
 * the workflow's reason), so nothing is written, not even a receipt.
 */
export function findingMoves(
  db: Firestore,
  reader: ReportCaller,
  asked: { findingIds: readonly string[]; action: FindingAction; note: string; expiresAt?: number },
  transact: Transact,
  options: { allOrNone?: boolean } = {},
): Promise<CallableResponse<'changeFindingStatus'>> {
  return transact(async (tx) => {
    const findings = await readFindingsFor(db, tx, reader, asked.findingIds)
    const input = { note: asked.note, ...(asked.expiresAt === undefined ? {} : { expiresAt: asked.expiresAt }) }
    const { writes, refused } = planMoves(findings, asked.action, reader.actor, input, Date.now())
    if (options.allOrNone && refused.length > 0) throw new HttpsError('failed-precondition', refused[0]!.reason)
    if (writes.length > 0) await applyFindingChanges(db, tx, { company: reader.company.slug, updatedBy: reader.by, findings: writes })
    return { changed: writes.map((w) => w.id), refused }
  })
}

export const changeFindingStatus = defineCallable('changeFindingStatus', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  return findingMoves(db, reader, request, (work) => db.runTransaction(work))
})
