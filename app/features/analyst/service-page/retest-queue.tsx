// The retests clients asked for, soonest due first: each request's note and deadline, and an
// outcome per finding (fixed, partly fixed, not fixed) with the analyst's note of what was
// retested and seen, kept with the outcome and in the finding's history. The client sees each
// outcome live. An outcome whose answer did not come is checked under its request id (it may have
// been saved).
import { useId, useState } from 'react'
import styled from 'styled-components'
import { RETEST_OUTCOMES, retestOutcomeLabels, type Retest, type RetestOutcome } from '#domain/retests.ts'
import type { ServiceId } from '#domain/services.ts'
import { callUntilKnown, newRequestId, UncheckedWrite, writeCheckMessages } from '~/core/call-until-known'
import { useLiveData } from '~/core/live-data'
import { LocalTime } from '~/ui/local-time'
import { Button } from '~/ui/button'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { OutcomeMessage } from '~/ui/outcome-message'
import { fieldControl } from '~/ui/text-field'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { callAnalyst, failureMessage } from './analyst-calls'
import { ErrorText, Muted, Panel, Tag, Toolbar } from './parts'

/** An outcome sent whose answer did not come: checked again under the same request id. */
interface Pending {
  findingId: string
  outcome: RetestOutcome
  note: string
  requestId: string
}

/** As the server keeps a note (reports-calls.ts). */
const NOTE_MAX = 4_000

const NoteField = styled.textarea`
  ${fieldControl}
  display: block;
  width: min(100%, 640px);
  box-sizing: border-box;
  min-height: 60px;
  margin: 4px 0 6px;
  padding: 6px 10px;
  resize: vertical;
`

/** One entry per finding: its outcome buttons, then the note sent with the outcome. */
const Outcomes = styled.ul`
  list-style: none;
  margin: 8px 0 0;
  padding: 0;
  display: grid;
  gap: 14px;
`

const NoteLabel = styled.label`
  display: block;
  margin-top: 6px;
  font-size: 13px;
  color: var(--color-text-muted);
`

function RetestRequest({ company, retest }: { company: string; retest: Retest }) {
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [checking, setChecking] = useState(false)
  const [unchecked, setUnchecked] = useState<Pending | null>(null)
  const [notes, setNotes] = useState<Record<string, string>>({})
  const noteId = useId()
  const done = new Map(retest.results.map((r) => [r.findingId, r.outcome]))
  const overdue = retest.dueAt < Date.now()

  async function complete(findingId: string, outcome: RetestOutcome) {
    // The same outcome asked again after an unknown answer is the same request.
    const note = (notes[findingId] ?? '').trim()
    const pending: Pending =
      unchecked?.findingId === findingId && unchecked.outcome === outcome && unchecked.note === note
        ? unchecked
        : { findingId, outcome, note, requestId: newRequestId() }
    setBusy(findingId)
    setError(null)
    setUnchecked(null)
    try {
      const { refused } = await callUntilKnown(
        () =>
          callAnalyst('completeRetest', {
            requestId: pending.requestId,
            company,
            retestId: retest.id,
            results: [{ findingId, outcome, note: pending.note }],
          }),
        { onChecking: () => setChecking(true) },
      )
      if (refused[0]) setError(refused[0].reason)
    } catch (failure) {
      if (failure instanceof UncheckedWrite) setUnchecked(pending)
      else setError(await failureMessage(failure))
    } finally {
      setBusy(null)
      setChecking(false)
    }
  }

  return (
    <li>
      <p>
        <strong>{retest.requestedByName}</strong> asked on <LocalTime at={retest.requestedAt} format="date" />: “{retest.note}”{' '}
        {overdue ? (
          <Tag $tone="warning">
            Overdue since <LocalTime at={retest.dueAt} format="date" />
          </Tag>
        ) : (
          <Tag>
            Due <LocalTime at={retest.dueAt} format="date" />
          </Tag>
        )}
      </p>
      <Outcomes>
        {retest.findingIds.map((findingId, i) => {
          const title = retest.findingTitles[i] ?? findingId
          return (
            <li key={findingId}>
              <Toolbar role="group" aria-label={`Outcome of ${title}`}>
                <strong>{title}</strong>
                {done.has(findingId) ? (
                  <Tag $tone="primary">{retestOutcomeLabels[done.get(findingId)!]}</Tag>
                ) : (
                  RETEST_OUTCOMES.map((outcome) => (
                    <Button
                      key={outcome}
                      type="button"
                      $variant="secondary"
                      disabled={busy !== null}
                      onClick={() => void complete(findingId, outcome)}
                    >
                      {retestOutcomeLabels[outcome]}
                    </Button>
                  ))
                )}
              </Toolbar>
              {!done.has(findingId) && (
                <>
                  <NoteLabel htmlFor={`${noteId}-${i}`}>
                    Note<VisuallyHidden> for {title}</VisuallyHidden> (optional)
                  </NoteLabel>
                  <NoteField
                    id={`${noteId}-${i}`}
                    value={notes[findingId] ?? ''}
                    maxLength={NOTE_MAX}
                    disabled={busy !== null}
                    placeholder="What was retested and what was seen: the request sent, the answer, the version found"
                    onChange={(event) => setNotes((current) => ({ ...current, [findingId]: event.target.value }))}
                  />
                </>
              )}
            </li>
          )
        })}
      </Outcomes>
      {checking && <OutcomeMessage tone="warning">{writeCheckMessages.checking}</OutcomeMessage>}
      {unchecked && !done.has(unchecked.findingId) && (
        <OutcomeMessage
          tone="warning"
          next={
            <Button type="button" $variant="secondary" onClick={() => void complete(unchecked.findingId, unchecked.outcome)}>
              Check again
            </Button>
          }
        >
          {writeCheckMessages.unchecked}
        </OutcomeMessage>
      )}
      {error && <ErrorText role="alert">{error}</ErrorText>}
    </li>
  )
}

export function RetestQueue({ company, service }: { company: string; service: ServiceId }) {
  const heading = useId()
  const retests = useLiveData(async () => (await import('./analyst-live')).watchRequestedRetests(company, service), [company, service])
  return (
    <Panel aria-labelledby={heading}>
      <h2 id={heading}>Retests waiting on us</h2>
      <LiveStatus live={retests} what="the retest requests" />
      {retests.status === 'ready' &&
        (retests.data.items.length === 0 ? (
          <Muted>No retest is waiting.</Muted>
        ) : (
          <>
            <ol>
              {retests.data.items.map((retest) => (
                <RetestRequest key={retest.id} company={company} retest={retest} />
              ))}
            </ol>
            <ListCap shown={retests.data.items.length} what="retest requests" order="soonest due" more={retests.data.more}>
              The next ones appear as these are answered.
            </ListCap>
          </>
        ))}
    </Panel>
  )
}
