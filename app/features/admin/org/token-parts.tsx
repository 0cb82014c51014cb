// What the company token pages share (DAST keys, API tokens): the dialog that shows a new token
// once, the revoke confirmation, and how a token's times read in their tables.
import { useState } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { IconCopy } from '@tabler/icons-react'
import styled from 'styled-components'
import { expiryFrom, tokenStatus, tokenStatusLabels, type StoredToken } from '#domain/secret-tokens.ts'
import type { LiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { DataTable } from '~/ui/data-table'
import { Dialog, DialogActions } from '~/ui/dialog'
import { LiveStatus } from '~/ui/live-status'
import { formatTime } from '~/ui/local-time'
import { fieldControl, FormMessage, TextField } from '~/ui/text-field'
import { Muted, OrgSection } from './org-section'

/** A token's time in the reader's locale and zone; a dash when there is none. */
export const tokenTime = (at: number | null) => (at === null ? '—' : formatTime(at))

/** Last use as a table shows it: never, or when and from where. */
export const lastUseText = (token: { lastUsedAt: number | null; lastUsedIp: string | null }) =>
  token.lastUsedAt === null ? 'Never' : `${tokenTime(token.lastUsedAt)} from ${token.lastUsedIp ?? 'an unknown address'}`

export const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong: try again.')

/** A long token (a hint, a URL) breaks anywhere, so the table fits and its actions stay in view. */
export const Breaking = styled.span`
  overflow-wrap: anywhere;
`

const Secret = styled.input`
  ${fieldControl}
  width: 100%;
  min-height: 40px;
  padding: 0 12px;
  font-family: var(--font-mono, monospace);
  font-size: 13px;
`

const Row = styled.div`
  display: flex;
  gap: 8px;
  margin-bottom: 16px;
`

/**
 * The one time a new token is shown: `what` names it ("DAST key"), `noun` says it short ("key"),
 * `kept` what the server keeps of it (a keyed hash, unless said otherwise).
 */
export function IssuedTokenDialog({
  issued,
  what,
  noun,
  storeWhere,
  kept = 'we keep only a keyed hash of it',
  onDone,
}: {
  issued: { name: string; token: string } | null
  what: string
  noun: string
  storeWhere: string
  kept?: string
  onDone: () => void
}) {
  const [copied, setCopied] = useState(false)
  return (
    <Dialog
      open={issued !== null}
      dismissible={false}
      title={`Copy your ${what} now`}
      description={`This is the only time “${issued?.name ?? ''}” is shown. Store it in ${storeWhere}; ${kept}.`}
    >
      <Row>
        <Secret readOnly aria-label={what} value={issued?.token ?? ''} onFocus={(e) => e.currentTarget.select()} />
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
        <Button
          type="button"
          onClick={() => {
            setCopied(false)
            onDone()
          }}
        >
          I have stored the {noun}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

/** Asks before a token is revoked; `revoke` calls the server and resolves when it has answered. */
export function RevokeTokenDialog<Token extends { id: string; name: string }>({
  token,
  noun,
  users,
  revoke,
  onClose,
}: {
  token: Token | null
  noun: string
  /** Who is refused afterwards: "Pipelines", "Tools". */
  users: string
  revoke: (token: Token) => Promise<void>
  onClose: () => void
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async () => {
    if (!token) return
    setBusy(true)
    setError(null)
    try {
      await revoke(token)
      onClose()
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={token !== null}
      onOpenChange={(open) => !open && !busy && onClose()}
      title={`Revoke this ${noun}?`}
      description={`${users} using “${token?.name ?? ''}” are refused from now on. This cannot be undone.`}
    >
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      <DialogActions>
        <Button type="button" $variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="button" onClick={() => void run()} disabled={busy}>
          Revoke {noun}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

/**
 * A token table's columns: name and hint (`hintHeader`), the kind's own columns, then state,
 * expiry, last use, creation and Revoke for an active token.
 */
export function tokenColumns<Token extends StoredToken>(options: {
  hintHeader: string
  own: ColumnDef<Token, unknown>[]
  now: number
  onRevoke: (token: Token) => void
}): ColumnDef<Token, unknown>[] {
  const { now } = options
  return [
    { id: 'name', header: 'Name', accessorFn: (t) => t.name },
    {
      id: 'hint',
      header: options.hintHeader,
      accessorFn: (t) => t.hint,
      cell: ({ row }) => <Breaking as="code">{row.original.hint}</Breaking>,
    },
    ...options.own,
    { id: 'status', header: 'State', accessorFn: (t) => tokenStatusLabels[tokenStatus(t, now)] },
    { id: 'expires', header: 'Expires', accessorFn: (t) => t.expiresAt ?? 0, cell: ({ row }) => tokenTime(row.original.expiresAt) },
    { id: 'lastUsed', header: 'Last used', accessorFn: (t) => t.lastUsedAt ?? 0, cell: ({ row }) => lastUseText(row.original) },
    {
      id: 'created',
      header: 'Created',
      accessorFn: (t) => t.createdAt ?? 0,
      cell: ({ row }) => <Breaking>{`${tokenTime(row.original.createdAt)} by ${row.original.createdBy}`}</Breaking>,
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) =>
        tokenStatus(row.original, now) === 'active' ? (
          <Button
            type="button"
            $variant="secondary"
            onClick={() => options.onRevoke(row.original)}
            aria-label={`Revoke ${row.original.name}`}
          >
            Revoke
          </Button>
        ) : null,
    },
  ]
}

/**
 * A company's tokens of one kind, live: loading and empty states, the table (the kind's own columns
 * after name and hint) and the revoke confirmation. `noun` is "key" or "token", `users` who is
 * refused once one is revoked.
 */
export function TokenList<Token extends StoredToken>(props: {
  heading: string
  label: string
  noun: string
  users: string
  tokens: LiveData<Token[]>
  hintHeader: string
  own: ColumnDef<Token, unknown>[]
  revoke: (token: Token) => Promise<void>
}) {
  const [revoking, setRevoking] = useState<Token | null>(null)
  const columns = tokenColumns<Token>({ hintHeader: props.hintHeader, own: props.own, now: Date.now(), onRevoke: setRevoking })
  const titleId = `${props.noun}s-title`
  return (
    <OrgSection aria-labelledby={titleId}>
      <h2 id={titleId}>{props.heading}</h2>
      {props.tokens.status !== 'ready' ? (
        <LiveStatus live={props.tokens} what={`the ${props.noun}s`} />
      ) : (
        <DataTable
          label={props.label}
          data={props.tokens.data}
          columns={columns}
          rowId={(t) => t.id}
          filterLabel={`Filter ${props.noun}s`}
          empty={`No ${props.noun}s yet.`}
        />
      )}
      <RevokeTokenDialog token={revoking} noun={props.noun} users={props.users} revoke={props.revoke} onClose={() => setRevoking(null)} />
    </OrgSection>
  )
}

/** A new token's expiry in days, with the date it falls on once the page is live. */
export function ExpiryField(props: { days: string; onChange: (days: string) => void; max: number; hydrated: boolean }) {
  const days = Number(props.days)
  const expiry = Number.isInteger(days) && days >= 1 && days <= props.max ? expiryFrom(Date.now(), days) : null
  return (
    <>
      <TextField
        label={`Expires after (days, at most ${props.max})`}
        type="number"
        min={1}
        max={props.max}
        value={props.days}
        disabled={!props.hydrated}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hydrated && expiry !== null && <Muted>Expires on {formatTime(expiry)}</Muted>}
    </>
  )
}

/** The end of a new-token form: its error, then its button ("Create key"). */
export function CreateTokenEnd(props: { error: string | null; busy: boolean; hydrated: boolean; label: string }) {
  return (
    <>
      {props.error && <FormMessage $tone="error">{props.error}</FormMessage>}
      <div>
        <Button type="submit" disabled={!props.hydrated || props.busy}>
          {props.busy ? 'Creating…' : props.label}
        </Button>
      </div>
    </>
  )
}
