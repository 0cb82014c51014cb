// completeRetest: an analyst gives the outcome of a retest for some or all of its findings (fixed,
// partly fixed, not fixed). Each finding moves as the workflow says; the request is completed once
// every finding has its outcome (or no longer waits on it), and the client is told. A try sent
// again with the same request id answers what the first try did, and neither writes nor tells again.
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import * as logger from 'firebase-functions/logger'
import { planFindingAction, type RetestOutcomeAction } from '#domain/finding-workflow.ts'
import { retestFromDocument, retestPath, type RetestOutcome } from '#domain/retests.ts'
import { serviceById } from '#domain/services.ts'
import { adminDb } from '../admin.ts'
import { once } from '../call-receipts.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, readFinding, type FindingWrite } from './finding-store.ts'
import { notifyCompany } from './notify.ts'
import { assertSeesResults, reportCaller, reportMessages } from './report-caller.ts'

const OUTCOME_ACTION: Record<RetestOutcome, RetestOutcomeAction> = {
  fixed: 'retest_fixed',
  partially_fixed: 'retest_partially_fixed',
  not_fixed: 'retest_not_fixed',
}

export const completeRetest = defineCallable('completeRetest', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  const ref = db.doc(retestPath(request.company, request.retestId))
  const { answer: outcome, replayed } = await once(db, caller.uid, 'completeRetest', request, async (tx) => {
    const snapshot = await tx.get(ref)
    const retest = snapshot.exists ? retestFromDocument(snapshot.id, snapshot.data()) : null
    if (!retest) throw new HttpsError('not-found', reportMessages.noRetest)
    assertSeesResults(reader, retest.service)
    if (retest.state !== 'requested') throw new HttpsError('failed-precondition', 'This retest is no longer open.')

    const findings = new Map<string, Awaited<ReturnType<typeof readFinding>>>()
    for (const id of retest.findingIds) findings.set(id, await readFinding(db, tx, request.company, id))

    const now = Date.now()
    const done = new Set(retest.results.map((r) => r.findingId))
    const writes: FindingWrite[] = []
    const results: Record<string, unknown>[] = []
    const refused: { findingId: string; reason: string }[] = []
    for (const result of request.results) {
      const finding = findings.get(result.findingId)
      if (!retest.findingIds.includes(result.findingId) || !finding) {
        refused.push({ findingId: result.findingId, reason: 'This finding is not part of the retest.' })
        continue
      }
      if (done.has(result.findingId) || finding.retestId !== retest.id) {
        refused.push({ findingId: result.findingId, reason: 'This finding already has its outcome.' })
        continue
      }
      const plan = planFindingAction(finding, OUTCOME_ACTION[result.outcome], reader.actor, { note: result.note, retestId: retest.id }, now)
      if (!plan.ok) {
        refused.push({ findingId: result.findingId, reason: plan.reason })
        continue
      }
      done.add(result.findingId)
      writes.push({ id: finding.id, before: finding, patch: plan.patch, change: plan.change })
      results.push({
        findingId: finding.id,
        outcome: result.outcome,
        note: result.note,
        at: Timestamp.fromMillis(now),
        byUid: reader.uid,
        byName: reader.actor.name,
      })
    }
    // A finding that left the retest some other way (marked false positive, say) waits on nothing.
    const completed = retest.findingIds.every((id) => done.has(id) || findings.get(id)?.retestId !== retest.id)
    if (writes.length === 0 && !completed) return { completed: false, refused, service: retest.service, fixed: 0, count: 0 }

    // Outcomes given in earlier calls count too: the retest's summary is of all its findings.
    const fixed = retest.results.filter((r) => r.outcome === 'fixed').length + writes.filter((w) => w.patch.status === 'fixed').length
    await applyFindingChanges(db, tx, {
      company: request.company,
      updatedBy: reader.by,
      findings: writes,
      retests: completed ? [{ service: retest.service, before: { state: retest.state }, after: { state: 'completed' } }] : [],
      events: completed ? [{ type: 'retest.completed', at: now, data: { service: retest.service, retestId: retest.id } }] : [],
      activity: completed
        ? [
            {
              type: 'retest_completed',
              service: retest.service,
              summary: `Retest completed: ${fixed} of ${retest.findingIds.length} fixed`,
              count: retest.findingIds.length,
              retestId: retest.id,
              at: now,
              byName: reader.actor.name,
            },
          ]
        : [],
    })
    tx.update(ref, {
      results: FieldValue.arrayUnion(...results),
      ...(completed ? { state: 'completed', completedAt: Timestamp.fromMillis(now), completedByName: reader.actor.name } : {}),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: reader.by,
    })
    return { completed, refused, service: retest.service, fixed, count: retest.findingIds.length }
  })

  if (!replayed && outcome.completed && outcome.count > 0) {
    const label = serviceById(outcome.service)?.label ?? outcome.service
    try {
      await notifyCompany(db, {
        company: request.company,
        service: outcome.service,
        type: 'retest_completed',
        title: `${label} retest completed`,
        body: `${outcome.fixed} of ${outcome.count} ${outcome.count === 1 ? 'finding is' : 'findings are'} fixed.`,
        link: `/reports/${outcome.service}`,
        exceptUid: caller.uid,
      })
    } catch (error) {
      logger.error('completeRetest: notifying failed', { error: error instanceof Error ? error.message : String(error) })
    }
  }
  return { completed: outcome.completed, refused: outcome.refused }
})
