import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { pageHead, SitePageHeader } from '~/features/site/page-head'
import { RequestForm } from '~/features/vault/request-form'
import { RequestsList } from '~/features/vault/requests-list'
import { VaultKeyPanel } from '~/features/vault/vault-key-panel'

const page = sitePage('/analyst/vault/request')

export const Route = createFileRoute('/_workspace/_member/analyst/vault/request')({
  head: pageHead('/analyst/vault/request'),
  component: RequestPage,
})

function RequestPage() {
  const { session, workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <RequestForm workspace={workspace} />}
      {session && <RequestsList uid={session.uid} company={workspace?.company ?? null} />}
      {session && <VaultKeyPanel uid={session.uid} />}
    </>
  )
}
