import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { AgentsPanel } from '~/features/fleet/agents-panel'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/analyst/agents')

export const Route = createFileRoute('/_workspace/_member/analyst/agents')({
  head: pageHead('/analyst/agents'),
  component: () => (
    <>
      <SitePageHeader page={page} />
      <AgentsPanel />
    </>
  ),
})
