// /admin/keys_email: the keys that let a first sign-in in, with their state, expiry and uses; a
// form to add one (checked with the callable's own schema) and revocation after a confirmation.
import { useMemo, useState, type FormEvent } from 'react'
import { createColumnHelper } from '@tanstack/react-table'
import styled from 'styled-components'
import * as v from 'valibot'
import { LEVEL, type UserType } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import { CreateEmailKeyRequestSchema, emailKeyState, type EmailKeyRow, type EmailKeyState } from '#domain/email-keys.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { ConfirmDialog } from '~/ui/confirm-dialog'
import { DataTable } from '~/ui/data-table'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { formatTime } from '~/ui/local-time'
import { surface } from '~/ui/surface'
import { Field, FormMessage, Label, Select, TextField } from '~/ui/text-field'

const DAY = 24 * 3600_000

const Section = styled.section`
  ${surface}
  padding: 20px 24px;
  display: grid;
  gap: 14px;
  margin-bottom: 20px;

  h2 {
    font-size: 17px;
    margin: 0;
  }
`

const FormGrid = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: 12px;
  align-items: end;
`

const Badge = styled.span<{ $state: EmailKeyState }>`
  font-size: 12px;
  font-weight: 600;
  padding: 2px 8px;
  border-radius: 999px;
  border: 1px solid var(--color-border);
  color: ${({ $state }) =>
    $state === 'active' ? 'var(--color-success)' : $state === 'expiring' ? 'var(--color-text)' : 'var(--color-danger)'};
`

const STATE_LABEL: Record<EmailKeyState, string> = { active: 'Active', expiring: 'Expiring soon', expired: 'Expired', revoked: 'Revoked' }

const LEVELS: Record<UserType, number[]> = {
  client: [LEVEL.clientViewer, LEVEL.clientManager, LEVEL.companyAdmin],
  analyst: [LEVEL.analyst, LEVEL.seniorAnalyst, LEVEL.platformAdmin],
}

const LIFETIMES = [30, 90, 180, 365]

const when = (at: number | null) => (at === null ? '—' : formatTime(at, 'date'))

function NewKeyForm({ companies }: { companies: readonly Company[] }) {
  const [match, setMatch] = useState('')
  const [company, setCompany] = useState(companies[0]?.slug ?? '')
  const [userType, setUserType] = useState<UserType>('client')
  const [accessLevel, setAccessLevel] = useState<number>(LEVEL.clientViewer)
  const [days, setDays] = useState(90)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setMessage(null)
    const request = { match, company, userType, accessLevel, expiresAt: Date.now() + days * DAY }
    const checked = v.safeParse(CreateEmailKeyRequestSchema, request)
    if (!checked.success) return setMessage({ tone: 'error', text: checked.issues[0].message })
    setBusy(true)
    try {
      await (await import('./email-keys-client')).createEmailKey(request)
      setMessage({ tone: 'success', text: `Key added for ${checked.output.match}.` })
      setMatch('')
    } catch (failure) {
      setMessage({ tone: 'error', text: failure instanceof Error ? failure.message : 'The key could not be added.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Section aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <FormGrid onSubmit={(event) => void submit(event)} noValidate aria-label="New email key">
        <TextField
          label="Address or domain"
          placeholder="@example.com"
          value={match}
          onChange={(e) => setMatch(e.target.value)}
          autoComplete="off"
        />
        <Field>
          <Label htmlFor="key-company">Company</Label>
          <Select id="key-company" value={company} onChange={(e) => setCompany(e.target.value)}>
            {companies.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.companyName}
              </option>
            ))}
          </Select>
        </Field>
        <Field>
          <Label htmlFor="key-type">Type</Label>
          <Select
            id="key-type"
            value={userType}
            onChange={(e) => {
              const type = e.target.value as UserType
              setUserType(type)
              setAccessLevel(LEVELS[type][0] ?? LEVEL.clientViewer)
            }}
          >
            <option value="client">Client</option>
            <option value="analyst">Analyst</option>
          </Select>
        </Field>
        <Field>
          <Label htmlFor="key-level">Level</Label>
          <Select id="key-level" value={accessLevel} onChange={(e) => setAccessLevel(Number(e.target.value))}>
            {LEVELS[userType].map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </Select>
        </Field>
        <Field>
          <Label htmlFor="key-expiry">Expires in</Label>
          <Select id="key-expiry" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {LIFETIMES.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={busy}>
          Add key
        </Button>
      </FormGrid>
      {message && <FormMessage $tone={message.tone}>{message.text}</FormMessage>}
    </Section>
  )
}

export function EmailKeysAdmin({ companies }: { companies: readonly Company[] }) {
  const keys = useLiveData(() => import('./email-keys-live').then((live) => live.watchEmailKeys), [])
  const [state, setState] = useState<EmailKeyState | ''>('')
  const [revoking, setRevoking] = useState<EmailKeyRow | null>(null)
  const [now] = useState(() => Date.now())
  const names = useMemo(() => new Map(companies.map((c) => [c.slug, c.companyName])), [companies])

  const rows = useMemo(() => (keys.data?.items ?? []).filter((key) => !state || emailKeyState(key, now) === state), [keys.data, state, now])
  const columns = useMemo(() => {
    const column = createColumnHelper<EmailKeyRow>()
    return [
      column.accessor('match', { header: 'Address or domain' }),
      column.accessor((key) => names.get(key.company) ?? key.company, { id: 'company', header: 'Company' }),
      column.accessor('accessLevel', { header: 'Level', cell: ({ row }) => `${row.original.accessLevel} · ${row.original.userType}` }),
      column.accessor((key) => emailKeyState(key, now), {
        id: 'state',
        header: 'State',
        cell: ({ getValue }) => (
          <Badge $state={getValue()} data-state={getValue()}>
            {STATE_LABEL[getValue()]}
          </Badge>
        ),
      }),
      column.accessor('expiresAt', { header: 'Expires', cell: ({ getValue }) => when(getValue()), sortUndefined: 'last' }),
      column.accessor('uses', { header: 'Uses' }),
      column.accessor('lastUsedAt', { header: 'Last used', cell: ({ getValue }) => when(getValue()) }),
      column.accessor('createdBy', { header: 'Added by', cell: ({ getValue }) => getValue() ?? '—' }),
      column.display({
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) =>
          row.original.revokedAt === null ? (
            <Button
              type="button"
              $variant="secondary"
              onClick={() => setRevoking(row.original)}
              aria-label={`Revoke ${row.original.match}`}
            >
              Revoke
            </Button>
          ) : null,
      }),
    ]
  }, [names, now])

  return (
    <>
      <NewKeyForm companies={companies} />
      <Section aria-label="Email keys" aria-busy={keys.status === 'loading'}>
        <Select aria-label="State" value={state} onChange={(e) => setState(e.target.value as EmailKeyState | '')} style={{ maxWidth: 220 }}>
          <option value="">Every state</option>
          {Object.entries(STATE_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        {keys.status !== 'ready' ? (
          <LiveStatus live={keys} what="the email keys" />
        ) : (
          <>
            <DataTable
              label="Email keys"
              data={rows}
              columns={columns}
              rowId={(key) => key.id}
              empty={keys.data.items.length === 0 ? 'No keys yet.' : 'No key is in that state.'}
              initialSort={[{ id: 'expiresAt', desc: false }]}
            />
            <ListCap
              shown={keys.data.items.length}
              what="keys"
              order="most recently added"
              onMore={keys.data.more}
              loading={keys.data.loading}
            >
              The state filter and the sort apply to these.
            </ListCap>
          </>
        )}
      </Section>
      {revoking && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setRevoking(null)}
          title="Revoke key"
          description={`First sign-ins of ${revoking.match} stop being let in. People already in keep their access.`}
          confirmLabel="Revoke"
          onConfirm={async () => {
            await (await import('./email-keys-client')).revokeEmailKey(revoking.id)
          }}
        />
      )}
    </>
  )
}
