import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { AnalystDesk } from '~/features/analyst/desk/analyst-desk'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/analyst')

export const Route = createFileRoute('/_workspace/_member/analyst/')({
  head: pageHead('/analyst'),
  component: Desk,
})

function Desk() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      <AnalystDesk key={workspace?.company?.slug ?? ''} workspace={workspace} />
    </>
  )
}
