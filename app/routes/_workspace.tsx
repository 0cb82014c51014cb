import { createFileRoute, Outlet } from '@tanstack/react-router'
import styled from 'styled-components'
import { showsCompanyName } from '~/domain/access.ts'
import { brand, release } from '~/domain/brand'
import { SessionSync } from '~/features/auth/session-sync'
import { UserMenu } from '~/features/auth/user-menu'
import { MainNav } from '~/features/navigation/main-nav'
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
  return (
    <AppShell
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
          <span>{brand.name}</span>
          <span>Version {release.version}</span>
        </>
      }
    >
      {session && <SessionSync uid={session.uid} />}
      {session && <WorkspaceSync session={session} seed={workspace ?? null} />}
      <Outlet />
    </AppShell>
  )
}
