import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { PeopleAdmin } from '~/features/admin/people/people-admin'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/app/users')

export const Route = createFileRoute('/_workspace/_member/admin/app/users')({
  head: pageHead('/admin/app/users'),
  component: PlatformUsersPage,
})

function PlatformUsersPage() {
  const { session, workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {session && workspace && <PeopleAdmin actor={workspace.access} uid={session.uid} companies={workspace.companies} company={null} />}
    </>
  )
}
