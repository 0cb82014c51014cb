import { createFileRoute } from '@tanstack/react-router'
import { pageTitle } from '#domain/brand.ts'
import { sitePage } from '#domain/site-map.ts'
import { BareShell } from '~/ui/bare-shell'
import { Notice } from '~/ui/notice'

const page = sitePage('/vault/$')

/** Vault links are opened by people who may not have an account, so they stand outside the workspace. */
export const Route = createFileRoute('/vault/$')({
  head: () => ({ meta: [{ title: pageTitle(page.title) }] }),
  component: VaultPage,
})

function VaultPage() {
  return (
    <BareShell>
      <Notice title={page.title}>
        <p>{page.summary}</p>
      </Notice>
    </BareShell>
  )
}
