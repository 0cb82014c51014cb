import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/analyst/locations')({
  head: pageHead('/analyst/locations'),
  component: () => <PlannedPage path="/analyst/locations" />,
})
