import { createFileRoute } from '@tanstack/react-router'
import { CLIENT_API_OPENAPI } from '#domain/client-api-openapi.ts'
import { forwardToFunction } from '~/server/function-proxy.server'

/**
 * The client API (decision 0050), answered by the clientApi function; its OpenAPI document is
 * served here. The DAST API's /api/v1/dast/* has a route of its own.
 */
export const Route = createFileRoute('/api/v1/$')({
  server: {
    handlers: {
      GET: ({ request }) =>
        new URL(request.url).pathname === '/api/v1/openapi.json'
          ? Response.json(CLIENT_API_OPENAPI, { headers: { 'cache-control': 'public, max-age=300' } })
          : forwardToFunction(request, '/api/v1', 'clientApi'),
      POST: ({ request }) => forwardToFunction(request, '/api/v1', 'clientApi'),
    },
  },
})
