// The company's DAST keys for its CI pipelines: make one (shown once, then only its first and last
// characters), see each key's targets, expiry and last use, and revoke it.
import { useState, type FormEvent } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { IconCopy } from '@tabler/icons-react'
import * as v from 'valibot'
import styled from 'styled-components'
import type { Company } from '#domain/companies.ts'
import {
  CreateDastKeyRequestSchema,
  DAST_KEY_LIMITS,
  dastKeyMessages,
  dastKeyStatus,
  dastKeyStatusLabels,
  expiryFrom,
  type DastKey,
} from '#domain/dast-keys.ts'
import { targetInScope } from '#domain/scan-scope.ts'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { LiveStatus } from '~/ui/live-status'
import { Field, fieldControl, FormMessage, Label, TextField } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { formatTime } from '~/ui/local-time'
import { Muted, OrgSection } from '../org/org-section'
import { DataTable } from '~/ui/data-table'

/** A key's time in the reader's locale and zone; a dash when there is none. */
const timeOf = (at: number | null) => (at === null ? '—' : formatTime(at))

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

const Secret = styled.input`
  ${fieldControl}
  width: 100%;
  min-height: 40px;
  padding: 0 12px;
  font-family: var(--font-mono, monospace);
  font-size: 13px;
`

const Check = styled.label`
  display: flex;
  gap: 8px;
  align-items: flex-start;
`

const Row = styled.div`
  display: flex;
  gap: 8px;
  margin-bottom: 16px;
`

/** A long token (a key's hint, a URL) breaks anywhere, so the table fits and its actions stay in view. */
const Breaking = styled.span`
  overflow-wrap: anywhere;
`

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong: try again.')

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
  const [copied, setCopied] = useState(false)

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
      const { call } = await import('~/core/call')
      const { token } = await call('createDastKey', parsed.output)
      setIssued({ name: parsed.output.name, token })
      setCopied(false)
      setName('')
      setTargets('')
      setPublishAtOnce(false)
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }

  const expiryDays = Number(days)
  const expiry =
    Number.isInteger(expiryDays) && expiryDays >= 1 && expiryDays <= DAST_KEY_LIMITS.maxExpiryDays
      ? expiryFrom(Date.now(), expiryDays)
      : null

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
        <TextField
          label={`Expires after (days, at most ${DAST_KEY_LIMITS.maxExpiryDays})`}
          type="number"
          min={1}
          max={DAST_KEY_LIMITS.maxExpiryDays}
          value={days}
          disabled={!hydrated}
          onChange={(e) => setDays(e.target.value)}
        />
        {hydrated && expiry !== null && <Muted>Expires on {formatTime(expiry)}</Muted>}
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
        {error && <FormMessage $tone="error">{error}</FormMessage>}
        <div>
          <Button type="submit" disabled={!hydrated || busy}>
            {busy ? 'Creating…' : 'Create key'}
          </Button>
        </div>
      </Form>
      <Dialog
        open={issued !== null}
        dismissible={false}
        title="Copy your DAST key now"
        description={`This is the only time “${issued?.name ?? ''}” is shown. Store it in your pipeline's secrets; we keep only a keyed hash of it.`}
      >
        <Row>
          <Secret readOnly aria-label="DAST key" value={issued?.token ?? ''} onFocus={(e) => e.currentTarget.select()} />
          <Button
            type="button"
            $variant="secondary"
            onClick={() => {
              void navigator.clipboard?.writeText(issued?.token ?? '').then(() => setCopied(true))
            }}
          >
            <IconCopy size={16} aria-hidden="true" />
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </Row>
        <DialogActions>
          <Button type="button" onClick={() => setIssued(null)}>
            I have stored the key
          </Button>
        </DialogActions>
      </Dialog>
    </OrgSection>
  )
}

function KeysList({ company }: { company: Company }) {
  const keys = useLiveData(() => import('../org/org-live').then((live) => live.watchDastKeys(company.slug)), [company.slug])
  const [revoking, setRevoking] = useState<DastKey | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const now = Date.now()

  const revoke = async () => {
    if (!revoking) return
    setBusy(true)
    setError(null)
    try {
      const { call } = await import('~/core/call')
      await call('revokeDastKey', { id: revoking.id })
      setRevoking(null)
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }

  const columns: ColumnDef<DastKey, unknown>[] = [
    { id: 'name', header: 'Name', accessorFn: (k) => k.name },
    {
      id: 'key',
      header: 'Key',
      accessorFn: (k) => k.hint,
      cell: ({ row }) => <Breaking as="code">{row.original.hint}</Breaking>,
    },
    {
      id: 'targets',
      header: 'Targets',
      accessorFn: (k) => k.allowedTargets.join(', '),
      cell: ({ getValue }) => <Breaking>{String(getValue())}</Breaking>,
    },
    { id: 'publish', header: 'Scans published', accessorFn: (k) => (k.publishAtOnce ? 'At once' : 'After review') },
    { id: 'status', header: 'State', accessorFn: (k) => dastKeyStatusLabels[dastKeyStatus(k, now)] },
    { id: 'expires', header: 'Expires', accessorFn: (k) => k.expiresAt ?? 0, cell: ({ row }) => timeOf(row.original.expiresAt) },
    {
      id: 'lastUsed',
      header: 'Last used',
      accessorFn: (k) => k.lastUsedAt ?? 0,
      cell: ({ row }) =>
        row.original.lastUsedAt === null
          ? 'Never'
          : `${timeOf(row.original.lastUsedAt)} from ${row.original.lastUsedIp ?? 'an unknown address'}`,
    },
    {
      id: 'created',
      header: 'Created',
      accessorFn: (k) => k.createdAt ?? 0,
      cell: ({ row }) => <Breaking>{`${timeOf(row.original.createdAt)} by ${row.original.createdBy}`}</Breaking>,
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) =>
        dastKeyStatus(row.original, now) === 'active' ? (
          <Button type="button" $variant="secondary" onClick={() => setRevoking(row.original)} aria-label={`Revoke ${row.original.name}`}>
            Revoke
          </Button>
        ) : null,
    },
  ]

  return (
    <OrgSection aria-labelledby="keys-title">
      <h2 id="keys-title">Keys</h2>
      {keys.status !== 'ready' ? (
        <LiveStatus live={keys} what="the keys" />
      ) : (
        <DataTable
          label="DAST keys"
          data={keys.data}
          columns={columns}
          rowId={(k) => k.id}
          filterLabel="Filter keys"
          empty="No keys yet."
        />
      )}
      <Dialog
        open={revoking !== null}
        onOpenChange={(open) => !open && !busy && setRevoking(null)}
        title="Revoke this key?"
        description={`Pipelines using “${revoking?.name ?? ''}” are refused from now on. This cannot be undone.`}
      >
        {error && <FormMessage $tone="error">{error}</FormMessage>}
        <DialogActions>
          <Button type="button" $variant="secondary" onClick={() => setRevoking(null)} disabled={busy}>
            Cancel
          </Button>
          <Button type="button" onClick={() => void revoke()} disabled={busy}>
            Revoke key
          </Button>
        </DialogActions>
      </Dialog>
    </OrgSection>
  )
}
