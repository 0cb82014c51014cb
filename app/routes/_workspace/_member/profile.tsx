import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { ActivityList } from '~/features/activity/activity-list'
import { NotificationSettings } from '~/features/notifications/notification-settings'
import { ProfileForm } from '~/features/profile/profile-form'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/profile')

export const Route = createFileRoute('/_workspace/_member/profile')({
  head: pageHead('/profile'),
  component: Profile,
})

function Profile() {
  const { session, workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {session && workspace && <ProfileForm session={session} workspace={workspace} />}
      {session && workspace && <NotificationSettings session={session} workspace={workspace} />}
      {session && <ActivityList uid={session.uid} />}
    </>
  )
}
