import { useState, type FormEvent } from 'react'
import styled from 'styled-components'
import { EMAIL_PATTERN, INVALID_EMAIL } from '#domain/sign-in.ts'
import { Button } from '~/ui/button'
import { OutcomeMessage, type OutcomeTone } from '~/ui/outcome-message'
import { TextField } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 14px;
`

export interface FormOutcome {
  tone: OutcomeTone
  text: string
  /** The next step, under the message: who to ask, what to try. */
  next?: string
}

/**
 * The one email field and "Login with Link" button of both sign-in forms. `onSubmit` receives a
 * valid address and resolves with what to show below the button.
 */
export function EmailLinkForm({ onSubmit, autoFocus }: { onSubmit: (email: string) => Promise<FormOutcome>; autoFocus?: boolean }) {
  const [loading, setLoading] = useState(false)
  const [outcome, setOutcome] = useState<FormOutcome | null>(null)
  // Until the page runs, a native submit would put the address in the URL: wait for it.
  const hydrated = useHydrated()

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // Read from the field itself: what was typed before the page finished loading counts too.
    const value = String(new FormData(event.currentTarget).get('email') ?? '').trim()
    // A new request starts clean: the last answer is no answer to this one.
    setOutcome(null)
    if (!EMAIL_PATTERN.test(value)) {
      setOutcome({ tone: 'error', text: INVALID_EMAIL })
      return
    }
    setLoading(true)
    try {
      setOutcome(await onSubmit(value))
    } finally {
      setLoading(false)
    }
  }

  return (
    <Form onSubmit={submit} noValidate>
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="hello@example.com"
        required
        autoFocus={autoFocus}
        aria-invalid={outcome?.text === INVALID_EMAIL}
      />
      <Button type="submit" disabled={loading || !hydrated} aria-busy={loading}>
        {loading ? 'Sending…' : 'Login with Link'}
      </Button>
      {outcome && (
        <OutcomeMessage tone={outcome.tone} next={outcome.next}>
          {outcome.text}
        </OutcomeMessage>
      )}
    </Form>
  )
}
