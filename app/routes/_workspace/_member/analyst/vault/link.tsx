import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { pageHead, SitePageHeader } from '~/features/site/page-head'
import { ShareLinkForm } from '~/features/vault/share-link-form'
import { ShareLinksList } from '~/features/vault/share-links-list'

const page = sitePage('/analyst/vault/link')

export const Route = createFileRoute('/_workspace/_member/analyst/vault/link')({
  head: pageHead('/analyst/vault/link'),
  component: ShareLinkPage,
})

function ShareLinkPage() {
  const { session, workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <ShareLinkForm workspace={workspace} />}
      {session && <ShareLinksList uid={session.uid} />}
    </>
  )
}
