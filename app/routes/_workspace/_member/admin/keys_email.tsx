import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/admin/keys_email')({
  head: pageHead('/admin/keys_email'),
  component: () => <PlannedPage path="/admin/keys_email" />,
})
