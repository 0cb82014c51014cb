import { createFileRoute } from '@tanstack/react-router'
import { CompleteSignIn } from '~/features/auth/complete-sign-in'
import { pageHead } from '~/features/site/page-head'
import { BareShell } from '~/ui/bare-shell'

export const Route = createFileRoute('/auth/redirect')({
  // The address carries a one-time sign-in code: never send it on as a referrer.
  head: pageHead('/auth/redirect', { name: 'referrer', content: 'no-referrer' }),
  component: () => (
    <BareShell>
      <CompleteSignIn />
    </BareShell>
  ),
})
