import { useState } from 'react'
import { formatWhen, useNow } from './link-time'
import styled from 'styled-components'
import { linkStatus, type LinkStatus, type VaultLink } from '#domain/vault.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { surface } from '~/ui/surface'
import { FormMessage } from '~/ui/text-field'
import { EntryHead, EntryList, Hint } from './vault-styles'

const Section = styled.section`
  ${surface}
  max-width: 720px;
  padding: 20px 24px;

  h2 {
    font-size: 17px;
    margin: 0 0 8px;
  }
`

const Badge = styled.span<{ $status: LinkStatus }>`
  font-size: 12px;
  font-weight: 600;
  padding: 2px 8px;
  border-radius: 999px;
  border: 1px solid var(--color-border);
  color: ${({ $status }) => ($status === 'burned' || $status === 'expired' ? 'var(--color-danger)' : $status === 'waiting' ? 'var(--color-text-muted)' : 'var(--color-success)')};
`

const STATUS_LABEL: Record<LinkStatus, string> = {
  waiting: 'Waiting',
  opened: 'Opened',
  used: 'Opened, no views left',
  expired: 'Expired',
  burned: 'Burned',
}

/** The analyst's share links as they are now: opened (when, from where), expired, burned; revocable while open. */
export function ShareLinksList({ uid }: { uid: string }) {
  const links = useLiveData(() => import('./vault-links-live').then((live) => live.watchVaultLinks(uid)), [uid])
  const now = useNow()
  return (
    <Section aria-labelledby="links-title" aria-busy={links.status === 'loading'}>
      <h2 id="links-title">Your links</h2>
      {links.status !== 'ready' ? (
        <LiveStatus live={links} what="your links" />
      ) : links.data.items.length === 0 ? (
        <Hint>No links yet.</Hint>
      ) : (
        <>
          <EntryList>
            {links.data.items.map((link) => (
              <LinkRow key={link.id} link={link} status={linkStatus(link, now)} />
            ))}
          </EntryList>
          <ListCap shown={links.data.items.length} what="links" onMore={links.data.more} loading={links.data.loading} />
        </>
      )}
    </Section>
  )
}

function LinkRow({ link, status }: { link: VaultLink; status: LinkStatus }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const title = link.label || `Secret for ${link.companyName || link.company}`
  async function revoke() {
    setBusy(true)
    setError(null)
    try {
      await (await import('./share-link-seal')).revokeLink(link.id, link.files)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The link could not be revoked.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <li aria-label={title} data-link-id={link.id}>
      <EntryHead>
        <strong>{title}</strong>
        <Badge $status={status} data-status={status}>
          {STATUS_LABEL[status]}
        </Badge>
      </EntryHead>
      <Hint>
        {link.companyName || link.company} · created {formatWhen(link.createdAt)} · expires {formatWhen(link.expiresAt)} · {link.views} of{' '}
        {link.maxViews} {link.maxViews === 1 ? 'view' : 'views'}
        {link.files > 0 && ` · ${link.files} ${link.files === 1 ? 'file' : 'files'}`}
        {link.passphrase && ' · passphrase'}
        {link.recipient && ` · for ${link.recipient}`}
        {link.failedTries > 0 && ` · ${link.failedTries} wrong ${link.failedTries === 1 ? 'passphrase' : 'passphrases'}`}
      </Hint>
      {link.opens.map((open) => (
        <Hint key={open.at}>
          Opened {formatWhen(open.at)} from {open.ip || 'an unknown address'}, {open.browser || 'unknown browser'}
        </Hint>
      ))}
      {link.state === 'revoked' && (
        <Hint>{link.revokedBy === 'passphrase' ? 'Revoked after five wrong passphrases.' : 'Revoked by you.'}</Hint>
      )}
      {(status === 'waiting' || status === 'opened') && (
        <div>
          <Button type="button" $variant="secondary" disabled={busy} onClick={() => void revoke()}>
            Revoke
          </Button>
        </div>
      )}
      {error && <FormMessage $tone="error">{error}</FormMessage>}
    </li>
  )
}
