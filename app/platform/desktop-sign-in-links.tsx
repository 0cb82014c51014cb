import { useEffect } from 'react'
import { useRouter } from '@tanstack/react-router'

/** In the desktop app, opens the sign-in page for each emailed link the app receives. */
export function DesktopSignInLinks() {
  const router = useRouter()
  useEffect(() => {
    let stop: (() => void) | undefined
    let cancelled = false
    void import('./desktop-links').then(async ({ listenForDesktopSignInLinks }) => {
      const unlisten = await listenForDesktopSignInLinks((path) => void router.navigate({ href: path }))
      if (cancelled) unlisten()
      else stop = unlisten
    })
    return () => {
      cancelled = true
      stop?.()
    }
  }, [router])
  return null
}
