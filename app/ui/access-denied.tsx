import { Link } from '@tanstack/react-router'
import { Notice } from './notice'

export function AccessDenied() {
  return (
    <Notice title="You don't have access to this page">
      <p>Your account or your company's services don't include it. Ask your administrator if you need it.</p>
      <Link to="/">Go to home</Link>
    </Notice>
  )
}
