import { useSyncExternalStore, type ReactNode } from 'react'

const noSubscription = () => () => {}

/** False in the server HTML and during hydration, true once React runs the page in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}

/**
 * Renders `children(hydrated)`. React re-renders whatever reads `useHydrated` right after hydration,
 * in one synchronous pass: a control that waits for the app sits in this leaf so that the pass
 * redraws the control alone, not the long list around it.
 */
export function WhenHydrated({ children }: { children: (hydrated: boolean) => ReactNode }): ReactNode {
  return children(useHydrated())
}
