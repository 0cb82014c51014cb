// The dev and preview servers answer a request method the product never uses (TRACE, CONNECT, made-up
// ones) with a plain 405, before Vite or the Worker sees it: a stray request is no error, and never
// reaches Vite's error overlay in the open tabs.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Plugin } from 'vite'

export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

const allowed = new Set<string>(ALLOWED_METHODS)

/** Connect middleware: 405 with an Allow header for any other method, else on to the next. */
export function refuseOtherMethods(request: IncomingMessage, response: ServerResponse, next: () => void): void {
  if (request.method && allowed.has(request.method.toUpperCase())) return next()
  response.statusCode = 405
  response.setHeader('Allow', ALLOWED_METHODS.join(', '))
  response.setHeader('Content-Type', 'text/plain; charset=utf-8')
  response.end('Method Not Allowed\n')
}

export function methodGuard(): Plugin {
  return {
    name: 'method-guard',
    configureServer: (server) => void server.middlewares.use(refuseOtherMethods),
    configurePreviewServer: (server) => void server.middlewares.use(refuseOtherMethods),
  }
}
