import { Suspense, useEffect } from 'react'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import styled from 'styled-components'
import { SessionSync } from '~/core/session-sync'
import { MainNav } from '~/features/navigation/main-nav'
import { ConnectionNotice } from '~/features/shell/connection-notice'
import { VersionPopover } from '~/features/shell/version-popover'
import { ContactButton } from '~/features/support/contact-button'
import { WorkspaceSync } from '~/core/workspace-sync'
import { afterIdle } from '~/core/after-idle'
import { AppShell, useNavbarState } from '~/ui/app-shell'
import { preloadNotifications } from '~/ui/notifications/notifications'
import { lazyPart } from '~/ui/lazy-part'

// The signed-in header's menus come after the first paint (the server HTML shows them, disabled until
// they hydrate): a visitor never loads them, a member's first load stays small.
const CompanySwitcher = lazyPart(() => import('~/features/auth/company-switcher').then((m) => ({ default: m.CompanySwitcher })))
const NotificationBell = lazyPart(() => import('~/features/notifications/notification-bell').then((m) => ({ default: m.NotificationBell })))
const UserMenu = lazyPart(() => import('~/features/auth/user-menu').then((m) => ({ default: m.UserMenu })))
// The shortcuts too: keys pressed before they load are replayed when they do (color-scheme-script.ts).
const loadHotkeys = () => import('~/features/shell/workspace-hotkeys')
const WorkspaceHotkeys = lazyPart(() => loadHotkeys().then((m) => ({ default: m.WorkspaceHotkeys })))
const HotkeyHint = lazyPart(() => loadHotkeys().then((m) => ({ default: m.HotkeyHint })))

export const Route = createFileRoute('/_workspace')({
  component: WorkspaceLayout,
})

const HeaderEnd = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  min-width: 0;
`

const FooterEnd = styled.div`
  display: flex;
  align-items: center;
  gap: 16px;
`

function WorkspaceLayout() {
  const { session, workspace } = Route.useRouteContext()
  const navbar = useNavbarState()
  const signedIn = session !== null
  useEffect(() => (signedIn ? afterIdle(preloadNotifications) : undefined), [signedIn])
  return (
    <AppShell
      navbar={navbar}
      nav={<MainNav session={session} workspace={workspace} />}
      headerEnd={
        session && (
          <HeaderEnd>
            <Suspense fallback={null}>
              <CompanySwitcher session={session} workspace={workspace} />
              <NotificationBell uid={session.uid} />
              <UserMenu session={session} workspace={workspace} />
            </Suspense>
          </HeaderEnd>
        )
      }
      footer={
        <>
          <Suspense fallback={null}>
            <HotkeyHint />
          </Suspense>
          <FooterEnd>
            <ContactButton signedIn={!!session} />
            <VersionPopover />
          </FooterEnd>
        </>
      }
    >
      <Suspense fallback={null}>
        <WorkspaceHotkeys onToggleMenu={navbar.toggle} />
      </Suspense>
      {session && <SessionSync uid={session.uid} />}
      {session && <WorkspaceSync session={session} seed={workspace ?? null} />}
      <ConnectionNotice uid={session?.uid ?? null} />
      <Outlet />
    </AppShell>
  )
}
