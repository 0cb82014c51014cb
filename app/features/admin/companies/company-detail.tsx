// One company: its name and service switches (autosaved, live), its scan scope, its people and,
// for those allowed, its audit trail.
import { useMemo, useState } from 'react'
import { Link } from '@tanstack/react-router'
import type { ColumnDef } from '@tanstack/react-table'
import { IconArrowLeft } from '@tabler/icons-react'
import styled from 'styled-components'
import { COMPANY_FLAGS, maySeeCompanyAudit, seesAllCompanies } from '#domain/access.ts'
import { KevSlaDaysSchema, type Company } from '#domain/companies.ts'
import type { PersonRow } from '#domain/admin-people-calls.ts'
import { CompanyNameSchema } from '#domain/company-admin.ts'
import { formatNumber } from '#domain/numbers.ts'
import type { ScopeEntry } from '#domain/scan-scope.ts'
import { serviceById } from '#domain/services.ts'
import * as v from 'valibot'
import { callLazily } from '~/core/call-lazily'
import { notAsked, useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { AutosaveTextField } from '~/ui/autosave/autosave-text-field'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage } from '~/ui/text-field'
import { LocalTime } from '~/ui/local-time'
import { CompanyAuditTrail } from '../org/audit-trail'
import { Muted, OrgSection } from '../org/org-section'
import { PeopleSearch, ShowMorePeople } from '../people/people-more'
import { levelName, NO_FILTER, peopleRequest, showingLine } from '../people/people-view'
import { usePeople, useSettled } from '../people/use-people'
import { DataTable } from '~/ui/data-table'
import { errorText, FlagsField, type FlagValues } from './flags-field'
import { ScopeEditor } from './scope-editor'

const Back = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  font-size: 14px;
  margin-bottom: 12px;
`

const SearchPeople = styled(PeopleSearch)`
  max-width: 420px;
`

const flagsOf = (company: Company) => Object.fromEntries(COMPANY_FLAGS.map((flag) => [flag, company[flag]])) as FlagValues

const BackToAll = () => (
  <Back to="/admin/company">
    <IconArrowLeft size={16} aria-hidden="true" /> All companies
  </Back>
)

/** The days as typed: empty for none, else whole days (KevSlaDaysSchema says which). */
const kevDaysOfText = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()))

/** The company's SLA policy for findings known to be exploited (CISA KEV). */
function KevSlaField({ slug }: { slug: string }) {
  const read = useLiveData(() => import('./kev-sla-live').then((live) => live.watchKevSlaDays(slug)), [slug])
  if (read.status !== 'ready') return null
  return (
    <AutosaveTextField
      label="Deadline for known exploited findings (days)"
      hint="An open finding that enters CISA's KEV catalogue is due within these days, if that is sooner. Empty: by its severity, as the others."
      inputProps={{ inputMode: 'numeric' }}
      saved={read.data === null ? '' : String(read.data)}
      validate={(value) => {
        const days = kevDaysOfText(value)
        if (days === null) return null
        const parsed = v.safeParse(KevSlaDaysSchema, days)
        return parsed.success ? null : parsed.issues[0].message
      }}
      describeError={errorText}
      save={async (value) => {
        await callLazily('updateCompany', { company: slug, kevSlaDays: kevDaysOfText(value) })
      }}
    />
  )
}

/** A refusal is the server's answer too: the reader may not see such a company. */
const refused = (error: Error | null) => error !== null && 'code' in error && error.code === 'permission-denied'

/**
 * One company. A company the workspace's list does not hold (yet) is read by itself: one just
 * created arrives in that list a moment after its page opens, so the page says it is loading until
 * the server answers, and only the server's answer says there is no such company.
 */
export function CompanyDetail({ slug, workspace }: { slug: string; workspace: Workspace }) {
  const listed = workspace.companies.find((c) => c.slug === slug)
  const unlisted = listed === undefined
  const read = useLiveData(
    () => (unlisted ? import('../org/org-live').then((live) => live.watchCompany(slug)) : notAsked<Company | null>()),
    [slug, unlisted],
  )
  const company = listed ?? (read.status === 'ready' ? read.data : null)
  if (company) return <CompanyPage company={company} workspace={workspace} />
  if (read.status === 'ready' || (read.status === 'failed' && refused(read.error))) {
    return (
      <>
        <BackToAll />
        <OrgSection>
          <h2>No such company</h2>
          <p>There is no company “{slug}”, or it is not among yours.</p>
        </OrgSection>
      </>
    )
  }
  return (
    <>
      <BackToAll />
      <OrgSection>
        <LiveStatus live={read} what="the company" />
      </OrgSection>
    </>
  )
}

function CompanyPage({ company, workspace }: { company: Company; workspace: Workspace }) {
  const slug = company.slug
  return (
    <>
      <BackToAll />
      <OrgSection aria-labelledby="company-title">
        <h2 id="company-title">{company.companyName}</h2>
        <p>Slug: {company.slug}</p>
        <AutosaveTextField
          label="Name"
          saved={company.companyName}
          validate={(value) => {
            const parsed = v.safeParse(CompanyNameSchema, value)
            return parsed.success ? null : parsed.issues[0].message
          }}
          describeError={errorText}
          save={async (companyName) => {
            await callLazily('updateCompany', { company: slug, companyName })
          }}
        />
        <FlagsField
          saved={flagsOf(company)}
          save={async (flags) => {
            await callLazily('updateCompany', { company: slug, flags })
          }}
        />
        <KevSlaField slug={slug} />
      </OrgSection>
      <CompanyScope slug={slug} />
      <CompanyPeople slug={slug} />
      {maySeeCompanyAudit(workspace.access, isMemberOf(workspace, slug)) && <CompanyAuditTrail company={slug} />}
    </>
  )
}

/** Membership as the workspace knows it: its companies are the user's own unless they see every company. */
const isMemberOf = (workspace: Workspace, slug: string) =>
  !seesAllCompanies(workspace.access) && workspace.companies.some((company) => company.slug === slug)

function CompanyScope({ slug }: { slug: string }) {
  const scope = useLiveData(() => import('../org/org-live').then((live) => live.watchScanScope(slug)), [slug])
  const change = async (add: boolean, entry: ScopeEntry) => {
    await callLazily('updateScanScope', add ? { company: slug, add: [entry] } : { company: slug, remove: [entry] })
  }
  return (
    <OrgSection aria-labelledby="scope-title">
      <h2 id="scope-title">Scan scope</h2>
      <p>What analysts and agents may test for this company, and what its DAST keys may name. Nothing else is ever scanned.</p>
      {scope.status !== 'ready' ? (
        <LiveStatus live={scope} what="the scan scope" />
      ) : (
        <ScopeEditor entries={scope.data} onAdd={(entry) => change(true, entry)} onRemove={(entry) => change(false, entry)} />
      )}
    </OrgSection>
  )
}

// The server orders by address across every page: a column sorted in the browser would sort only the pages loaded.
const peopleColumns: ColumnDef<PersonRow, unknown>[] = (
  [
    { id: 'email', header: 'Person', accessorFn: (p) => p.email ?? p.uid, cell: ({ row }) => <PersonCell person={row.original} /> },
    { id: 'type', header: 'Type', accessorFn: (p) => (p.userType === 'analyst' ? 'Analyst' : 'Client') },
    { id: 'level', header: 'Level', accessorFn: (p) => levelName(p.accessLevel) },
    {
      id: 'services',
      header: 'Services enabled',
      accessorFn: (p) => p.servicesEnabled.map((id) => serviceById(id)?.label ?? id).join(', '),
      cell: ({ getValue }) => (getValue() as string) || '—',
    },
    {
      id: 'lastSignIn',
      header: 'Last sign-in',
      accessorFn: (p) => p.lastSignInAt ?? 0,
      cell: ({ row }) => (row.original.lastSignInAt === null ? '—' : <LocalTime at={row.original.lastSignInAt} />),
    },
  ] satisfies ColumnDef<PersonRow, unknown>[]
).map((column) => ({ ...column, enableSorting: false }))

function PersonCell({ person }: { person: PersonRow }) {
  return (
    <span>
      {person.email ?? person.uid}
      {person.displayName && (
        <>
          <br />
          <Muted>{person.displayName}</Muted>
        </>
      )}
      {person.disabled && (
        <>
          {' '}
          <Muted>(disabled)</Muted>
        </>
      )}
    </span>
  )
}

/** The company's people, a page at a time in order of address, as the people lists read them (listUsers). */
function CompanyPeople({ slug }: { slug: string }) {
  const [text, setText] = useState('')
  const settled = useSettled(text)
  const people = usePeople(useMemo(() => peopleRequest(slug, { ...NO_FILTER, text: settled }), [slug, settled]))
  return (
    <OrgSection aria-labelledby="people-title" aria-busy={people.status === 'loading' || people.busy}>
      <h2 id="people-title">People</h2>
      <SearchPeople value={text} onChange={(e) => setText(e.target.value)} />
      {people.status !== 'ready' ? (
        <LiveStatus live={{ status: people.status, retry: people.retry }} what="the people" />
      ) : (
        <>
          {people.error && <FormMessage $tone="error">{people.error}</FormMessage>}
          <p aria-live="polite">
            {showingLine(people.rows.length, people.total)}
            {settled.trim() && ' matching this search'}.{people.next && ' Search by address to narrow them.'}
            {!!people.unlisted &&
              ` ${people.unlisted === 1 ? '1 more is' : `${formatNumber(people.unlisted)} more are`} not listed yet (no address stored).`}
          </p>
          <DataTable
            label="People"
            data={people.rows}
            columns={peopleColumns}
            rowId={(p) => p.uid}
            empty={settled.trim() ? 'Nobody matches this search.' : 'Nobody belongs to this company yet.'}
            pageSize={null}
          />
          <ShowMorePeople people={people} />
        </>
      )}
    </OrgSection>
  )
}
