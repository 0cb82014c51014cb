import { createFileRoute } from '@tanstack/react-router'
import { pageTitle } from '~/domain/brand'
import { sitePage } from '~/domain/site-map'
import { BareShell } from '~/ui/bare-shell'
import { Notice } from '~/ui/notice'

const page = sitePage('/auth/redirect')

export const Route = createFileRoute('/auth/redirect')({
  head: () => ({ meta: [{ title: pageTitle(page.title) }] }),
  component: AuthRedirect,
})

function AuthRedirect() {
  return (
    <BareShell>
      <Notice title={page.title}>
        <p>Open the sign-in link from your email in this browser to continue.</p>
      </Notice>
    </BareShell>
  )
}
