import { createRouter } from '@tanstack/react-router'
import { routeTree } from './routeTree.gen'
import { parseSearch, stringifySearch } from './core/search-params'
import { NotFoundPage } from './ui/not-found-page'
import { ErrorPage } from './ui/error-page'
import { SignInPanel } from './features/auth/sign-in-panel'
import { LoadingFallback } from './features/shell/loading-fallback'

export function getRouter() {
  return createRouter({
    routeTree,
    context: { session: null },
    scrollRestoration: true,
    defaultPreload: 'intent',
    // Lists as repeated keys (?severity=high&severity=critical): addresses people can read and share.
    parseSearch,
    stringifySearch,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: ErrorPage,
    // Only when a page takes longer than the router's pending delay (1 s) to load.
    defaultPendingComponent: () => <LoadingFallback visitorPanel={<SignInPanel />} />,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}
