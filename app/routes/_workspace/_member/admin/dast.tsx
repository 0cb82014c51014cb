import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { DastKeysPage } from '~/features/admin/dast/dast-keys-page'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/dast')

export const Route = createFileRoute('/_workspace/_member/admin/dast')({
  head: pageHead('/admin/dast'),
  component: DastRoute,
})

function DastRoute() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <DastKeysPage workspace={workspace} />}
    </>
  )
}
