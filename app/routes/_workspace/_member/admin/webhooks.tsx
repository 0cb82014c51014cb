import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { WebhooksPage } from '~/features/admin/webhooks/webhooks-page'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/webhooks')

export const Route = createFileRoute('/_workspace/_member/admin/webhooks')({
  head: pageHead('/admin/webhooks'),
  component: WebhooksRoute,
})

function WebhooksRoute() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <WebhooksPage workspace={workspace} />}
    </>
  )
}
