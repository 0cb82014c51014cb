import { createFileRoute, Outlet } from '@tanstack/react-router'
import styled from 'styled-components'
import { SessionSync } from '~/core/session-sync'
import { CompanySwitcher } from '~/features/auth/company-switcher'
import { UserMenu } from '~/features/auth/user-menu'
import { MainNav } from '~/features/navigation/main-nav'
import { NotificationBell } from '~/features/notifications/notification-bell'
import { ConnectionNotice } from '~/features/shell/connection-notice'
import { VersionPopover } from '~/features/shell/version-popover'
import { HotkeyHint, WorkspaceHotkeys } from '~/features/shell/workspace-hotkeys'
import { ContactButton } from '~/features/support/contact-button'
import { WorkspaceSync } from '~/core/workspace-sync'
import { AppShell, useNavbarState } from '~/ui/app-shell'

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
  return (
    <AppShell
      navbar={navbar}
      nav={<MainNav session={session} workspace={workspace} />}
      headerEnd={
        session && (
          <HeaderEnd>
            <CompanySwitcher session={session} workspace={workspace} />
            <NotificationBell uid={session.uid} />
            <UserMenu session={session} workspace={workspace} />
          </HeaderEnd>
        )
      }
      footer={
        <>
          <HotkeyHint />
          <FooterEnd>
            <ContactButton signedIn={!!session} />
            <VersionPopover />
          </FooterEnd>
        </>
      }
    >
      <WorkspaceHotkeys onToggleMenu={navbar.toggle} />
      {session && <SessionSync uid={session.uid} />}
      {session && <WorkspaceSync session={session} seed={workspace ?? null} />}
      <ConnectionNotice uid={session?.uid ?? null} />
      <Outlet />
    </AppShell>
  )
}
