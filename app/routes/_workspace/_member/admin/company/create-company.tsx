import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { CreateCompanyForm } from '~/features/admin/companies/create-company-form'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/company/create-company')

export const Route = createFileRoute('/_workspace/_member/admin/company/create-company')({
  head: pageHead('/admin/company/create-company'),
  component: () => (
    <>
      <SitePageHeader page={page} />
      <CreateCompanyForm />
    </>
  ),
})
