import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { PeopleAdmin } from '~/features/admin/people/people-admin'
import { pageHead, SitePageHeader } from '~/features/site/page-head'
import { Notice } from '~/ui/notice'

const page = sitePage('/admin/company/manage-users')

export const Route = createFileRoute('/_workspace/_member/admin/company/manage-users')({
  head: pageHead('/admin/company/manage-users'),
  component: CompanyUsersPage,
})

function CompanyUsersPage() {
  const { session, workspace } = Route.useRouteContext()
  const company = workspace?.company
  return (
    <>
      <SitePageHeader page={page} />
      {session && workspace && company ? (
        <PeopleAdmin key={company.slug} actor={workspace.access} uid={session.uid} companies={workspace.companies} company={company} />
      ) : (
        <Notice title="No company selected">Choose a company in the user menu to manage its people.</Notice>
      )}
    </>
  )
}
