// Starting a listener that is imported lazily (it brings the Firebase SDK) and stopping it with
// the component: the shape every live part of the app shares (live-data.ts builds on it). Kept
// apart from live-data.ts so the first page, which needs only this, stays small.
import { useEffect, type DependencyList } from 'react'
import { loadWhenOnline } from '~/ui/lazy-part'
import { afterIdle } from './after-idle'

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)))

/**
 * Runs what `start` subscribes to (after importing it) while the component stays mounted with the
 * same `deps`. A subscription that arrives after the component moved on is stopped at once; one
 * whose import failed offline starts once the browser is back online.
 *
 * Each starts when the browser is next idle, in a task of its own: a page mounts several at once
 * (session, workspace, its data), and importing and starting them all inside React's effects
 * made one long task just as the page became interactive. The server-rendered page shows the
 * data meanwhile.
 */
export function useLazySubscription(
  start: () => Promise<() => void>,
  deps: DependencyList,
  onError: (error: Error) => void = (error) => console.error(error),
): void {
  useEffect(() => {
    let stop: (() => void) | undefined
    let current = true
    const cancel = afterIdle(() =>
      loadWhenOnline(start).then(
        (stopper) => {
          if (current) stop = stopper
          else stopper()
        },
        (error: unknown) => {
          if (current) onError(asError(error))
        },
      ),
    )
    return () => {
      current = false
      cancel()
      stop?.()
    }
    // The caller's deps decide when to start again, as with useEffect (lint checks them at the call).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps)
}
