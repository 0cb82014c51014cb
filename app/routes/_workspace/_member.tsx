import { createFileRoute, Outlet } from '@tanstack/react-router'
import { SignInRequired } from '~/ui/sign-in-required'

/** Everything below needs a signed-in user; signed out, the page says so instead. */
export const Route = createFileRoute('/_workspace/_member')({
  component: MemberArea,
})

function MemberArea() {
  const { session } = Route.useRouteContext()
  return session ? <Outlet /> : <SignInRequired />
}
