import { createSsrStreamResponse, normalizeSsrResponse, renderRouterToStream } from '@tanstack/react-router/ssr/server'
import { createStartHandler, defineHandlerCallback, StartServer } from '@tanstack/react-start/server'
import { createServerEntry } from '@tanstack/react-start/server-entry'
import { ServerStyleSheet } from 'styled-components'
import { injectStyles } from './server/styled-stream'

/** Start's stream handler, with styled-components collecting the CSS of what it renders. */
const styledStreamHandler = defineHandlerCallback(async ({ request, router, responseHeaders }) => {
  const sheet = new ServerStyleSheet()
  let rendered
  try {
    rendered = normalizeSsrResponse(
      await renderRouterToStream({
        request,
        router,
        responseHeaders,
        children: sheet.collectStyles(<StartServer router={router} />),
      }),
    )
  } catch (error) {
    sheet.seal()
    throw error
  }
  const source = rendered.response.body
  if (!source) {
    sheet.seal()
    return rendered
  }
  const takeStyleTags = () => {
    const tags = sheet.getStyleTags()
    // Start the next batch empty, so each insertion carries only the rules that are new.
    sheet.instance.clearTag()
    return tags
  }
  const body = injectStyles(source, takeStyleTags).pipeThrough(new TransformStream({ flush: () => sheet.seal() }))
  return createSsrStreamResponse(router, new Response(body, rendered.response))
})

export default createServerEntry({ fetch: createStartHandler(styledStreamHandler) })
