// Makes a workflow move through the report callables (the only way a finding changes). The Firebase
// SDK is loaded when a move is made (callLazily).
import type { FindingAction, RetestOutcomeAction } from '#domain/finding-workflow.ts'
import type { RetestOutcome } from '#domain/retests.ts'
import { callLazily } from '~/core/call-lazily'
import { callUntilKnown } from '~/core/call-until-known'
import type { MoveProgress, MoveRequest } from './move-dialog'

export interface MoveOutcome {
  refused: { findingId: string; reason: string }[]
}

/**
 * The move for these findings: a retest request has its own callable, every other its status change.
 * A retest request whose answer did not come is checked under its request id until it is known.
 */
export async function makeMove(
  company: string,
  findingIds: string[],
  action: FindingAction,
  request: MoveRequest,
  progress?: MoveProgress,
): Promise<MoveOutcome> {
  if (action === 'request_retest')
    return callUntilKnown(() => callLazily('requestRetest', { requestId: request.requestId, company, findingIds, note: request.note }), {
      onChecking: progress?.checking,
    })
  if (action === 'retest_fixed' || action === 'retest_partially_fixed' || action === 'retest_not_fixed')
    throw new Error('A retest is completed through its request.')
  return callLazily('changeFindingStatus', {
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

/** An analyst's outcome of one finding of a retest request, checked under its request id until it is known. */
export async function completeRetest(
  company: string,
  retestId: string,
  findingId: string,
  outcome: RetestOutcome,
  note: string,
  requestId: string,
  progress?: MoveProgress,
) {
  return callUntilKnown(() => callLazily('completeRetest', { requestId, company, retestId, results: [{ findingId, outcome, note }] }), {
    onChecking: progress?.checking,
  })
}

/** A comment on the finding, for the client or for analysts only; `mentions` the people picked in the box (uids). */
export async function addComment(
  company: string,
  findingId: string,
  body: string,
  visibility: 'client' | 'internal',
  mentions: readonly string[] = [],
) {
  return callLazily('addFindingComment', { company, findingId, body, visibility, mentions: [...mentions] })
}
