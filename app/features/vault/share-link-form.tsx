import { useId, useState, type FormEvent } from 'react'
import styled from 'styled-components'
import { VAULT_FILE_LIMITS, VAULT_LIMITS } from '#domain/vault.ts'
import type { Workspace } from '~/core/workspace'
import { Button } from '~/ui/button'
import { surface } from '~/ui/surface'
import { Field, fieldControl, FormMessage, Label, Select, SelectOptions } from '~/ui/text-field'
import { CopyButton } from './copy-button'
import { filesProblem, totalSize } from './vault-files-client'

const Form = styled.form`
  ${surface}
  max-width: 720px;
  padding: 20px 24px;
  margin-bottom: 24px;
  display: grid;
  gap: 16px;

  h2 {
    margin: 0;
    font-size: 17px;
  }
`

const Row = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: 16px;
`

const Area = styled.textarea`
  ${fieldControl}
  min-height: 140px;
  padding: 10px 12px;
  font-family: var(--font-mono, monospace);
  resize: vertical;
`

const Input = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

const Hint = styled.p`
  margin: 0;
  font-size: 13px;
  color: var(--color-text-muted);
`

const Result = styled.div`
  display: flex;
  gap: 8px;
  input {
    flex: 1;
  }
`

const HOUR = 3600_000
const EXPIRIES = [
  { value: String(HOUR), label: '1 hour' },
  { value: String(24 * HOUR), label: '1 day' },
  { value: String(3 * 24 * HOUR), label: '3 days' },
  { value: String(7 * 24 * HOUR), label: '7 days' },
  { value: String(30 * 24 * HOUR), label: '30 days' },
]

const bytes = (text: string) => new TextEncoder().encode(text).length

/** The analyst types a secret and its terms; the browser seals it and gives the link to copy. */
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
  const size = bytes(text)
  const tooLong = size > VAULT_LIMITS.textBytes
  const totalFiles = totalSize(files)
  const problem = filesProblem(files)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (tooLong || problem || (text.trim() === '' && files.length === 0) || company === '') return
    setBusy(true)
    setError(null)
    try {
      const { shareSecret } = await import('./share-link-seal')
      const made = await shareSecret(
        { text, label, company, expiresInMs: Number(expiry), maxViews: Number(views), passphrase, recipient, files },
        window.location.origin,
        setProgress,
      )
      setUrl(made.url)
      setText('')
      setPassphrase('')
      setFiles([])
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The link could not be created: try again.')
    } finally {
      setBusy(false)
      setProgress(null)
    }
  }

  if (url) {
    return (
      <Form as="section" aria-labelledby="share-made">
        <h2 id="share-made">Your link is ready</h2>
        <Hint>Copy it now: it holds the key, which we never see, so it cannot be shown again. Send any passphrase another way.</Hint>
        <Result>
          <Input readOnly value={url} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={url} label="Copy link" />
        </Result>
        <div>
          <Button type="button" $variant="secondary" onClick={() => setUrl(null)}>
            Share another secret
          </Button>
        </div>
      </Form>
    )
  }

  return (
    <Form onSubmit={submit} aria-labelledby="share-title">
      <h2 id="share-title">Share a secret</h2>
      <Field>
        <Label htmlFor={ids.secret}>Secret</Label>
        <Area
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
      <div>
        <Button type="submit" disabled={busy || tooLong || problem !== null || workspace.companies.length === 0}>
          {busy ? (progress === null ? 'Encrypting…' : `Uploading ${Math.round(progress * 100)}%…`) : 'Create link'}
        </Button>
      </div>
    </Form>
  )
}
