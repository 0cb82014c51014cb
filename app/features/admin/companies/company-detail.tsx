// One company: its name and service switches (autosaved, live), its scan scope, its people and,
// for those allowed, its audit trail.
import { useEffect, useState } from 'react'
import { Link } from '@tanstack/react-router'
import type { ColumnDef } from '@tanstack/react-table'
import { IconArrowLeft } from '@tabler/icons-react'
import styled from 'styled-components'
import { COMPANY_FLAGS, maySeeCompanyAudit, seesAllCompanies } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import { CompanyNameSchema, type CompanyPerson } from '#domain/company-admin.ts'
import type { ScopeEntry } from '#domain/scan-scope.ts'
import { serviceById } from '#domain/services.ts'
import * as v from 'valibot'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { AutosaveTextField } from '~/ui/autosave/autosave-text-field'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage } from '~/ui/text-field'
import { LocalTime } from '~/ui/local-time'
import { CompanyAuditTrail } from '../org/audit-trail'
import { Muted, OrgSection } from '../org/org-section'
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

const flagsOf = (company: Company) => Object.fromEntries(COMPANY_FLAGS.map((flag) => [flag, company[flag]])) as FlagValues

async function callable() {
  return (await import('~/core/call')).call
}

export function CompanyDetail({ slug, workspace }: { slug: string; workspace: Workspace }) {
  const company = workspace.companies.find((c) => c.slug === slug)
  if (!company) {
    return (
      <>
        <Back to="/admin/company">
          <IconArrowLeft size={16} aria-hidden="true" /> All companies
        </Back>
        <OrgSection>
          <h2>No such company</h2>
          <p>There is no company “{slug}”, or it is not among yours.</p>
        </OrgSection>
      </>
    )
  }
  return (
    <>
      <Back to="/admin/company">
        <IconArrowLeft size={16} aria-hidden="true" /> All companies
      </Back>
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
            await (
              await callable()
            )('updateCompany', { company: slug, companyName })
          }}
        />
        <FlagsField
          saved={flagsOf(company)}
          save={async (flags) => {
            await (
              await callable()
            )('updateCompany', { company: slug, flags })
          }}
        />
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
    const call = await callable()
    await call('updateScanScope', add ? { company: slug, add: [entry] } : { company: slug, remove: [entry] })
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

const peopleColumns: ColumnDef<CompanyPerson, unknown>[] = [
  { id: 'email', header: 'Person', accessorFn: (p) => p.email ?? p.uid, cell: ({ row }) => <PersonCell person={row.original} /> },
  { id: 'type', header: 'Type', accessorFn: (p) => (p.userType === 'analyst' ? 'Analyst' : 'Client') },
  { id: 'level', header: 'Level', accessorFn: (p) => p.accessLevel ?? 0 },
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
]

function PersonCell({ person }: { person: CompanyPerson }) {
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

type PeopleState = { status: 'loading' } | { status: 'ready'; people: CompanyPerson[] } | { status: 'failed'; message: string }

function CompanyPeople({ slug }: { slug: string }) {
  const [state, setState] = useState<PeopleState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let current = true
    setState({ status: 'loading' })
    void callable()
      .then((call) => call('listCompanyPeople', { company: slug }))
      .then(
        ({ people }) => current && setState({ status: 'ready', people }),
        (error: unknown) => current && setState({ status: 'failed', message: errorText(error) }),
      )
    return () => {
      current = false
    }
  }, [slug, attempt])
  return (
    <OrgSection aria-labelledby="people-title" aria-busy={state.status === 'loading'}>
      <h2 id="people-title">People</h2>
      {state.status === 'loading' && <Muted role="status">Loading the people…</Muted>}
      {state.status === 'failed' && (
        <>
          <FormMessage $tone="error">{state.message}</FormMessage>
          <div>
            <Button type="button" $variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Retry
            </Button>
          </div>
        </>
      )}
      {state.status === 'ready' && (
        <DataTable
          label="People"
          data={state.people}
          columns={peopleColumns}
          rowId={(p) => p.uid}
          filterLabel="Search people"
          empty="Nobody belongs to this company yet."
        />
      )}
    </OrgSection>
  )
}
