// changeFindingStatus: a person's move on one finding or a selection (start remediation, ask to
// accept a risk, approve it, dispute, mark false positive ...). Each finding is planned by the
// workflow and moved, or refused with the workflow's reason; all in one transaction.
import { HttpsError } from 'firebase-functions/v2/https'
import { planFindingAction } from '#domain/finding-workflow.ts'
import type { Finding } from '#domain/findings.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, readFinding, type FindingWrite } from './finding-store.ts'
import { assertSeesResults, reportCaller, reportMessages } from './report-caller.ts'

export const changeFindingStatus = defineCallable('changeFindingStatus', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  return db.runTransaction(async (tx) => {
    const findings: Finding[] = []
    for (const id of request.findingIds) {
      const finding = await readFinding(db, tx, request.company, id)
      if (!finding) throw new HttpsError('not-found', reportMessages.noFinding)
      assertSeesResults(reader, finding.service)
      findings.push(finding)
    }
    const now = Date.now()
    const writes: FindingWrite[] = []
    const refused: { findingId: string; reason: string }[] = []
    for (const finding of findings) {
      const input = { note: request.note, ...(request.expiresAt === undefined ? {} : { expiresAt: request.expiresAt }) }
      const plan = planFindingAction(finding, request.action, reader.actor, input, now)
      if (plan.ok) writes.push({ id: finding.id, before: finding, patch: plan.patch, change: plan.change })
      else refused.push({ findingId: finding.id, reason: plan.reason })
    }
    if (writes.length > 0) await applyFindingChanges(db, tx, { company: request.company, updatedBy: reader.by, findings: writes })
    return { changed: writes.map((w) => w.id), refused }
  })
})
