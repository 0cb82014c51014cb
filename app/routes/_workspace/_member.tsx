import { createFileRoute, Outlet } from '@tanstack/react-router'
import { answerPageWith } from '~/core/response-status'
import { isUnknownPage, pageAccess, type PageAccess } from '~/features/navigation/page-access'
import { AccessDenied } from '~/ui/access-denied'
import { NotFoundPage } from '~/ui/not-found-page'
import { SignInRequired } from '~/ui/sign-in-required'

/**
 * Everything below needs a signed-in user whom the permission module lets open the page; anyone
 * else is told so here (on the server and in the browser), with a way home. The guard is for people:
 * the data itself is protected by the server functions, callables and Firestore rules.
 */
export const Route = createFileRoute('/_workspace/_member')({
  beforeLoad: ({ context, matches }): { pageAccess: PageAccess | 'not-found' } => {
    const page: { routeId: string; params: unknown } | undefined = matches[matches.length - 1]
    // An address that names no page (an unknown service) is not found, for everyone: not "no access".
    // The page's own loader answers it with a 404.
    if (page && isUnknownPage(page.routeId, page.params as Record<string, string>)) return { pageAccess: 'not-found' }
    const access = page ? pageAccess(page.routeId, page.params as Record<string, string>, context) : 'denied'
    if (access === 'denied') answerPageWith(403)
    return { pageAccess: access }
  },
  component: MemberArea,
})

function MemberArea() {
  const { pageAccess: access } = Route.useRouteContext()
  if (access === 'not-found') return <NotFoundPage />
  if (access === 'signed-out') return <SignInRequired />
  if (access === 'denied') return <AccessDenied />
  return <Outlet />
}
