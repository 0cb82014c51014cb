// Every company, live (the workspace follows them all for those who manage companies): search,
// sort and open one.
import { Link } from '@tanstack/react-router'
import type { ColumnDef } from '@tanstack/react-table'
import { IconPlus } from '@tabler/icons-react'
import styled from 'styled-components'
import { COMPANY_FLAGS } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import { serviceEnabledFor } from '#domain/access.ts'
import { services } from '#domain/services.ts'
import { OrgSection } from '../org/org-section'
import { DataTable } from '~/ui/data-table'

const CreateLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 38px;
  padding: 0 16px;
  border-radius: 8px;
  font-weight: 600;
  background: var(--color-primary);
  color: var(--color-primary-text);
  text-decoration: none;
`

const servicesOf = (company: Company) =>
  services
    .filter((service) => serviceEnabledFor(company, service.id))
    .map((service) => service.label)
    .join(', ')

const columns: ColumnDef<Company, unknown>[] = [
  {
    id: 'name',
    header: 'Company',
    accessorFn: (c) => c.companyName,
    cell: ({ row }) => (
      <Link to="/admin/company" search={{ company: row.original.slug }}>
        {row.original.companyName}
      </Link>
    ),
  },
  { id: 'slug', header: 'Slug', accessorFn: (c) => c.slug },
  { id: 'services', header: 'Services', accessorFn: servicesOf, cell: ({ getValue }) => (getValue() as string) || '—' },
  { id: 'switches', header: 'Switches on', accessorFn: (c) => COMPANY_FLAGS.filter((flag) => c[flag]).length },
]

export function CompaniesList({ companies }: { companies: Company[] }) {
  return (
    <OrgSection aria-labelledby="companies-title">
      <h2 id="companies-title">Companies</h2>
      <DataTable
        label="Companies"
        data={companies}
        columns={columns}
        rowId={(c) => c.slug}
        filterLabel="Search companies"
        empty="No companies yet."
        actions={
          <CreateLink to="/admin/company/create-company">
            <IconPlus size={16} aria-hidden="true" />
            Create company
          </CreateLink>
        }
      />
    </OrgSection>
  )
}
