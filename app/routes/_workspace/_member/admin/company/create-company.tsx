import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/admin/company/create-company')({
  head: pageHead('/admin/company/create-company'),
  component: () => <PlannedPage path="/admin/company/create-company" />,
})
