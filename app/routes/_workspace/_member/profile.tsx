import { createFileRoute } from '@tanstack/react-router'
import { pageTitle } from '#domain/brand.ts'
import { sitePage } from '#domain/site-map.ts'
import { ActivityList } from '~/features/activity/activity-list'
import { ProfileForm } from '~/features/profile/profile-form'
import { PageHeader } from '~/ui/page-header'

const page = sitePage('/profile')

export const Route = createFileRoute('/_workspace/_member/profile')({
  head: () => ({ meta: [{ title: pageTitle(page.title) }] }),
  component: Profile,
})

function Profile() {
  const { session, workspace } = Route.useRouteContext()
  return (
    <>
      <PageHeader title={page.title} summary={page.summary} />
      {session && workspace && <ProfileForm session={session} workspace={workspace} />}
      {session && <ActivityList uid={session.uid} />}
    </>
  )
}
