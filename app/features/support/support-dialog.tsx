import { useId, useState, type FormEvent } from 'react'
import styled from 'styled-components'
import { callLazily } from '~/core/call-lazily'
import { cluster } from '~/ui/layout'
import {
  SUPPORT_MESSAGE_MAX_LENGTH,
  SUPPORT_REQUEST_TYPES,
  supportRequestTypeLabels,
  type SignedOutSupportRequest,
  type SupportRequest,
  type SupportRequestType,
  type SupportResponse,
} from '#domain/support.ts'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { notify } from '~/ui/notifications/notifications'
import { Field, fieldControl, Label, TextField } from '~/ui/text-field'
import { INVALID_EMAIL } from '#domain/sign-in.ts'
import { submitSupport } from './support-submit'

export interface SupportDraft {
  message: string
  request_type: SupportRequestType
  /** Signed out only: where to answer. */
  email?: string
}

export const EMPTY_SUPPORT_DRAFT: SupportDraft = { message: '', request_type: 'question' }

type Send = (request: SupportRequest | SignedOutSupportRequest) => Promise<SupportResponse>

// The Firebase SDK loads only when someone actually sends a message.
const sendLazily: Send = (request) =>
  'email' in request ? callLazily('handleSignedOutSupportEmail', request) : callLazily('handleSupportEmail', request)

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 16px;
`

const Fieldset = styled.fieldset`
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
`

const Legend = styled.legend`
  padding: 0;
  margin-bottom: 6px;
  font-weight: 600;
  font-size: 14px;
`

const Choices = styled.div`
  ${cluster('8px')}
`

// A native radio inside its label: arrow keys move between the choices, as in any radio group.
const Choice = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  padding: 6px 12px;
  border-radius: 8px;
  border: 1px solid var(--color-border);
  background: var(--color-surface);
  font-size: 14px;
  cursor: pointer;

  &:has(input:checked) {
    border-color: var(--color-primary);
    background: var(--color-primary-soft);
  }
  &:has(input:focus-visible) {
    outline: 2px solid var(--color-focus);
    outline-offset: 2px;
  }
  input {
    margin: 0;
    accent-color: var(--color-primary);
  }
`

const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 140px;
  padding: 10px 12px;
  resize: vertical;
`

const FieldFoot = styled.div`
  display: flex;
  justify-content: space-between;
  gap: 12px;
  font-size: 13px;
`

const FieldError = styled.p`
  margin: 0;
  color: var(--color-danger);
`

const Count = styled.span<{ $over: boolean }>`
  margin-left: auto;
  color: ${({ $over }) => ($over ? 'var(--color-danger)' : 'var(--color-text-muted)')};
  font-variant-numeric: tabular-nums;
`

/**
 * The fields and buttons of the support dialog. The draft lives with the caller, so that it
 * survives closing the dialog and a failed send.
 */
export function SupportForm({
  draft,
  onDraftChange,
  sending,
  onSendingChange,
  onSent,
  onCancel,
  send = sendLazily,
}: {
  draft: SupportDraft
  onDraftChange(draft: SupportDraft): void
  sending: boolean
  onSendingChange(sending: boolean): void
  onSent(): void
  onCancel(): void
  send?: Send
}) {
  const [error, setError] = useState<string | null>(null)
  const [emailError, setEmailError] = useState<string | null>(null)
  const id = useId()
  const messageId = `${id}-message`
  const errorId = `${id}-error`
  const countId = `${id}-count`
  const length = draft.message.length

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (sending) return
    setError(null)
    setEmailError(null)
    onSendingChange(true)
    let outcome
    try {
      outcome = await submitSupport(draft, send)
    } finally {
      onSendingChange(false)
    }
    if (outcome.kind === 'invalid') {
      if (draft.email !== undefined && outcome.error === INVALID_EMAIL) setEmailError(outcome.error)
      else setError(outcome.error)
    } else if (outcome.kind === 'sent') {
      notify({ tone: 'success', title: outcome.notice })
      onSent()
    } else {
      notify({ tone: 'error', title: outcome.notice })
    }
  }

  return (
    <Form onSubmit={submit} noValidate>
      <Fieldset disabled={sending}>
        <Legend>Request type</Legend>
        <Choices>
          {SUPPORT_REQUEST_TYPES.map((type) => (
            <Choice key={type}>
              <input
                type="radio"
                name={`${id}-type`}
                value={type}
                checked={draft.request_type === type}
                onChange={() => onDraftChange({ ...draft, request_type: type })}
              />
              {supportRequestTypeLabels[type]}
            </Choice>
          ))}
        </Choices>
      </Fieldset>
      {draft.email !== undefined && (
        <Field>
          <TextField
            label="Your email"
            type="email"
            name="email"
            autoComplete="email"
            placeholder="hello@example.com"
            value={draft.email}
            readOnly={sending}
            required
            aria-invalid={emailError !== null}
            onChange={(event) => {
              setEmailError(null)
              onDraftChange({ ...draft, email: event.target.value })
            }}
          />
          {emailError && <FieldError role="alert">{emailError}</FieldError>}
        </Field>
      )}
      <Field>
        <Label htmlFor={messageId}>Message</Label>
        <TextArea
          id={messageId}
          name="message"
          value={draft.message}
          readOnly={sending}
          required
          aria-invalid={error !== null}
          aria-describedby={error ? `${errorId} ${countId}` : countId}
          onChange={(event) => {
            setError(null)
            onDraftChange({ ...draft, message: event.target.value })
          }}
        />
        <FieldFoot>
          {error && (
            <FieldError id={errorId} role="alert">
              {error}
            </FieldError>
          )}
          <Count id={countId} $over={length > SUPPORT_MESSAGE_MAX_LENGTH}>
            {length} / {SUPPORT_MESSAGE_MAX_LENGTH} characters
          </Count>
        </FieldFoot>
      </Field>
      <DialogActions>
        <Button type="button" $variant="secondary" disabled={sending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={sending} aria-busy={sending}>
          {sending ? 'Sending…' : 'Send'}
        </Button>
      </DialogActions>
    </Form>
  )
}

/**
 * Writing to support: a request type and a message, sent with handleSupportEmail; signed out, also
 * the address to answer (handleSignedOutSupportEmail), for those who cannot sign in.
 */
export function SupportDialog({
  open,
  onOpenChange,
  signedIn = true,
  startWith,
}: {
  open: boolean
  onOpenChange(open: boolean): void
  signedIn?: boolean
  /** The message the dialog starts with (an access request, say), instead of an empty one. */
  startWith?: SupportDraft
}) {
  const empty = startWith ?? (signedIn ? EMPTY_SUPPORT_DRAFT : { ...EMPTY_SUPPORT_DRAFT, email: '' })
  const [draft, setDraft] = useState<SupportDraft>(empty)
  const [sending, setSending] = useState(false)
  // Stays open while a message is on its way: closing would hide how it went.
  const changeOpen = (next: boolean) => {
    if (!sending) onOpenChange(next)
  }
  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      title="Contact support"
      description="Ask a question, report a bug or suggest a feature. We answer by email."
      dismissible={!sending}
    >
      <SupportForm
        draft={draft}
        onDraftChange={setDraft}
        sending={sending}
        onSendingChange={setSending}
        onSent={() => {
          setDraft(empty)
          onOpenChange(false)
        }}
        onCancel={() => changeOpen(false)}
      />
    </Dialog>
  )
}
