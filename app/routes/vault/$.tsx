import { createFileRoute } from '@tanstack/react-router'
import { pageHead } from '~/features/site/page-head'
import { AnswerRequest } from '~/features/vault/answer-request'
import { RevealShare } from '~/features/vault/reveal-share'
import { BareShell } from '~/ui/bare-shell'

/**
 * Vault links are opened by people who may not have an account, so they stand outside the
 * workspace: /vault/s/<id>#<key> is a share link, /vault/r/<id>#<public key>.<secret> a request link. The Worker sends these pages with their own
 * headers (app/server.tsx).
 */
export const Route = createFileRoute('/vault/$')({
  head: pageHead('/vault/$', { name: 'robots', content: 'noindex' }, { name: 'referrer', content: 'no-referrer' }),
  component: VaultPage,
})

function VaultPage() {
  const { _splat: rest = '' } = Route.useParams()
  const request = /^r\/([^/]+)$/.exec(rest)
  if (request) {
    return (
      <BareShell>
        <AnswerRequest id={request[1]!} />
      </BareShell>
    )
  }
  // Any other address under /vault/ is a link cut short: the page says so.
  const share = /^s\/([^/]+)$/.exec(rest)
  return (
    <BareShell>
      <RevealShare id={share?.[1] ?? ''} />
    </BareShell>
  )
}
