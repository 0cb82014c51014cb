// The company's webhook endpoints (decision 0056): register one with the events it receives (its
// signing secret shown once), rotate the secret, disable, enable or delete it, and read an
// endpoint's delivery log (each attempt's status, duration and the start of the answer) with
// "Send again". How a receiver checks the signature is in docs/api.md.
import { useState, type FormEvent } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import * as v from 'valibot'
import styled from 'styled-components'
import type { Company } from '#domain/companies.ts'
import {
  CreateWebhookEndpointRequestSchema,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  webhookDeliveryStateLabels,
  webhookEventLabels,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '#domain/webhooks.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { Button } from '~/ui/button'
import { CheckboxGroup } from '~/ui/checkbox-grid'
import { ConfirmDialog } from '~/ui/confirm-dialog'
import { DataTable } from '~/ui/data-table'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage, TextField } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { Muted, OrgSection } from '../org/org-section'
import { Breaking, CreateTokenEnd, errorText, IssuedTokenDialog, tokenTime } from '../org/token-parts'

const Form = styled.form`
  display: grid;
  gap: 12px;
  max-width: 640px;
`

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`

const Answer = styled.details`
  max-width: 360px;
  summary {
    cursor: pointer;
  }
  pre {
    margin: 6px 0 0;
    max-height: 200px;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 12px;
  }
`

type Issued = { name: string; token: string } | null

const issuedSecret = (endpoint: { url: string }, secret: string) => ({ name: `the signing secret of ${endpoint.url}`, token: secret })

export function WebhooksPage({ workspace }: { workspace: Workspace }) {
  const company = workspace.company
  const [issued, setIssued] = useState<Issued>(null)
  const [selected, setSelected] = useState<string | null>(null)
  if (!company) return <Muted>Choose a company first.</Muted>
  return (
    <>
      <NewEndpoint company={company} onIssued={setIssued} />
      <Endpoints company={company} selected={selected} onSelect={setSelected} onIssued={setIssued} />
      {selected && <Deliveries company={company.slug} endpointId={selected} />}
      <IssuedTokenDialog
        issued={issued}
        what="signing secret"
        noun="secret"
        storeWhere="your receiver's settings"
        kept="we keep it to sign each delivery, and never show it again"
        onDone={() => setIssued(null)}
      />
    </>
  )
}

function NewEndpoint({ company, onIssued }: { company: Company; onIssued: (issued: Issued) => void }) {
  const hydrated = useHydrated()
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<WebhookEventType[]>(['finding.new', 'finding.status_changed'])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = v.safeParse(CreateWebhookEndpointRequestSchema, { company: company.slug, url, events })
    if (!parsed.success) return setError(parsed.issues[0].message)
    setBusy(true)
    setError(null)
    try {
      const { secret } = await callLazily('createWebhookEndpoint', parsed.output)
      onIssued(issuedSecret(parsed.output, secret))
      setUrl('')
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <OrgSection aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New webhook endpoint for {company.companyName}</h2>
      <p>
        Each event is sent to the endpoint as a small signed JSON message naming what changed, retried for about five hours until the
        endpoint answers 2xx. The signing secret is shown once.
      </p>
      <Form onSubmit={submit} aria-label="New webhook endpoint" noValidate>
        <TextField
          label="Endpoint URL (https)"
          type="url"
          inputMode="url"
          placeholder="https://hooks.example.com/bulwark"
          value={url}
          disabled={!hydrated}
          maxLength={WEBHOOK_LIMITS.url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <CheckboxGroup>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                disabled={!hydrated}
                onChange={(e) =>
                  setEvents((now) =>
                    e.target.checked ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || now.includes(t)) : now.filter((t) => t !== type),
                  )
                }
              />
              <span>
                {webhookEventLabels[type]} <Muted as="code">{type}</Muted>
              </span>
            </label>
          ))}
        </CheckboxGroup>
        <CreateTokenEnd error={error} busy={busy} hydrated={hydrated} label="Add endpoint" />
      </Form>
    </OrgSection>
  )
}

type Pending = { kind: 'rotate' | 'delete'; endpoint: WebhookEndpoint } | null

function Endpoints({
  company,
  selected,
  onSelect,
  onIssued,
}: {
  company: Company
  selected: string | null
  onSelect: (id: string | null) => void
  onIssued: (issued: Issued) => void
}) {
  const endpoints = useLiveData(() => import('./webhooks-live').then((live) => live.watchWebhookEndpoints(company.slug)), [company.slug])
  const [pending, setPending] = useState<Pending>(null)
  const [error, setError] = useState<string | null>(null)

  const toggle = async (endpoint: WebhookEndpoint) => {
    setError(null)
    try {
      await callLazily('setWebhookEndpointEnabled', { id: endpoint.id, enabled: !endpoint.enabled })
    } catch (failure) {
      setError(errorText(failure))
    }
  }

  const columns: ColumnDef<WebhookEndpoint, unknown>[] = [
    { id: 'url', header: 'URL', accessorFn: (e) => e.url, cell: ({ row }) => <Breaking as="code">{row.original.url}</Breaking> },
    {
      id: 'events',
      header: 'Events',
      accessorFn: (e) => e.events.join(', '),
      cell: ({ getValue }) => <Breaking>{String(getValue())}</Breaking>,
    },
    { id: 'state', header: 'State', accessorFn: (e) => (e.enabled ? 'Enabled' : 'Disabled') },
    {
      id: 'rotated',
      header: 'Secret rotated',
      accessorFn: (e) => e.secretRotatedAt ?? 0,
      cell: ({ row }) => (row.original.secretRotatedAt === null ? 'Never' : tokenTime(row.original.secretRotatedAt)),
    },
    {
      id: 'created',
      header: 'Created',
      accessorFn: (e) => e.createdAt ?? 0,
      cell: ({ row }) => <Breaking>{`${tokenTime(row.original.createdAt)} by ${row.original.createdBy}`}</Breaking>,
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) => {
        const endpoint = row.original
        return (
          <Actions>
            <Button
              type="button"
              $variant="secondary"
              aria-pressed={selected === endpoint.id}
              aria-label={`Deliveries to ${endpoint.url}`}
              onClick={() => onSelect(selected === endpoint.id ? null : endpoint.id)}
            >
              Deliveries
            </Button>
            <Button
              type="button"
              $variant="secondary"
              aria-label={`Rotate the secret of ${endpoint.url}`}
              onClick={() => setPending({ kind: 'rotate', endpoint })}
            >
              Rotate secret
            </Button>
            <Button
              type="button"
              $variant="secondary"
              aria-label={`${endpoint.enabled ? 'Disable' : 'Enable'} ${endpoint.url}`}
              onClick={() => void toggle(endpoint)}
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button
              type="button"
              $variant="secondary"
              aria-label={`Delete ${endpoint.url}`}
              onClick={() => setPending({ kind: 'delete', endpoint })}
            >
              Delete
            </Button>
          </Actions>
        )
      },
    },
  ]

  return (
    <OrgSection aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Endpoints</h2>
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      {endpoints.status !== 'ready' ? (
        <LiveStatus live={endpoints} what="the webhook endpoints" />
      ) : (
        <DataTable
          label="Webhook endpoints"
          data={endpoints.data}
          columns={columns}
          rowId={(e) => e.id}
          filterLabel="Filter endpoints"
          empty="No webhook endpoints yet."
        />
      )}
      <ConfirmDialog
        open={pending?.kind === 'rotate'}
        onOpenChange={(open) => !open && setPending(null)}
        title="Rotate the signing secret?"
        description={`A new secret signs the deliveries to ${pending?.endpoint.url ?? ''}. The current one still signs beside it for 24 hours, while your receiver switches.`}
        confirmLabel="Rotate secret"
        onConfirm={async () => {
          const endpoint = pending!.endpoint
          const { secret } = await callLazily('rotateWebhookSecret', { id: endpoint.id })
          onIssued(issuedSecret(endpoint, secret))
        }}
      />
      <ConfirmDialog
        open={pending?.kind === 'delete'}
        onOpenChange={(open) => !open && setPending(null)}
        title="Delete this endpoint?"
        description={`Nothing more is sent to ${pending?.endpoint.url ?? ''}, and its delivery log is deleted with it. This cannot be undone.`}
        confirmLabel="Delete endpoint"
        onConfirm={async () => {
          const endpoint = pending!.endpoint
          await callLazily('deleteWebhookEndpoint', { id: endpoint.id })
          if (selected === endpoint.id) onSelect(null)
        }}
      />
    </OrgSection>
  )
}

function Deliveries({ company, endpointId }: { company: string; endpointId: string }) {
  const deliveries = useLiveData(
    () => import('./webhooks-live').then((live) => live.watchWebhookDeliveries(company, endpointId)),
    [company, endpointId],
  )
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState<string | null>(null)

  const resend = async (delivery: WebhookDelivery) => {
    setError(null)
    setSending(delivery.id)
    try {
      await callLazily('resendWebhookDelivery', { id: delivery.id })
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setSending(null)
    }
  }

  const columns: ColumnDef<WebhookDelivery, unknown>[] = [
    { id: 'created', header: 'Event at', accessorFn: (d) => d.createdAt, cell: ({ row }) => tokenTime(row.original.createdAt) },
    { id: 'type', header: 'Event', accessorFn: (d) => d.type, cell: ({ row }) => <code>{row.original.type}</code> },
    {
      id: 'state',
      header: 'State',
      accessorFn: (d) => webhookDeliveryStateLabels[d.state],
      cell: ({ row }) => {
        const d = row.original
        const label = webhookDeliveryStateLabels[d.state]
        if (d.state === 'pending' && d.nextAttemptAt !== null && d.attempt > 0)
          return `${label}: next attempt ${tokenTime(d.nextAttemptAt)}`
        return d.note ? `${label}: ${d.note}` : label
      },
    },
    { id: 'attempt', header: 'Attempt', accessorFn: (d) => d.attempt },
    {
      id: 'status',
      header: 'Answer',
      accessorFn: (d) => d.attempts.at(-1)?.status ?? 0,
      cell: ({ row }) => {
        const last = row.original.attempts.at(-1)
        if (!last) return '—'
        return last.status === null ? (last.error ?? 'No answer') : String(last.status)
      },
    },
    {
      id: 'duration',
      header: 'Duration',
      accessorFn: (d) => d.attempts.at(-1)?.durationMs ?? 0,
      cell: ({ row }) => {
        const last = row.original.attempts.at(-1)
        return last ? `${last.durationMs} ms` : '—'
      },
    },
    {
      id: 'body',
      header: 'Answer body',
      enableSorting: false,
      accessorFn: (d) => d.attempts.at(-1)?.answer ?? '',
      cell: ({ row }) => {
        const answer = row.original.attempts.at(-1)?.answer ?? ''
        return answer ? (
          <Answer>
            <summary>First {WEBHOOK_LIMITS.answerBytes} bytes</summary>
            <pre>{answer}</pre>
          </Answer>
        ) : (
          <Muted>Empty</Muted>
        )
      },
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          type="button"
          $variant="secondary"
          disabled={sending !== null}
          aria-label={`Send ${row.original.type} of ${tokenTime(row.original.createdAt)} again`}
          onClick={() => void resend(row.original)}
        >
          {sending === row.original.id ? 'Sending…' : 'Send again'}
        </Button>
      ),
    },
  ]

  return (
    <OrgSection aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <p>Each event sent to this endpoint, newest first, with the answer to its latest attempt.</p>
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      {deliveries.status !== 'ready' ? (
        <LiveStatus live={deliveries} what="the deliveries" />
      ) : (
        <>
          <DataTable
            label="Deliveries"
            data={deliveries.data.items}
            columns={columns}
            rowId={(d) => d.id}
            pageSize={null}
            empty="Nothing sent to this endpoint yet."
          />
          <ListCap shown={deliveries.data.items.length} what="deliveries" onMore={deliveries.data.more} loading={deliveries.data.loading} />
        </>
      )}
    </OrgSection>
  )
}
