import { useState } from 'react'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { IconLogout } from '@tabler/icons-react'
import styled from 'styled-components'
import type { Session } from '~/features/session/session'
import { Button } from '~/ui/button'
import { notify } from '~/ui/notifications/notifications'
import { media } from '~/ui/theme'

const Bar = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  min-width: 0;
`

const Email = styled.span`
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  color: var(--color-text-muted);
  font-size: 14px;

  ${media.mobile} {
    display: none;
  }
`

/** Who is signed in, and the way out. */
export function UserMenu({ session }: { session: Session }) {
  const router = useRouter()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)

  const signOut = async () => {
    setBusy(true)
    try {
      const { signOutEverywhere } = await import('./auth-client')
      await signOutEverywhere()
      await router.invalidate()
      await navigate({ to: '/' })
    } catch {
      notify({ tone: 'error', title: 'Sign-out failed', message: 'Please try again.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Bar>
      <Email title={session.email}>{session.email}</Email>
      <Button type="button" $variant="secondary" onClick={signOut} disabled={busy} aria-busy={busy}>
        <IconLogout size={18} aria-hidden="true" />
        Sign out
      </Button>
    </Bar>
  )
}
