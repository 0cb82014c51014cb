import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/reports/')({
  head: pageHead('/reports'),
  component: () => <PlannedPage path="/reports" />,
})
