// Code loaded after the page (menus, dialogs, charts, listeners) whose fetch failed because the
// connection dropped (it often does just after a page came: on a train, on a phone) is fetched
// again once the browser is back online. Before, such a failure was final: a lazy part took the
// whole page down to its error boundary, and a lazily started listener never started, so the page
// stayed still until a reload.
import { lazy, type ComponentType } from 'react'

const backOnline = () => new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true }))

/** Runs `load`; when it fails while the browser is offline, runs it again once it is back online. */
export async function loadWhenOnline<T>(load: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await load()
    } catch (error) {
      if (typeof navigator === 'undefined' || navigator.onLine) throw error
      await backOnline()
    }
  }
}

/** React.lazy for a part of the page that loads after it, loaded again once back online (above). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy's own signature
export const lazyPart = <T extends ComponentType<any>>(load: () => Promise<{ default: T }>) => lazy(() => loadWhenOnline(load))
