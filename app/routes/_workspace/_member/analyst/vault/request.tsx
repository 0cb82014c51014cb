import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/analyst/vault/request')({
  head: pageHead('/analyst/vault/request'),
  component: () => <PlannedPage path="/analyst/vault/request" />,
})
