import { createFileRoute } from '@tanstack/react-router'
import { forwardToFunction } from '~/server/function-proxy.server'

/** The DAST API for clients' CI pipelines (decision 0021), answered by the dastApi function. */
export const Route = createFileRoute('/api/v1/dast/$')({
  server: {
    handlers: {
      GET: ({ request }) => forwardToFunction(request, '/api/v1/dast', 'dastApi'),
      POST: ({ request }) => forwardToFunction(request, '/api/v1/dast', 'dastApi'),
    },
  },
})
