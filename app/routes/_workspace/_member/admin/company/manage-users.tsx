import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/admin/company/manage-users')({
  head: pageHead('/admin/company/manage-users'),
  component: () => <PlannedPage path="/admin/company/manage-users" />,
})
