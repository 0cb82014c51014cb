import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { VAULT_FILE_LIMITS, VAULT_LIMITS } from '#domain/vault.ts'
import type { Workspace } from '~/core/workspace'
import { callUntilKnown, UncheckedWrite, writeCheckMessages } from '~/core/call-until-known'
import { Button } from '~/ui/button'
import { OutcomeMessage } from '~/ui/outcome-message'
import { Field, FormMessage, Label, Select, SelectOptions } from '~/ui/text-field'
import { CopyButton } from './copy-button'
import type { SealedLink } from './share-link-seal'
import { filesProblem, totalSize } from './vault-files-client'
import { EXPIRIES, HOUR, Hint, Inline, Input, Panel, Row, TextArea } from './vault-styles'

const bytes = (text: string) => new TextEncoder().encode(text).length

/**
 * The analyst types a secret and its terms; the browser seals it and gives the link to copy. A link
 * whose answer did not come is checked with the same request id (it may have been stored) until
 * it is known, so the key shown is always that of a stored link, and no link is stored twice.
 */
export function ShareLinkForm({ workspace }: { workspace: Workspace }) {
  const ids = {
    secret: useId(),
    label: useId(),
    company: useId(),
    expiry: useId(),
    views: useId(),
    passphrase: useId(),
    recipient: useId(),
    files: useId(),
  }
  const [text, setText] = useState('')
  const [label, setLabel] = useState('')
  const [company, setCompany] = useState(workspace.company?.slug ?? workspace.companies[0]?.slug ?? '')
  const [expiry, setExpiry] = useState(String(24 * HOUR))
  const [views, setViews] = useState('1')
  const [passphrase, setPassphrase] = useState('')
  const [recipient, setRecipient] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [url, setUrl] = useState<string | null>(null)
  const [files, setFiles] = useState<File[]>([])
  const [progress, setProgress] = useState<number | null>(null)
  // A link sent whose answer did not come: checking it, or kept to check again.
  const [checking, setChecking] = useState(false)
  const [unchecked, setUnchecked] = useState<SealedLink | null>(null)
  const gone = useRef(new AbortController())
  useEffect(() => {
    const page = new AbortController()
    gone.current = page
    return () => page.abort()
  }, [])
  const size = bytes(text)
  const tooLong = size > VAULT_LIMITS.textBytes
  const totalFiles = totalSize(files)
  const problem = filesProblem(files)

  /** Stores the sealed link, checking with the same request id while its outcome is not known. */
  async function store(sealed: SealedLink) {
    setBusy(true)
    setError(null)
    setUnchecked(null)
    try {
      const { storeLink } = await import('./share-link-seal')
      await callUntilKnown(() => storeLink(sealed), { onChecking: () => setChecking(true), signal: gone.current.signal })
      setUrl(sealed.url)
      setText('')
      setPassphrase('')
      setFiles([])
    } catch (failure) {
      if (gone.current.signal.aborted) return
      // Not known to be stored: the same link is kept, to check again, and its key with it.
      if (failure instanceof UncheckedWrite) setUnchecked(sealed)
      else setError(failure instanceof Error ? failure.message : 'The link could not be created: try again.')
    } finally {
      setBusy(false)
      setChecking(false)
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (tooLong || problem || (text.trim() === '' && files.length === 0) || company === '') return
    setBusy(true)
    setError(null)
    setUnchecked(null)
    let sealed: SealedLink
    try {
      const { sealSecret } = await import('./share-link-seal')
      sealed = await sealSecret(
        { text, label, company, expiresInMs: Number(expiry), maxViews: Number(views), passphrase, recipient, files },
        window.location.origin,
        setProgress,
      )
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The link could not be created: try again.')
      setBusy(false)
      return
    } finally {
      setProgress(null)
    }
    await store(sealed)
  }

  if (url) {
    return (
      <Panel aria-labelledby="share-made">
        <h2 id="share-made">Your link is ready</h2>
        <Hint>Copy it now: it holds the key, which we never see, so it cannot be shown again. Send any passphrase another way.</Hint>
        <Inline>
          <Input readOnly value={url} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={url} label="Copy link" />
        </Inline>
        <div>
          <Button type="button" $variant="secondary" onClick={() => setUrl(null)}>
            Share another secret
          </Button>
        </div>
      </Panel>
    )
  }

  return (
    <Panel as="form" onSubmit={submit} aria-labelledby="share-title">
      <h2 id="share-title">Share a secret</h2>
      <Field>
        <Label htmlFor={ids.secret}>Secret</Label>
        <TextArea
          id={ids.secret}
          value={text}
          onChange={(e) => setText(e.target.value)}
          required={files.length === 0}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={tooLong}
          aria-describedby={`${ids.secret}-hint`}
        />
        <Hint id={`${ids.secret}-hint`}>
          Encrypted in this browser before it is sent. {Math.ceil(size / 1024)} KB of {VAULT_LIMITS.textBytes / 1024} KB
          {tooLong && ': too long'}.
        </Hint>
      </Field>
      <Field>
        <Label htmlFor={ids.files}>Files (optional)</Label>
        <Input
          id={ids.files}
          type="file"
          multiple
          onChange={(e) => setFiles([...(e.currentTarget.files ?? [])])}
          aria-invalid={problem !== null}
          aria-describedby={`${ids.files}-hint`}
        />
        <Hint id={`${ids.files}-hint`}>
          Up to {VAULT_FILE_LIMITS.files} files, 25 MB in all, encrypted in this browser.{' '}
          {files.length > 0 && `${files.length} chosen, ${(totalFiles / 1024 / 1024).toFixed(1)} MB.`} {problem}
        </Hint>
      </Field>
      <Field>
        <Label htmlFor={ids.label}>What it is (optional, not encrypted)</Label>
        <Input
          id={ids.label}
          value={label}
          maxLength={VAULT_LIMITS.labelLength}
          onChange={(e) => setLabel(e.target.value)}
          placeholder="VPN account for the network test"
        />
      </Field>
      <Row>
        <Field>
          <Label htmlFor={ids.company}>Company</Label>
          <Select id={ids.company} value={company} onChange={(e) => setCompany(e.target.value)} required>
            <SelectOptions options={workspace.companies.map((c) => ({ value: c.slug, label: c.companyName }))} />
          </Select>
        </Field>
        <Field>
          <Label htmlFor={ids.expiry}>Expires after</Label>
          <Select id={ids.expiry} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            <SelectOptions options={EXPIRIES} />
          </Select>
        </Field>
        <Field>
          <Label htmlFor={ids.views}>Views</Label>
          <Input
            id={ids.views}
            type="number"
            min={1}
            max={VAULT_LIMITS.maxViews}
            value={views}
            onChange={(e) => setViews(e.target.value)}
            required
          />
        </Field>
      </Row>
      <Row>
        <Field>
          <Label htmlFor={ids.passphrase}>Passphrase (optional)</Label>
          <Input
            id={ids.passphrase}
            type="password"
            autoComplete="new-password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
          <Hint>Send it another way than the link. Five wrong tries revoke the link.</Hint>
        </Field>
        <Field>
          <Label htmlFor={ids.recipient}>Recipient email (optional)</Label>
          <Input id={ids.recipient} type="email" autoComplete="off" value={recipient} onChange={(e) => setRecipient(e.target.value)} />
          <Hint>Then only this address, signed in, can open it.</Hint>
        </Field>
      </Row>
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      {checking && <OutcomeMessage tone="warning">{writeCheckMessages.checking}</OutcomeMessage>}
      {unchecked && !busy && (
        <OutcomeMessage
          tone="warning"
          next={
            <Button type="button" $variant="secondary" onClick={() => void store(unchecked)}>
              Check again
            </Button>
          }
        >
          {writeCheckMessages.unchecked}
        </OutcomeMessage>
      )}
      <div>
        <Button type="submit" disabled={busy || tooLong || problem !== null || workspace.companies.length === 0}>
          {busy
            ? checking
              ? 'Checking…'
              : progress === null
                ? 'Encrypting…'
                : `Uploading ${Math.round(progress * 100)}%…`
            : 'Create link'}
        </Button>
      </div>
    </Panel>
  )
}
