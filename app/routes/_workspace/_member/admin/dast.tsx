import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/admin/dast')({
  head: pageHead('/admin/dast'),
  component: () => <PlannedPage path="/admin/dast" />,
})
