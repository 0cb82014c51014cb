import { createIsomorphicFn } from '@tanstack/react-start'
import { setResponseStatus } from '@tanstack/react-start/server'

/**
 * The HTTP status of the server's render of the page being loaded, so a browser, crawler or proxy
 * is told what the person is told (a page they may not open is 403). In the browser the page has
 * been answered already: nothing to do.
 */
export const answerPageWith = createIsomorphicFn()
  .server((status: number) => setResponseStatus(status))
  .client(() => {})
