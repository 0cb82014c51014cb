// The company's DAST keys for its CI pipelines: make one (shown once, then only its first and last
// characters), see each key's targets, expiry and last use, and revoke it.
import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import styled from 'styled-components'
import type { Company } from '#domain/companies.ts'
import { CreateDastKeyRequestSchema, DAST_KEY_LIMITS, dastKeyMessages, type DastKey } from '#domain/dast-keys.ts'
import { targetInScope } from '#domain/scan-scope.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { Field, fieldControl, Label, TextField } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { Muted, OrgSection } from '../org/org-section'
import { Breaking, CreateTokenEnd, errorText, ExpiryField, IssuedTokenDialog, TokenList } from '../org/token-parts'

const Form = styled.form`
  display: grid;
  gap: 12px;
  max-width: 640px;
`

const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 96px;
  padding: 10px 12px;
  font-family: var(--font-mono, monospace);
`

const Check = styled.label`
  display: flex;
  gap: 8px;
  align-items: flex-start;
`

export function DastKeysPage({ workspace }: { workspace: Workspace }) {
  const company = workspace.company
  if (!company) return <Muted>Choose a company first.</Muted>
  return (
    <>
      <CreateKey company={company} />
      <KeysList company={company} />
    </>
  )
}

function CreateKey({ company }: { company: Company }) {
  const hydrated = useHydrated()
  const scope = useLiveData(() => import('../org/org-live').then((live) => live.watchScanScope(company.slug)), [company.slug])
  const [name, setName] = useState('')
  const [days, setDays] = useState('90')
  const [targets, setTargets] = useState('')
  const [publishAtOnce, setPublishAtOnce] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [issued, setIssued] = useState<{ name: string; token: string } | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = v.safeParse(CreateDastKeyRequestSchema, {
      company: company.slug,
      name,
      expiresInDays: days.trim() === '' ? undefined : Number(days),
      allowedTargets: targets
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      publishAtOnce,
    })
    if (!parsed.success) return setError(parsed.issues[0].message)
    const outside = scope.status === 'ready' ? parsed.output.allowedTargets.find((target) => !targetInScope(scope.data, target)) : undefined
    if (outside !== undefined) return setError(dastKeyMessages.outOfScope(outside))
    setBusy(true)
    setError(null)
    try {
      const { token } = await callLazily('createDastKey', parsed.output)
      setIssued({ name: parsed.output.name, token })
      setName('')
      setTargets('')
      setPublishAtOnce(false)
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <OrgSection aria-labelledby="new-key-title">
      <h2 id="new-key-title">New DAST key for {company.companyName}</h2>
      <p>A pipeline presents the key to start a DAST scan of the targets it names. You see the key once, when it is made.</p>
      <Form onSubmit={submit} aria-label="New DAST key" noValidate>
        <TextField
          label="Name"
          value={name}
          disabled={!hydrated}
          maxLength={DAST_KEY_LIMITS.name}
          onChange={(e) => setName(e.target.value)}
        />
        <ExpiryField days={days} onChange={setDays} max={DAST_KEY_LIMITS.maxExpiryDays} hydrated={hydrated} />
        <Field>
          <Label htmlFor="key-targets">Targets, one per line</Label>
          <TextArea
            id="key-targets"
            value={targets}
            disabled={!hydrated}
            placeholder={'app.acme.example\nhttps://staging.acme.example/api/'}
            onChange={(e) => setTargets(e.target.value)}
          />
          <Muted>
            Host names, IP addresses or ranges, or http(s) URLs, each within the company's scan scope
            {scope.status === 'ready' && scope.data.length > 0 ? `: ${scope.data.map((entry) => entry.value).join(', ')}` : '.'}
          </Muted>
        </Field>
        <Check>
          <input type="checkbox" checked={publishAtOnce} disabled={!hydrated} onChange={(e) => setPublishAtOnce(e.target.checked)} />
          <span>
            Publish this key's scans to the reports as soon as they end
            <Muted> (otherwise an analyst reviews each scan before you see it)</Muted>
          </span>
        </Check>
        <CreateTokenEnd error={error} busy={busy} hydrated={hydrated} label="Create key" />
      </Form>
      <IssuedTokenDialog issued={issued} what="DAST key" noun="key" storeWhere="your pipeline's secrets" onDone={() => setIssued(null)} />
    </OrgSection>
  )
}

function KeysList({ company }: { company: Company }) {
  const keys = useLiveData(() => import('../org/org-live').then((live) => live.watchDastKeys(company.slug)), [company.slug])
  return (
    <TokenList<DastKey>
      heading="Keys"
      label="DAST keys"
      noun="key"
      users="Pipelines"
      tokens={keys}
      hintHeader="Key"
      own={[
        {
          id: 'targets',
          header: 'Targets',
          accessorFn: (k) => k.allowedTargets.join(', '),
          cell: ({ getValue }) => <Breaking>{String(getValue())}</Breaking>,
        },
        { id: 'publish', header: 'Scans published', accessorFn: (k) => (k.publishAtOnce ? 'At once' : 'After review') },
      ]}
      revoke={async (key) => {
        await callLazily('revokeDastKey', { id: key.id })
      }}
    />
  )
}
