// The people tables of /admin/app/users (everyone, platform admins) and
// /admin/company/manage-users (the selected company's clients, its admins; its analysts too for
// those who see every company): search and filters, pages, invitations and changes in a dialog,
// destructive actions confirmed first, and for platform admins the addresses still missing filled in.
// A company's removed people are listed apart (Show: Removed people), each with Restore; a removal
// offers Undo at once.
import { useCallback, useMemo, useState } from 'react'
import { createColumnHelper } from '@tanstack/react-table'
import styled from 'styled-components'
import type { PersonRow } from '#domain/admin-people-calls.ts'
import { LEVEL, seesAllCompanies, type Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import { LocalTime } from '~/ui/local-time'
import { Button } from '~/ui/button'
import { ConfirmDialog } from '~/ui/confirm-dialog'
import { DataTable } from '~/ui/data-table'
import { LiveStatus } from '~/ui/live-status'
import { surface } from '~/ui/surface'
import { FormMessage, Select } from '~/ui/text-field'
import { FillAddresses } from './fill-addresses'
import { PeopleSearch, ShowMorePeople } from './people-more'
import { PersonDialog } from './person-dialog'
import { isFiltered, levelName, LEVEL_NAMES, NO_FILTER, peopleRequest, showingLine, type PeopleFilter } from './people-view'
import { usePeople, useSettled } from './use-people'

const Section = styled.section`
  ${surface}
  padding: 20px 24px;
  display: grid;
  gap: 14px;
`

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;

  ${PeopleSearch} {
    flex: 1 1 220px;
  }
`

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;

  button {
    min-height: 30px;
    padding: 0 10px;
    font-size: 13px;
  }
`

const Muted = styled.span`
  color: var(--color-text-muted);
`

const Count = styled.p`
  margin: 0;
  font-size: 14px;
`

const Notice = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;

  button {
    min-height: 30px;
    padding: 0 10px;
    font-size: 13px;
  }
`

const ReadOnlyNote = styled.p`
  margin: 0;
  font-size: 14px;
  color: var(--color-text-muted);
`

type Pending = { kind: 'revoke' | 'remove' | 'disable' | 'enable' | 'delete'; person: PersonRow }

const CONFIRM: Record<Pending['kind'], { title: string; text: (p: PersonRow, company: string) => string; label: string }> = {
  revoke: {
    title: 'Revoke sessions',
    text: (p) => `${p.email} is signed out everywhere at once and must sign in again.`,
    label: 'Revoke sessions',
  },
  remove: {
    title: 'Remove from company',
    text: (p, c) =>
      `${p.email} loses access to ${c}. Their other companies stay. They are then listed under Removed people, where Restore gives ${c} back.`,
    label: 'Remove',
  },
  disable: { title: 'Disable account', text: (p) => `${p.email} is signed out and cannot sign in until enabled again.`, label: 'Disable' },
  enable: { title: 'Enable account', text: (p) => `${p.email} may sign in again.`, label: 'Enable' },
  delete: { title: 'Delete account', text: (p) => `${p.email}'s account and access are deleted. This cannot be undone.`, label: 'Delete' },
}

export function PeopleAdmin({
  actor,
  uid,
  companies,
  company,
}: {
  actor: Access
  uid: string
  /** Every company (platform admins) or the actor's own. */
  companies: readonly Company[]
  /** The company whose people a company admin manages; null for everyone (platform admins). */
  company: Company | null
}) {
  const platform = (actor.accessLevel ?? 0) >= LEVEL.platformAdmin
  // Those who see every company read its analysts too; only platform admins change them.
  const seesAnalysts = seesAllCompanies(actor)
  const [filter, setFilter] = useState<PeopleFilter>(NO_FILTER)
  const settled = useSettled(filter)
  const slug = company?.slug ?? null
  const people = usePeople(useMemo(() => peopleRequest(slug, settled), [slug, settled]))
  const mayChange = people.mayChange
  const [editing, setEditing] = useState<PersonRow | null | 'new'>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  // The person just removed, for Undo beside the notice.
  const [undoable, setUndoable] = useState<PersonRow | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const listsRemoved = settled.show === 'removed' && (slug ?? settled.company) !== ''
  const names = useMemo(() => new Map(companies.map((c) => [c.slug, c.companyName])), [companies])

  // Restore: the company given back to someone removed from it, with the access they hold.
  const { refresh } = people
  const listedCompany = slug ?? (settled.company || null)
  const restore = useCallback(
    async (person: PersonRow) => {
      if (!listedCompany) return
      setUndoable(null)
      setFailed(null)
      try {
        const client = await import('./people-client')
        await client.restoreToCompany(person.uid, listedCompany)
        setNotice(`${person.email} is restored to ${names.get(listedCompany) ?? listedCompany}, with the access they had.`)
      } catch (failure) {
        setNotice(null)
        setFailed(failure instanceof Error ? failure.message : 'The person could not be restored.')
      }
      await refresh()
    },
    [listedCompany, names, refresh],
  )

  const columns = useMemo(() => {
    const column = createColumnHelper<PersonRow>()
    return [
      column.accessor((row) => row.email ?? row.uid, {
        id: 'email',
        header: 'Person',
        cell: ({ row }) => (
          <>
            {row.original.email}
            {row.original.displayName && <Muted> · {row.original.displayName}</Muted>}
            {row.original.disabled && <Muted> · disabled</Muted>}
            {row.original.removed && <Muted> · removed</Muted>}
          </>
        ),
      }),
      column.accessor('accessLevel', { header: 'Level', cell: ({ getValue }) => levelName(getValue()) }),
      ...(seesAnalysts
        ? [column.accessor('userType', { header: 'Type', cell: ({ getValue }) => (getValue() === 'analyst' ? 'Analyst' : 'Client') })]
        : []),
      column.accessor((row) => row.companies.map((slug) => names.get(slug) ?? slug).join(', '), { id: 'companies', header: 'Companies' }),
      column.accessor((row) => row.servicesEnabled.join(', '), { id: 'services', header: 'Services', enableSorting: false }),
      column.accessor('lastSignInAt', {
        header: 'Last sign-in',
        cell: ({ getValue }) => {
          const at = getValue()
          return at === null ? 'Never' : <LocalTime at={at} />
        },
      }),
      // Only for those the server lets change these people; others read the list.
      ...(!mayChange
        ? []
        : [
            column.display({
              id: 'actions',
              header: 'Actions',
              cell: ({ row }) => {
                const person = row.original
                const self = person.uid === uid
                if (!platform && person.userType !== 'client') return null
                if (person.removed)
                  return (
                    <Actions>
                      <Button
                        type="button"
                        $variant="secondary"
                        onClick={() => void restore(person)}
                        aria-label={`Restore ${person.email}`}
                      >
                        Restore
                      </Button>
                    </Actions>
                  )
                return (
                  <Actions>
                    <Button type="button" $variant="secondary" onClick={() => setEditing(person)} aria-label={`Change ${person.email}`}>
                      Change
                    </Button>
                    <Button
                      type="button"
                      $variant="secondary"
                      onClick={() => setPending({ kind: 'revoke', person })}
                      aria-label={`Revoke sessions of ${person.email}`}
                    >
                      Revoke sessions
                    </Button>
                    {company && (
                      <Button
                        type="button"
                        $variant="secondary"
                        onClick={() => setPending({ kind: 'remove', person })}
                        aria-label={`Remove ${person.email}`}
                      >
                        Remove
                      </Button>
                    )}
                    {platform && !self && (
                      <Button
                        type="button"
                        $variant="secondary"
                        onClick={() => setPending({ kind: person.disabled ? 'enable' : 'disable', person })}
                        aria-label={`${person.disabled ? 'Enable' : 'Disable'} ${person.email}`}
                      >
                        {person.disabled ? 'Enable' : 'Disable'}
                      </Button>
                    )}
                    {platform && !self && (
                      <Button
                        type="button"
                        $variant="secondary"
                        onClick={() => setPending({ kind: 'delete', person })}
                        aria-label={`Delete ${person.email}`}
                      >
                        Delete
                      </Button>
                    )}
                  </Actions>
                )
              },
            }),
          ]),
      // The server orders by address across every page: a column sorted in the browser would sort only the pages loaded.
    ].map((definition) => ({ ...definition, enableSorting: false }))
  }, [company, names, platform, seesAnalysts, uid, mayChange, restore])

  async function act({ kind, person }: Pending) {
    const client = await import('./people-client')
    if (kind === 'revoke') await client.revokeSessions(person.uid)
    if (kind === 'remove' && company) await client.removeFromCompany(person.uid, company.slug)
    if (kind === 'disable' || kind === 'enable') await client.setDisabled(person.uid, kind === 'disable')
    if (kind === 'delete') await client.deletePerson(person.uid)
    setUndoable(kind === 'remove' ? person : null)
    setNotice(
      kind === 'remove' && company
        ? `${person.email} is removed from ${company.companyName}: listed under Removed people, where Restore gives it back.`
        : `${CONFIRM[kind].title}: done for ${person.email}.`,
    )
    await people.refresh()
  }

  const companyChoices = platform ? companies : []
  const filtered = isFiltered(settled)
  return (
    <Section aria-label="People" aria-busy={people.status === 'loading' || people.busy}>
      <Bar>
        <PeopleSearch value={filter.text} onChange={(e) => setFilter({ ...filter, text: e.target.value })} />
        {companyChoices.length > 0 && (
          <Select aria-label="Company" value={filter.company} onChange={(e) => setFilter({ ...filter, company: e.target.value })}>
            <option value="">All companies</option>
            {companyChoices.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.companyName}
              </option>
            ))}
          </Select>
        )}
        <Select aria-label="Level" value={filter.level} onChange={(e) => setFilter({ ...filter, level: e.target.value })}>
          <option value="">All levels</option>
          {Object.entries(LEVEL_NAMES)
            .filter(([level]) => seesAnalysts || Number(level) <= LEVEL.companyAdmin)
            .map(([level, name]) => (
              <option key={level} value={level}>
                {name}
              </option>
            ))}
        </Select>
        {(slug !== null || filter.company !== '') && (
          <Select
            aria-label="Show"
            value={filter.show}
            onChange={(e) => setFilter({ ...filter, show: e.target.value === 'removed' ? 'removed' : 'members' })}
          >
            <option value="members">People in the company</option>
            <option value="removed">Removed people</option>
          </Select>
        )}
        {seesAnalysts && (
          <Select aria-label="Type" value={filter.type} onChange={(e) => setFilter({ ...filter, type: e.target.value })}>
            <option value="">All types</option>
            <option value="client">Clients</option>
            <option value="analyst">Analysts</option>
          </Select>
        )}
        {mayChange && (
          <Button type="button" onClick={() => setEditing('new')}>
            Invite a person
          </Button>
        )}
      </Bar>
      {people.status === 'ready' && !mayChange && (
        <ReadOnlyNote>You can read this company&rsquo;s people; its administrators and platform administrators change them.</ReadOnlyNote>
      )}
      {notice && (
        <Notice>
          <FormMessage $tone="success">{notice}</FormMessage>
          {undoable && mayChange && (
            <Button
              type="button"
              $variant="secondary"
              onClick={() => void restore(undoable)}
              aria-label={`Undo: restore ${undoable.email}`}
            >
              Undo
            </Button>
          )}
        </Notice>
      )}
      {failed && <FormMessage $tone="error">{failed}</FormMessage>}
      {people.status === 'ready' && people.error && <FormMessage $tone="error">{people.error}</FormMessage>}
      {people.status !== 'ready' ? (
        <LiveStatus live={{ status: people.status, retry: people.retry }} what="the people" />
      ) : (
        <>
          <Count aria-live="polite">
            {showingLine(people.rows.length, people.total)}
            {filtered && ' matching these filters'}.{people.next && ' Search by address or filter to narrow them.'}
          </Count>
          {!!people.unlisted && (
            <ReadOnlyNote>
              {people.unlisted === 1 ? '1 person is' : `${people.unlisted} people are`} not listed yet: the list learns an address at its
              owner&rsquo;s next sign-in.
            </ReadOnlyNote>
          )}
          {platform && !!people.unlisted && <FillAddresses onDone={() => void people.refresh()} />}
          <DataTable
            label="People"
            data={people.rows}
            columns={columns}
            rowId={(row) => row.uid}
            empty={
              listsRemoved
                ? 'Nobody removed from this company is waiting to be restored.'
                : filtered
                  ? 'Nobody matches these filters.'
                  : 'Nobody yet: invite someone.'
            }
            // Every person loaded shows: the pages come from the server, a page at a time.
            pageSize={null}
          />
          <ShowMorePeople people={people} />
        </>
      )}
      {editing !== null && (
        <PersonDialog
          key={editing === 'new' ? 'new' : editing.uid}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          person={editing === 'new' ? null : editing}
          actor={actor}
          companies={companies}
          defaultCompany={company?.slug ?? null}
          onDone={(message) => {
            setNotice(message)
            void people.refresh()
          }}
        />
      )}
      {pending && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          title={CONFIRM[pending.kind].title}
          description={CONFIRM[pending.kind].text(pending.person, company?.companyName ?? '')}
          confirmLabel={CONFIRM[pending.kind].label}
          onConfirm={() => act(pending)}
        />
      )}
    </Section>
  )
}
