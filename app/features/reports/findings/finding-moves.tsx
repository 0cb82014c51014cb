// The workflow moves a person may make on one finding, as buttons: the permission module decides
// which (availableMoves for the role and status); each opens a dialog for its note or expiry.
// Analysts see a requested retest's three outcomes.
import { useState } from 'react'
import styled from 'styled-components'
import type { FindingRole } from '#domain/access.ts'
import type { Finding } from '#domain/findings.ts'
import {
  availableMoves,
  findingActionLabels,
  mayMakeMove,
  RETEST_OUTCOME_ACTIONS,
  type FindingAction,
  type RetestOutcomeAction,
} from '#domain/finding-workflow.ts'
import { Button } from '~/ui/button'
import { MoveDialog, type MoveProgress, type MoveRequest } from './move-dialog'
import { completeRetest, makeMove, retestOutcomeOf } from './moves'

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`

const descriptions: Partial<Record<FindingAction, string>> = {
  request_retest: 'Tell the analysts what was changed. The SLA clock stands still until they report the outcome.',
  request_acceptance: 'Say why the risk can be accepted and until when. A company admin decides.',
  approve_acceptance: 'The finding is set aside until the chosen date, then reopens by itself.',
  reject_acceptance: 'Say why: the finding returns to where it was.',
  dispute: 'Say why this finding is wrong; an analyst reviews it.',
  retest_fixed: 'The retest found the issue fixed.',
  retest_partially_fixed: 'Say what is left.',
  retest_not_fixed: 'Say what the retest still found.',
  uphold: 'Say why the finding stands.',
  mark_false_positive: 'Say why this is not a real issue.',
  reopen: 'Say why the finding is open again.',
}

/** The moves of `role` on the finding now; what the buttons show. */
export function movesFor(role: FindingRole | null, finding: Pick<Finding, 'status' | 'retestId'>): FindingAction[] {
  const moves: FindingAction[] = availableMoves(role, finding.status)
  const outcomes = finding.retestId ? RETEST_OUTCOME_ACTIONS.filter((action) => mayMakeMove(role, action, finding.status)) : []
  return [...outcomes, ...moves]
}

const isOutcome = (action: FindingAction): action is RetestOutcomeAction => (RETEST_OUTCOME_ACTIONS as readonly string[]).includes(action)

export function FindingMoves({ company, finding, role }: { company: string; finding: Finding; role: FindingRole | null }) {
  const [open, setOpen] = useState<FindingAction | null>(null)
  const moves = movesFor(role, finding)
  if (moves.length === 0) return null

  const submit = async (action: FindingAction, request: MoveRequest, progress: MoveProgress) => {
    if (isOutcome(action)) {
      if (!finding.retestId) throw new Error('This finding has no open retest request.')
      const answer = await completeRetest(
        company,
        finding.retestId,
        finding.id,
        retestOutcomeOf[action],
        request.note,
        request.requestId,
        progress,
      )
      if (answer.refused[0]) throw new Error(answer.refused[0].reason)
      return
    }
    const answer = await makeMove(company, [finding.id], action, request, progress)
    if (answer.refused[0]) throw new Error(answer.refused[0].reason)
  }

  return (
    <>
      <Bar role="group" aria-label="Workflow">
        {moves.map((action) => (
          <Button key={action} type="button" $variant={isOutcome(action) ? 'primary' : 'secondary'} onClick={() => setOpen(action)}>
            {findingActionLabels[action]}
          </Button>
        ))}
      </Bar>
      {open && (
        <MoveDialog
          open
          onOpenChange={(next) => !next && setOpen(null)}
          action={open}
          title={findingActionLabels[open]}
          description={descriptions[open] ?? `“${finding.title}” moves on when you confirm.`}
          noteLabel={open === 'request_retest' ? 'What was changed' : open === 'request_acceptance' ? 'Reason' : 'Note'}
          onSubmit={(request, progress) => submit(open, request, progress)}
        />
      )}
    </>
  )
}
