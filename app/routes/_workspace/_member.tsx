import { createFileRoute, Outlet } from '@tanstack/react-router'
import { pageAccess, type PageAccess } from '~/features/navigation/page-access'
import { AccessDenied } from '~/ui/access-denied'
import { SignInRequired } from '~/ui/sign-in-required'

/**
 * Everything below needs a signed-in user whom the permission module lets open the page; anyone
 * else is told so here (on the server and in the browser), with a way home. The guard is for people:
 * the data itself is protected by the server functions, callables and Firestore rules.
 */
export const Route = createFileRoute('/_workspace/_member')({
  beforeLoad: ({ context, matches }): { pageAccess: PageAccess } => {
    const page: { routeId: string; params: unknown } | undefined = matches[matches.length - 1]
    return { pageAccess: page ? pageAccess(page.routeId, page.params as Record<string, string>, context) : 'denied' }
  },
  component: MemberArea,
})

function MemberArea() {
  const { pageAccess: access } = Route.useRouteContext()
  if (access === 'signed-out') return <SignInRequired />
  if (access === 'denied') return <AccessDenied />
  return <Outlet />
}
