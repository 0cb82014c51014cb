import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { EmailKeysAdmin } from '~/features/admin/email-keys/email-keys-admin'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/keys_email')

export const Route = createFileRoute('/_workspace/_member/admin/keys_email')({
  head: pageHead('/admin/keys_email'),
  component: EmailKeysPage,
})

function EmailKeysPage() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      {workspace && <EmailKeysAdmin companies={workspace.companies} />}
    </>
  )
}
