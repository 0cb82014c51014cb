import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { ApiTokensPage } from '~/features/admin/api-tokens/api-tokens-page'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/api-tokens')

export const Route = createFileRoute('/_workspace/_member/admin/api-tokens')({
  head: pageHead('/admin/api-tokens'),
  component: ApiTokensRoute,
})

function ApiTokensRoute() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <ApiTokensPage workspace={workspace} />}
    </>
  )
}
