import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { AnalystDesk } from '~/features/analyst/desk/analyst-desk'
import { HubLinks } from '~/features/navigation/hub-links'
import { accessContext, areaPages } from '~/features/navigation/nav-items'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/analyst')

export const Route = createFileRoute('/_workspace/_member/analyst/')({
  head: pageHead('/analyst'),
  component: Desk,
})

function Desk() {
  const { session, workspace } = Route.useRouteContext()
  const items = session ? areaPages('/analyst', accessContext(session, workspace)) : []
  return (
    <>
      <SitePageHeader page={page} />
      <HubLinks label="Analyst pages" items={items} />
      <AnalystDesk key={workspace?.company?.slug ?? ''} workspace={workspace} />
    </>
  )
}
