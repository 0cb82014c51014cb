// Pages that will search a company's findings soon (the dashboard's quick search, a report's
// findings table) ask for its search key once the page is idle: the key comes from a callable,
// and the first search then waits for the search alone. Kept apart from the search client, which
// loads with `import()` only then.
import { useEffect } from 'react'
import { afterIdle } from './after-idle'

export function useFindingsSearchAhead(company: string): void {
  useEffect(
    () =>
      afterIdle(
        () =>
          void import('./findings-search-client').then(
            (m) => m.prepareFindingsSearch(company),
            // Offline, say: the first search loads it again and says what went wrong.
            () => {},
          ),
      ),
    [company],
  )
}
