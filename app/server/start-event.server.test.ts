import { createServerEntry, handleStartError } from '@tanstack/react-start/server'
import { describe, expect, it } from 'vitest'
import { answeredByStart, currentStartEvent } from './start-event.server'

describe("Start's request event", () => {
  it('is found where Start keeps it, for the request being handled', async () => {
    const request = new Request('http://127.0.0.1/reports')
    let found: unknown
    const entry = createServerEntry({
      fetch: async () => {
        found = currentStartEvent()?.request
        return new Response('page')
      },
    })
    await entry.fetch(request)
    expect(found).toBe(request)
  })

  it('no longer holds the Response Start answered with (in workerd it would keep the whole request alive)', async () => {
    const request = new Request('http://127.0.0.1/reports')
    let event: ReturnType<typeof currentStartEvent>
    let keptWhileAnswering: Response | undefined
    const entry = createServerEntry({
      fetch: (request) =>
        answeredByStart(request, async () => {
          event = currentStartEvent()
          // A Response thrown in the pipeline (a redirect, a refusal) is one Start keeps on its event.
          const response = handleStartError(new Response('page', { status: 403 }))
          keptWhileAnswering = event?.currentResponse
          return response
        }),
    })
    const response = await entry.fetch(request)
    expect(response.status).toBe(403)
    expect(keptWhileAnswering).toBe(response)
    expect(event).toBeDefined()
    expect(event).not.toHaveProperty('currentResponse')
  })
})
