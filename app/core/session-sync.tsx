import { useRouter } from '@tanstack/react-router'
import { useLazySubscription } from './lazy-subscription'

/**
 * While someone is signed in, keeps the edge session and the page in step with Firebase Auth:
 * new tokens go to the edge, a revocation signs out at once, and guards re-run on every change.
 */
export function SessionSync({ uid }: { uid: string }) {
  const router = useRouter()
  useLazySubscription(
    () => import('./session-live').then((live) => live.watchSession(() => void router.invalidate())),
    // A new person signed in: their own watch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [uid, router],
  )
  return null
}
