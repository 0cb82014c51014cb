import { Link, useRouterState } from '@tanstack/react-router'
import { Notice } from './notice'

/** Shown in place of a page that needs sign-in: the way home keeps the page asked for. */
export function SignInRequired() {
  const href = useRouterState({ select: (state) => state.location.href })
  return (
    <Notice title="You must be signed in">
      <p>This page is for signed-in users. Sign in and you will come back here.</p>
      <Link to="/" search={{ next: href }}>
        Go to home to sign in
      </Link>
    </Notice>
  )
}
