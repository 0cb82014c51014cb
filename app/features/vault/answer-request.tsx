import { useEffect, useId, useState, type FormEvent } from 'react'
import { dropKey, formatWhenFull } from './link-time'
import { LINK_ID_PATTERN } from '#domain/vault-crypto.ts'
import { REQUEST_FRAGMENT_PATTERN } from '#domain/vault-request-crypto.ts'
import { requestRefusalMessage, type RequestFacts } from '#domain/vault-requests.ts'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage, Label } from '~/ui/text-field'
import { VAULT_FILE_LIMITS } from '#domain/vault.ts'
import { filesProblem, totalSize } from './vault-files-client'
import { Input, LinkCard, Muted, TextArea } from './vault-styles'

type Open = RequestFacts

type View =
  | { step: 'reading' }
  | { step: 'broken' }
  /** The lookup failed (no answer, the service unreachable): nothing is known of the link yet. */
  | { step: 'unchecked' }
  | { step: 'closed'; reason: 'not-found' | 'answered' | 'expired' | 'revoked'; sender: string | null }
  | { step: 'open'; info: Open; busy: boolean; error: string | null }
  | { step: 'sent'; info: Open }

/** A request link as the client opens it: who asks and what; the answer is sealed in this browser for the analyst alone. */
export function AnswerRequest({ id }: { id: string }) {
  const [view, setView] = useState<View>({ step: 'reading' })
  // Each retry of a lookup that failed asks again.
  const [attempt, setAttempt] = useState(0)
  const [fragment, setFragment] = useState('')
  const [text, setText] = useState('')
  const [files, setFiles] = useState<File[]>([])
  const [sent, setSent] = useState<number | null>(null)
  const answerId = useId()
  const filesId = useId()
  const problem = filesProblem(files)

  useEffect(() => {
    const hash = window.location.hash.slice(1)
    if (!LINK_ID_PATTERN.test(id) || !REQUEST_FRAGMENT_PATTERN.test(hash)) {
      setView({ step: 'broken' })
      return
    }
    setFragment(hash)
    let live = true
    void import('./answer-open')
      .then((open) => open.lookAtRequest(id, hash))
      .then(
        (info) => {
          if (!live) return
          if (info.status === 'open') setView({ step: 'open', info, busy: false, error: null })
          else {
            dropKey()
            setView({ step: 'closed', reason: info.status, sender: info.status === 'not-found' ? null : info.senderName })
          }
        },
        // Only the server's answer says a link does not exist: a lookup that failed says nothing of it.
        () => live && setView({ step: 'unchecked' }),
      )
    return () => {
      live = false
    }
  }, [id, attempt])

  const lookAgain = () => {
    setView({ step: 'reading' })
    setAttempt((n) => n + 1)
  }

  async function send(event: FormEvent) {
    event.preventDefault()
    if (view.step !== 'open' || problem || (text.trim() === '' && files.length === 0)) return
    const info = view.info
    setView({ ...view, busy: true, error: null })
    try {
      const result = await (
        await import('./answer-open')
      ).answerRequest(id, fragment, info, text, files, (share) => setSent(Math.round(share * 100)))
      dropKey()
      setText('')
      setFiles([])
      setSent(null)
      if (result.outcome === 'stored') setView({ step: 'sent', info })
      else setView({ step: 'closed', reason: result.reason, sender: info.senderName })
    } catch (failure) {
      setSent(null)
      setView({ step: 'open', info, busy: false, error: failure instanceof Error ? failure.message : 'It could not be sent: try again.' })
    }
  }

  switch (view.step) {
    case 'reading':
      return (
        <LinkCard aria-busy="true">
          <h1>Secret request</h1>
          <LiveStatus live={{ status: 'loading', retry: lookAgain }} what="the link" action="check" />
        </LinkCard>
      )
    case 'unchecked':
      return (
        <LinkCard>
          <h1>Secret request</h1>
          <LiveStatus live={{ status: 'failed', retry: lookAgain }} what="the link" action="check" />
        </LinkCard>
      )
    case 'broken':
      return (
        <LinkCard>
          <h1>This link is not complete</h1>
          <Muted>{requestRefusalMessage('not-found', null)} If you copied it, make sure you copied all of it.</Muted>
        </LinkCard>
      )
    case 'closed':
      return (
        <LinkCard>
          <h1>This request is closed</h1>
          <p role="alert">{requestRefusalMessage(view.reason, view.sender)}</p>
        </LinkCard>
      )
    case 'sent':
      return (
        <LinkCard>
          <h1>Sent</h1>
          <p role="status">Your answer was encrypted in this browser; only {view.info.senderName} can read it. You can close this page.</p>
        </LinkCard>
      )
    case 'open':
      return (
        <LinkCard as="form" onSubmit={send} aria-labelledby="answer-title">
          <h1 id="answer-title">{view.info.senderName} asks you for a secret</h1>
          <p>
            For <strong>{view.info.companyName}</strong>: {view.info.label}
          </p>
          <Muted>This link works until {formatWhenFull(view.info.expiresAt)} and takes one answer.</Muted>
          <Label htmlFor={answerId}>Your answer</Label>
          <TextArea
            id={answerId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            required={files.length === 0}
            spellCheck={false}
            autoComplete="off"
          />
          <Label htmlFor={filesId}>Files (optional)</Label>
          <Input
            id={filesId}
            type="file"
            multiple
            onChange={(e) => setFiles([...(e.currentTarget.files ?? [])])}
            aria-invalid={problem !== null}
            aria-describedby={`${filesId}-hint`}
          />
          <Muted id={`${filesId}-hint`}>
            Up to {VAULT_FILE_LIMITS.files} files, 25 MB in all, encrypted in this browser.{' '}
            {files.length > 0 && `${files.length} chosen, ${(totalSize(files) / 1024 / 1024).toFixed(1)} MB.`} {problem}
          </Muted>
          {sent !== null && <progress aria-label="Files sent" value={sent} max={100} />}
          {view.error && <FormMessage $tone="error">{view.error}</FormMessage>}
          <div>
            <Button type="submit" disabled={view.busy}>
              {view.busy ? 'Encrypting…' : 'Send securely'}
            </Button>
          </div>
          <Muted>It is encrypted in this browser before it is sent; we cannot read it.</Muted>
        </LinkCard>
      )
  }
}
