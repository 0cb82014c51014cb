// Makes a workflow move through the report callables (the only way a finding changes). `call` is
// imported when a move is made: it brings the Firebase SDK.
import type { FindingAction, RetestOutcomeAction } from '#domain/finding-workflow.ts'
import type { RetestOutcome } from '#domain/retests.ts'
import type { MoveRequest } from './move-dialog'

export interface MoveOutcome {
  refused: { findingId: string; reason: string }[]
}

/** The move for these findings: a retest request has its own callable, every other its status change. */
export async function makeMove(company: string, findingIds: string[], action: FindingAction, request: MoveRequest): Promise<MoveOutcome> {
  const { call } = await import('~/core/call')
  if (action === 'request_retest') return call('requestRetest', { company, findingIds, note: request.note })
  if (action === 'retest_fixed' || action === 'retest_partially_fixed' || action === 'retest_not_fixed')
    throw new Error('A retest is completed through its request.')
  return call('changeFindingStatus', {
    company,
    findingIds,
    action,
    note: request.note,
    ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
  })
}

export const retestOutcomeOf: Record<RetestOutcomeAction, RetestOutcome> = {
  retest_fixed: 'fixed',
  retest_partially_fixed: 'partially_fixed',
  retest_not_fixed: 'not_fixed',
}

/** An analyst's outcome of one finding of a retest request. */
export async function completeRetest(company: string, retestId: string, findingId: string, outcome: RetestOutcome, note: string) {
  const { call } = await import('~/core/call')
  return call('completeRetest', { company, retestId, results: [{ findingId, outcome, note }] })
}

/** A comment on the finding, for the client or for analysts only; `mentions` the people picked in the box (uids). */
export async function addComment(
  company: string,
  findingId: string,
  body: string,
  visibility: 'client' | 'internal',
  mentions: readonly string[] = [],
) {
  const { call } = await import('~/core/call')
  return call('addFindingComment', { company, findingId, body, visibility, mentions: [...mentions] })
}
