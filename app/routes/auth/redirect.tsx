import { createFileRoute } from '@tanstack/react-router'
import { pageTitle } from '#domain/brand.ts'
import { sitePage } from '#domain/site-map.ts'
import { CompleteSignIn } from '~/features/auth/complete-sign-in'
import { BareShell } from '~/ui/bare-shell'

const page = sitePage('/auth/redirect')

export const Route = createFileRoute('/auth/redirect')({
  // The address carries a one-time sign-in code: never send it on as a referrer.
  head: () => ({ meta: [{ title: pageTitle(page.title) }, { name: 'referrer', content: 'no-referrer' }] }),
  component: () => (
    <BareShell>
      <CompleteSignIn />
    </BareShell>
  ),
})
