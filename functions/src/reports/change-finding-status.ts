// changeFindingStatus: a person's move on one finding or a selection (start remediation, ask to
// accept a risk, approve it, dispute, mark false positive ...). Each finding is planned by the
// workflow and moved, or refused with the workflow's reason; all in one transaction.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, planMoves } from './finding-store.ts'
import { readFindingsFor, reportCaller } from './report-caller.ts'

export const changeFindingStatus = defineCallable('changeFindingStatus', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  return db.runTransaction(async (tx) => {
    const findings = await readFindingsFor(db, tx, reader, request.findingIds)
    const input = { note: request.note, ...(request.expiresAt === undefined ? {} : { expiresAt: request.expiresAt }) }
    const { writes, refused } = planMoves(findings, request.action, reader.actor, input, Date.now())
    if (writes.length > 0) await applyFindingChanges(db, tx, { company: request.company, updatedBy: reader.by, findings: writes })
    return { changed: writes.map((w) => w.id), refused }
  })
})
