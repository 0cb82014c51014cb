import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { AdminHub } from '~/features/admin/hub/admin-hub'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin')

export const Route = createFileRoute('/_workspace/_member/admin/')({
  head: pageHead('/admin'),
  component: AdminPage,
})

function AdminPage() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <AdminHub access={workspace.access} company={workspace.company} companies={workspace.companies} />}
    </>
  )
}
