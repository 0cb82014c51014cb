import { IconCloudOff } from '@tabler/icons-react'
import styled from 'styled-components'
import { useConnection } from '~/core/connection'
import { useLazySubscription } from '~/core/lazy-subscription'
import { colors } from '~/ui/theme'

const Notice = styled.p`
  display: flex;
  align-items: center;
  gap: 8px;
  margin: 0 0 16px;
  padding: 10px 14px;
  border-radius: 8px;
  border: 1px solid ${colors.warning};
  background: color-mix(in srgb, ${colors.warning} 12%, transparent);
  color: ${colors.text};
`

/**
 * Says so while the database is out of reach: what the person types stays on the page and is saved
 * when the connection returns, and live figures resume by themselves.
 */
export function ConnectionNotice({ uid }: { uid: string | null }) {
  useLazySubscription(
    () => (uid ? import('~/core/connection-live').then((live) => live.watchDatabaseReach(uid)) : Promise.resolve(() => undefined)),
    [uid],
  )
  if (useConnection() === 'online') return null
  return (
    <Notice role="status" data-testid="connection-notice">
      <IconCloudOff size={18} aria-hidden="true" />
      Offline: your changes are kept on this page and saved when the connection returns.
    </Notice>
  )
}
