import { createCsrfMiddleware, createStart } from '@tanstack/react-start'

/** Where Start serves server functions (its default). */
const SERVER_FUNCTIONS_PATH = '/_serverFn/'

export const startInstance = createStart(() => ({
  // Server functions answer only calls from this site's own pages: another site must not be able
  // to plant a session (sign-in CSRF) or end one.
  requestMiddleware: [createCsrfMiddleware({ filter: ({ request }) => new URL(request.url).pathname.startsWith(SERVER_FUNCTIONS_PATH) })],
}))
