import { useEffect, useId, useState, type FormEvent } from 'react'
import { dropKey, formatWhenFull } from './link-time'
import styled from 'styled-components'
import { LINK_ID_PATTERN, LINK_KEY_PATTERN, type VaultPayload } from '#domain/vault-crypto.ts'
import { refusalMessage, type ClaimRefusal, type VaultLinkInfo } from '#domain/vault.ts'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage, Label } from '~/ui/text-field'
import { CopyButton } from './copy-button'
import type { OpenedFile } from './vault-files-client'
import { Input, LinkCard, Muted, TextArea } from './vault-styles'

const Secret = styled(TextArea)`
  min-height: 160px;
`

type Ready = Extract<VaultLinkInfo, { status: 'ready' }>

type View =
  | { step: 'reading' }
  | { step: 'broken' }
  /** The lookup failed (no answer, the service unreachable): nothing is known of the link yet. */
  | { step: 'unchecked' }
  | { step: 'closed'; info: Exclude<VaultLinkInfo, Ready> }
  | { step: 'ready'; info: Ready; error: string | null; busy: boolean }
  | { step: 'refused'; reason: ClaimRefusal; sender: string | null; triesLeft: number | null }
  | { step: 'revealed'; info: Ready; payload: VaultPayload; files: OpenedFile[]; viewsLeft: number }

/**
 * A share link as its recipient opens it: what it is and who sent it, then a Reveal button. Only
 * the click spends a view, so link previews and mail scanners, which do not click, spend nothing.
 */
export function RevealShare({ id }: { id: string }) {
  const [view, setView] = useState<View>({ step: 'reading' })
  // Each retry of a lookup that failed asks again.
  const [attempt, setAttempt] = useState(0)
  const [key, setKey] = useState('')
  const [passphrase, setPassphrase] = useState('')
  const passphraseId = useId()

  useEffect(() => {
    const fragment = window.location.hash.slice(1)
    if (!LINK_ID_PATTERN.test(id) || !LINK_KEY_PATTERN.test(fragment)) {
      setView({ step: 'broken' })
      return
    }
    setKey(fragment)
    let live = true
    void import('./share-open')
      .then((open) => open.lookAtLink(id, fragment))
      .then(
        (info) => {
          if (!live) return
          if (info.status === 'ready') setView({ step: 'ready', info, error: null, busy: false })
          else {
            dropKey()
            setView({ step: 'closed', info })
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

  async function reveal(event: FormEvent) {
    event.preventDefault()
    if (view.step !== 'ready') return
    const info = view.info
    setView({ ...view, busy: true, error: null })
    try {
      const open = await import('./share-open')
      const result = await open.revealLink(id, key, info, passphrase)
      if (result.outcome === 'opened') {
        dropKey()
        setKey('')
        setView({ step: 'revealed', info, payload: result.payload, files: result.files, viewsLeft: result.viewsLeft })
      } else if (
        (result.reason === 'wrong-passphrase' && (result.triesLeft ?? 0) > 0) ||
        result.reason === 'sign-in' ||
        result.reason === 'wrong-recipient'
      ) {
        // Nothing was spent: the link stays usable, with its key, for another try.
        setView({ step: 'ready', info, busy: false, error: refusalMessage(result.reason, info.senderName, result.triesLeft) })
      } else {
        dropKey()
        setView({ step: 'refused', reason: result.reason, sender: info.senderName, triesLeft: result.triesLeft })
      }
    } catch (failure) {
      setView({ step: 'ready', info, busy: false, error: failure instanceof Error ? failure.message : 'The secret could not be opened.' })
    }
  }

  switch (view.step) {
    case 'reading':
      return (
        <LinkCard aria-busy="true">
          <h1>Shared secret</h1>
          <LiveStatus live={{ status: 'loading', retry: lookAgain }} what="the link" action="check" />
        </LinkCard>
      )
    case 'unchecked':
      return (
        <LinkCard>
          <h1>Shared secret</h1>
          <LiveStatus live={{ status: 'failed', retry: lookAgain }} what="the link" action="check" />
        </LinkCard>
      )
    case 'broken':
      return (
        <LinkCard>
          <h1>This link is not complete</h1>
          <Muted>{refusalMessage('not-found', null)} If you copied it, make sure you copied all of it.</Muted>
        </LinkCard>
      )
    case 'closed':
      return (
        <LinkCard>
          <h1>This secret is not available</h1>
          <p role="alert">{refusalMessage(view.info.status, 'senderName' in view.info ? view.info.senderName : null)}</p>
        </LinkCard>
      )
    case 'refused':
      return (
        <LinkCard>
          <h1>This secret is not available</h1>
          <p role="alert">{refusalMessage(view.reason, view.sender, view.triesLeft)}</p>
        </LinkCard>
      )
    case 'ready':
      return (
        <LinkCard as="form" onSubmit={reveal} aria-labelledby="reveal-title">
          <h1 id="reveal-title">{view.info.label || 'A secret was shared with you'}</h1>
          <p>
            Sent by <strong>{view.info.senderName}</strong> for {view.info.companyName}.
          </p>
          <Muted>
            Expires {formatWhenFull(view.info.expiresAt)}.{' '}
            {view.info.viewsLeft === 1 ? 'It can be opened once.' : `It can be opened ${view.info.viewsLeft} more times.`}
          </Muted>
          {view.info.recipient && <Muted>Only {view.info.recipient}, signed in, can open it.</Muted>}
          {view.info.files > 0 && <Muted>{view.info.files === 1 ? 'It holds a file.' : `It holds ${view.info.files} files.`}</Muted>}
          {view.info.kdf && (
            <>
              <Label htmlFor={passphraseId}>Passphrase</Label>
              <Input
                id={passphraseId}
                type="password"
                autoComplete="off"
                value={passphrase}
                onChange={(e) => setPassphrase(e.target.value)}
                required
              />
            </>
          )}
          {view.error && <FormMessage $tone="error">{view.error}</FormMessage>}
          <div>
            <Button type="submit" disabled={view.busy}>
              {view.busy ? 'Opening…' : 'Reveal'}
            </Button>
          </div>
          <Muted>Revealing counts as opening it. The secret is decrypted in this browser.</Muted>
        </LinkCard>
      )
    case 'revealed':
      return (
        <LinkCard aria-labelledby="revealed-title">
          <h1 id="revealed-title">{view.info.label || 'Your secret'}</h1>
          {view.payload.text !== '' && (
            <>
              <Secret readOnly value={view.payload.text} aria-label="Secret" spellCheck={false} />
              <div>
                <CopyButton text={view.payload.text} label="Copy secret" />
              </div>
            </>
          )}
          {view.files.length > 0 && <FileLinks files={view.files} />}
          <Muted>
            {view.viewsLeft === 0
              ? 'This link is now used: copy the secret before you leave this page.'
              : `This link can be opened ${view.viewsLeft} more ${view.viewsLeft === 1 ? 'time' : 'times'}.`}
          </Muted>
        </LinkCard>
      )
  }
}

const Files = styled.ul`
  margin: 0;
  padding-left: 20px;
`

/** Download links of the opened files; names are shown as text and were sanitised when opened. */
export function FileLinks({ files }: { files: OpenedFile[] }) {
  const [urls, setUrls] = useState<string[]>([])
  useEffect(() => {
    const made = files.map((file) => URL.createObjectURL(file.blob))
    setUrls(made)
    return () => made.forEach((url) => URL.revokeObjectURL(url))
  }, [files])
  return (
    <Files aria-label="Files">
      {files.map((file, i) => (
        <li key={i}>
          {urls[i] ? (
            <a href={urls[i]} download={file.name}>
              {file.name}
            </a>
          ) : (
            file.name
          )}{' '}
          ({(file.size / 1024 / 1024).toFixed(1)} MB)
        </li>
      ))}
    </Files>
  )
}
