import { createFileRoute } from '@tanstack/react-router'
import { forwardToFunction } from '~/server/function-proxy.server'

/** The agent API (decision 0021), answered by the agentApi function. */
export const Route = createFileRoute('/api/agents/$')({
  server: {
    handlers: {
      POST: ({ request }) => forwardToFunction(request, '/api/agents', 'agentApi'),
    },
  },
})
