import { Link } from '@tanstack/react-router'
import { Notice } from './notice'

export function SignInRequired() {
  return (
    <Notice title="You must be signed in">
      <p>This page is for signed-in users.</p>
      <Link to="/">Go to home to sign in</Link>
    </Notice>
  )
}
