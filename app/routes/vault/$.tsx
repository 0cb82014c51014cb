import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { PlannedPage } from '~/features/site/planned-page'

/** Vault links are opened by people who may not have an account, so they stand outside the workspace. */
export const Route = createFileRoute('/vault/$')({
  head: pageHead('/vault/$'),
  component: () => <PlannedPage path="/vault/$" />,
})
