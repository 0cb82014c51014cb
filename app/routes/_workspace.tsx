import { createFileRoute, Outlet } from '@tanstack/react-router'
import { MainNav } from '~/features/navigation/main-nav'
import { brand, release } from '~/domain/brand'
import { AppShell } from '~/ui/app-shell'

export const Route = createFileRoute('/_workspace')({
  component: WorkspaceLayout,
})

function WorkspaceLayout() {
  const { session } = Route.useRouteContext()
  return (
    <AppShell
      nav={<MainNav session={session} />}
      footer={
        <>
          <span>{brand.name}</span>
          <span>Version {release.version}</span>
        </>
      }
    >
      <Outlet />
    </AppShell>
  )
}
