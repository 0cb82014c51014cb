import { useRouter } from '@tanstack/react-router'
import { useLazySubscription } from '~/core/lazy-subscription'
import { notify } from '~/ui/notifications/notifications'

/** In the desktop app, carries out what the person picks in the native menu. */
export function DesktopMenuListener() {
  const router = useRouter()
  useLazySubscription(
    () =>
      import('./desktop-menu').then((menu) =>
        menu.listenToDesktopMenu(async () => {
          try {
            const { signOutEverywhere } = await import('~/core/session-live')
            await signOutEverywhere()
            await router.invalidate()
            await router.navigate({ to: '/' })
          } catch {
            notify({ tone: 'error', title: 'Sign-out failed', message: 'Please try again.' })
          }
        }),
      ),
    [router],
  )
  return null
}
