import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { sitePage } from '#domain/site-map.ts'
import { CompaniesList } from '~/features/admin/companies/companies-list'
import { CompanyDetail } from '~/features/admin/companies/company-detail'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/company')

// The company opened, readable in the address bar.
const SearchSchema = v.object({ company: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/))) })

export const Route = createFileRoute('/_workspace/_member/admin/company/')({
  validateSearch: (search) => {
    const parsed = v.safeParse(SearchSchema, search)
    return parsed.success ? parsed.output : {}
  },
  head: pageHead('/admin/company'),
  component: CompaniesPage,
})

function CompaniesPage() {
  const { workspace } = Route.useRouteContext()
  const { company } = Route.useSearch()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && (company ? <CompanyDetail slug={company} workspace={workspace} /> : <CompaniesList companies={workspace.companies} />)}
    </>
  )
}
