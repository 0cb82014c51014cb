import { useRouter } from '@tanstack/react-router'
import { useLazySubscription } from '~/core/lazy-subscription'

/** In the desktop app, opens the sign-in page for each emailed link the app receives. */
export function DesktopSignInLinks() {
  const router = useRouter()
  useLazySubscription(
    () => import('./desktop-links').then((links) => links.listenForDesktopSignInLinks((path) => void router.navigate({ href: path }))),
    [router],
  )
  return null
}
