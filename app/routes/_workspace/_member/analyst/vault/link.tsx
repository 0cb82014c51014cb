import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/analyst/vault/link')({
  head: pageHead('/analyst/vault/link'),
  component: () => <PlannedPage path="/analyst/vault/link" />,
})
