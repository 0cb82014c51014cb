import { createFileRoute, Outlet } from '@tanstack/react-router'
import styled from 'styled-components'
import { showsCompanyName } from '#domain/access.ts'
import { SessionSync } from '~/core/session-sync'
import { UserMenu } from '~/features/auth/user-menu'
import { MainNav } from '~/features/navigation/main-nav'
import { NotificationBell } from '~/features/notifications/notification-bell'
import { VersionPopover } from '~/features/shell/version-popover'
import { HotkeyHint, WorkspaceHotkeys } from '~/features/shell/workspace-hotkeys'
import { ContactButton } from '~/features/support/contact-button'
import { WorkspaceSync } from '~/core/workspace-sync'
import { AppShell, useNavbarState } from '~/ui/app-shell'
import { media } from '~/ui/theme'

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

const CompanyName = styled.span`
  font-weight: 650;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;

  ${media.mobile} {
    display: none;
  }
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
            {workspace?.company && showsCompanyName(workspace.access) && (
              <CompanyName data-testid="company-name">{workspace.company.companyName}</CompanyName>
            )}
            <NotificationBell uid={session.uid} />
            <UserMenu session={session} workspace={workspace} />
          </HeaderEnd>
        )
      }
      footer={
        <>
          <HotkeyHint />
          <FooterEnd>
            {session && <ContactButton />}
            <VersionPopover />
          </FooterEnd>
        </>
      }
    >
      <WorkspaceHotkeys onToggleMenu={navbar.toggle} />
      {session && <SessionSync uid={session.uid} />}
      {session && <WorkspaceSync session={session} seed={workspace ?? null} />}
      <Outlet />
    </AppShell>
  )
}
