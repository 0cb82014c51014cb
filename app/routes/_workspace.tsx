import { useState } from 'react'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import styled from 'styled-components'
import { showsCompanyName } from '~/domain/access.ts'
import { brand, release } from '~/domain/brand'
import { SessionSync } from '~/features/auth/session-sync'
import { UserMenu } from '~/features/auth/user-menu'
import { MainNav } from '~/features/navigation/main-nav'
import { HotkeyHint, WorkspaceHotkeys } from '~/features/shell/workspace-hotkeys'
import { ContactButton } from '~/features/support/contact-button'
import { CompanySwitcher } from '~/features/workspace/company-switcher'
import { WorkspaceSync } from '~/features/workspace/workspace-sync'
import { AppShell } from '~/ui/app-shell'
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
  const [menuOpen, setMenuOpen] = useState(true)
  return (
    <AppShell
      menuOpen={menuOpen}
      nav={<MainNav session={session} workspace={workspace} />}
      headerEnd={
        session && (
          <HeaderEnd>
            {workspace?.company && showsCompanyName(workspace.access) && (
              <CompanyName data-testid="company-name">{workspace.company.companyName}</CompanyName>
            )}
            {workspace && <CompanySwitcher session={session} workspace={workspace} />}
            <UserMenu session={session} />
          </HeaderEnd>
        )
      }
      footer={
        <>
          <HotkeyHint />
          <FooterEnd>
            {session && <ContactButton />}
            <span>
              {brand.name} · Version {release.version}
            </span>
          </FooterEnd>
        </>
      }
    >
      <WorkspaceHotkeys onToggleMenu={() => setMenuOpen((open) => !open)} />
      {session && <SessionSync uid={session.uid} />}
      {session && <WorkspaceSync session={session} seed={workspace ?? null} />}
      <Outlet />
    </AppShell>
  )
}
