import { createFileRoute, Outlet } from '@tanstack/react-router'
import { brand, release } from '~/domain/brand'
import { SessionSync } from '~/features/auth/session-sync'
import { UserMenu } from '~/features/auth/user-menu'
import { MainNav } from '~/features/navigation/main-nav'
import { AppShell } from '~/ui/app-shell'

export const Route = createFileRoute('/_workspace')({
  component: WorkspaceLayout,
})

function WorkspaceLayout() {
  const { session } = Route.useRouteContext()
  return (
    <AppShell
      nav={<MainNav session={session} />}
      headerEnd={session && <UserMenu session={session} />}
      footer={
        <>
          <span>{brand.name}</span>
          <span>Version {release.version}</span>
        </>
      }
    >
      {session && <SessionSync uid={session.uid} />}
      <Outlet />
    </AppShell>
  )
}
