import { Link, type ErrorComponentProps } from '@tanstack/react-router'
import { Button } from './button'
import { Notice } from './notice'

export function ErrorPage({ reset }: ErrorComponentProps) {
  return (
    <Notice title="Something went wrong">
      <p>The page could not be shown. Try again, or go back home.</p>
      <p>
        <Button type="button" $variant="secondary" onClick={reset}>
          Try again
        </Button>{' '}
        <Link to="/">Go to home</Link>
      </p>
    </Notice>
  )
}
