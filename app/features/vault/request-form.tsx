import { useId, useState, type FormEvent } from 'react'
import type { Workspace } from '~/core/workspace'
import { Button } from '~/ui/button'
import { Field, FormMessage, Label, Select, SelectOptions } from '~/ui/text-field'
import { CopyButton } from './copy-button'
import { NewPassphraseInput } from './new-passphrase-input'
import { Check, EXPIRIES, HOUR, Hint, Inline, Input, Panel, Row, TextArea } from './vault-styles'

/** The analyst says what they need; the browser makes the request's keys and gives the link for the client. */
export function RequestForm({ workspace }: { workspace: Workspace }) {
  const ids = { label: useId(), company: useId(), expiry: useId(), passphrase: useId(), team: useId() }
  const [label, setLabel] = useState('')
  const [company, setCompany] = useState(workspace.company?.slug ?? workspace.companies[0]?.slug ?? '')
  const [expiry, setExpiry] = useState(String(7 * 24 * HOUR))
  const [passphrase, setPassphrase] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [team, setTeam] = useState(false)
  const [made, setMade] = useState<{ url: string; sharedWith: string[] | null } | null>(null)
  const companyName = workspace.companies.find((c) => c.slug === company)?.companyName ?? company

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const { askForSecret } = await import('./request-seal')
      const asked = await askForSecret(
        { label, company, expiresInMs: Number(expiry), vaultPassphrase: passphrase, team },
        window.location.origin,
      )
      setMade({ url: asked.url, sharedWith: asked.sharedWith })
      setLabel('')
      setTeam(false)
      setPassphrase('')
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The request could not be created: try again.')
    } finally {
      setBusy(false)
    }
  }

  if (made) {
    return (
      <Panel aria-labelledby="request-made">
        <h2 id="request-made">Your request link is ready</h2>
        <Hint>
          {made.sharedWith === null
            ? 'Send it to the client. What they send is encrypted in their browser for you alone: open it here with your vault passphrase.'
            : 'Send it to the client. What they send is encrypted in their browser for you and the colleagues below: each opens it with their own vault passphrase.'}
        </Hint>
        {made.sharedWith !== null && (
          <Hint role="status">
            {made.sharedWith.length > 0
              ? `Shared with ${made.sharedWith.join(', ')}.`
              : 'No other analyst of the engagement has set up a vault key yet, so only you can open it.'}
          </Hint>
        )}
        <Inline>
          <Input readOnly value={made.url} aria-label="Request link" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={made.url} label="Copy link" />
        </Inline>
        <div>
          <Button type="button" $variant="secondary" onClick={() => setMade(null)}>
            Ask for another secret
          </Button>
        </div>
      </Panel>
    )
  }

  return (
    <Panel as="form" onSubmit={submit} aria-labelledby="request-title">
      <h2 id="request-title">Ask for a secret</h2>
      <Field>
        <Label htmlFor={ids.label}>What you need (not encrypted)</Label>
        <TextArea
          id={ids.label}
          value={label}
          maxLength={500}
          required
          onChange={(e) => setLabel(e.target.value)}
          placeholder="VPN credentials for the network test"
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
          <Label htmlFor={ids.expiry}>Link valid for</Label>
          <Select id={ids.expiry} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            <SelectOptions options={EXPIRIES} />
          </Select>
        </Field>
      </Row>
      <Field>
        <Label htmlFor={ids.passphrase}>Vault passphrase</Label>
        <NewPassphraseInput id={ids.passphrase} value={passphrase} onChange={setPassphrase} />
        <Hint>At least 8 characters. You need it to open the answer, on any device; nobody can recover it for you.</Hint>
      </Field>
      <Field>
        <Check htmlFor={ids.team}>
          <input id={ids.team} type="checkbox" checked={team} onChange={(e) => setTeam(e.target.checked)} />
          The analysts of {companyName}’s engagement can open it too
        </Check>
        <Hint>Each of them opens it with their own vault passphrase; those who have not set up a vault key cannot.</Hint>
      </Field>
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      <div>
        <Button type="submit" disabled={busy || workspace.companies.length === 0}>
          {busy ? 'Creating…' : 'Create request link'}
        </Button>
      </div>
    </Panel>
  )
}
