import { isNotFound, isRedirect } from '@tanstack/react-router'
import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { plainError } from '~/core/plain-error'

// Server functions answer only calls from this site's own pages: another site must not be able to
// plant a session (sign-in CSRF) or end one. The filter goes by what Start routes on (the decoded
// path), not the raw URL: `/%5FserverFn/<id>` runs the same function. The Worker refuses any Host
// that is not the app's before this runs, so the Origin comparison cannot be steered by it.
const csrf = createCsrfMiddleware({ filter: ({ handlerType }) => handlerType === 'serverFn' })

// Start takes any content type that merely contains "application/json" as JSON, and
// "text/plain; application/json" is one a page on a sibling site may send without a preflight.
const jsonBodiesOnly = createMiddleware().server(({ request, handlerType, next }) => {
  const type = request.headers.get('Content-Type')
  if (handlerType === 'serverFn' && type !== null && type.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
    return new Response('Unsupported media type', { status: 415 })
  }
  return next()
})

// A failed server function reaches the browser as its message alone: no stack, no cause chain.
const plainErrors = createMiddleware({ type: 'function' }).server(async ({ next }) => {
  try {
    return await next()
  } catch (error) {
    if (error instanceof Response || isRedirect(error) || isNotFound(error)) throw error
    throw plainError(error)
  }
})

export const startInstance = createStart(() => ({
  requestMiddleware: [csrf, jsonBodiesOnly],
  functionMiddleware: [plainErrors],
}))
