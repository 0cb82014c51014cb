import { Link } from '@tanstack/react-router'
import { Notice } from './notice'

export function NotFoundPage() {
  return (
    <Notice title="Page not found">
      <p>There is no page at this address.</p>
      <Link to="/">Go to home</Link>
    </Notice>
  )
}
