import { useEffect } from 'react'
import { useRouter } from '@tanstack/react-router'

/**
 * While someone is signed in, keeps the edge session and the page in step with Firebase Auth:
 * new tokens go to the edge, a revocation signs out at once, and guards re-run on every change.
 */
export function SessionSync({ uid }: { uid: string }) {
  const router = useRouter()
  useEffect(() => {
    let stop: (() => void) | undefined
    let cancelled = false
    void import('./session-live').then(({ watchSession }) => {
      if (cancelled) return
      stop = watchSession(() => void router.invalidate())
    })
    return () => {
      cancelled = true
      stop?.()
    }
  }, [uid, router])
  return null
}
