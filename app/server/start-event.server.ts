// Start keeps each request's state in an AsyncLocalStorage "event", and the last Response of its
// pipeline on it (`currentResponse`). In workerd a value stored with AsyncLocalStorage lives as
// long as the async context it was stored in, and a Response holds the context it was made in (to
// read its body there later): event → Response → context → event is then a cycle no collection
// ends, and every request's event, router and rendered page stayed in the isolate for good (the
// memory growth under `npm run bench:load`; TanStack/router#5289 and #7402 report such growth of SSR
// under load on other runtimes).
// Once Start has answered, only getResponseStatus() and getResponseHeader(s)() would read it there,
// which the app does not call (what they would tell is already sent).
import type { AsyncLocalStorage } from 'node:async_hooks'

/** Where Start (`@tanstack/start-server-core`) keeps its request events. */
const EVENT_STORAGE = Symbol.for('tanstack-start:event-storage')

interface StartEvent {
  request: Request
  currentResponse?: Response
}

/** Start's event for the request being handled here, if there is one. */
export function currentStartEvent(): StartEvent | undefined {
  const storage = (globalThis as Record<symbol, AsyncLocalStorage<StartEvent> | undefined>)[EVENT_STORAGE]
  return storage?.getStore()
}

/** Runs Start's handler, then lets go of the Response its event keeps. */
export async function answeredByStart(request: Request, handle: () => Response | Promise<Response>): Promise<Response> {
  const event = currentStartEvent()
  try {
    return await handle()
  } finally {
    if (event?.request === request) delete event.currentResponse
  }
}
