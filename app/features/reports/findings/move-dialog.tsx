// The dialog of a workflow move that needs words or a date: a note (required where the workflow
// says so) and, for a risk acceptance, when it ends. It stays open while the call runs and shows
// the call's error as it came. Its submits share one request id: a move whose answer did not come is
// checked under it (it may have been made) and shows what is true.
import { useId, useState, type FormEvent } from 'react'
import styled from 'styled-components'
import { acceptanceEndOfDay, ACTIONS_NEEDING_A_NOTE, MAX_ACCEPTANCE_DAYS, type FindingAction } from '#domain/finding-workflow.ts'
import { DAY_MS } from '#domain/sla.ts'
import { newRequestId, writeCheckMessages } from '~/core/call-until-known'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { OutcomeMessage } from '~/ui/outcome-message'
import { Field, fieldControl, FormMessage, Label } from '~/ui/text-field'

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 16px;
`

const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 110px;
  padding: 10px 12px;
  resize: vertical;
`

const DateInput = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

const Hint = styled.span`
  font-size: 13px;
  color: var(--color-text-muted);
`

/** yyyy-mm-dd of a time, in UTC (the date input's format). */
const isoDate = (at: number) => new Date(at).toISOString().slice(0, 10)

export interface MoveRequest {
  note: string
  /** Epoch ms, end of the chosen day (UTC). */
  expiresAt?: number
  /**
   * The same on every submit while the dialog is open (call-until-known.ts): a move whose answer
   * did not come is sent again under it, and made once.
   */
  requestId: string
}

/** While the move is sent: `checking` says its outcome is not known yet and it is being checked. */
export interface MoveProgress {
  checking(): void
}

export function MoveDialog({
  open,
  onOpenChange,
  action,
  title,
  description,
  noteLabel = 'Note',
  onSubmit,
}: {
  open: boolean
  onOpenChange(open: boolean): void
  action: FindingAction
  title: string
  description: string
  noteLabel?: string
  /** Makes the move; a thrown error's message is shown in the dialog. */
  onSubmit(request: MoveRequest, progress: MoveProgress): Promise<void>
}) {
  const noteId = useId()
  const dateId = useId()
  const [note, setNote] = useState('')
  const [expiry, setExpiry] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [checking, setChecking] = useState(false)
  const [requestId] = useState(newRequestId)
  const needsNote = ACTIONS_NEEDING_A_NOTE.includes(action)
  const needsExpiry = action === 'request_acceptance'
  const [today] = useState(() => Date.now())

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (needsNote && note.trim() === '') return setError('Write a note: this step needs one.')
    let expiresAt: number | undefined
    if (needsExpiry) {
      const day = acceptanceEndOfDay(expiry)
      if (!expiry || Number.isNaN(day)) return setError('Choose when the acceptance ends.')
      expiresAt = day
    }
    setBusy(true)
    setError(null)
    try {
      await onSubmit({ note: note.trim(), expiresAt, requestId }, { checking: () => setChecking(true) })
      setNote('')
      setExpiry('')
      onOpenChange(false)
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught))
    } finally {
      setBusy(false)
      setChecking(false)
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)} title={title} description={description} dismissible={!busy}>
      <Form onSubmit={submit} noValidate>
        <Field>
          <Label htmlFor={noteId}>
            {noteLabel}
            {needsNote ? '' : ' (optional)'}
          </Label>
          <TextArea id={noteId} value={note} onChange={(e) => setNote(e.target.value)} required={needsNote} maxLength={4000} />
        </Field>
        {needsExpiry && (
          <Field>
            <Label htmlFor={dateId}>Acceptance ends on</Label>
            <DateInput
              id={dateId}
              type="date"
              value={expiry}
              min={isoDate(today + DAY_MS)}
              max={isoDate(today + MAX_ACCEPTANCE_DAYS * DAY_MS)}
              onChange={(e) => setExpiry(e.target.value)}
              required
            />
            <Hint>At most {MAX_ACCEPTANCE_DAYS} days from today; the finding reopens by itself on that day.</Hint>
          </Field>
        )}
        {checking && <OutcomeMessage tone="warning">{writeCheckMessages.checking}</OutcomeMessage>}
        {error && <FormMessage $tone="error">{error}</FormMessage>}
        <DialogActions>
          <Button type="button" $variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? (checking ? 'Checking…' : 'Working…') : title}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  )
}
