import { createSsrStreamResponse, normalizeSsrResponse, renderRouterToStream } from '@tanstack/react-router/ssr/server'
import { createStartHandler, defineHandlerCallback, StartServer } from '@tanstack/react-start/server'
import { createServerEntry } from '@tanstack/react-start/server-entry'
import { ServerStyleSheet } from 'styled-components'
import { colorSchemeScript } from './ui/color-scheme-script'
import { publicConfig, serverConfig } from './server/config.server'
import { isAppRequest } from './server/origin-guard.server'
import { answeredByStart } from './server/start-event.server'
import { keepStyleRules } from './server/kept-style-rules'
import { injectStyles } from './server/styled-stream'
import {
  appConnectOrigins,
  firebaseOrigins,
  isVaultPage,
  newNonce,
  pageHeaders,
  scriptHash,
  vaultHeaders,
  withWorkerHeaders,
} from './server/vault-headers.server'

// The runtime finds the Durable Object classes among the entry's exports (wrangler.toml).
export { VaultFileLedger } from './server/vault-file-ledger-object.server'

let colorSchemeHash: Promise<string> | undefined

/** The headers of a page, whose inline scripts then carry `nonce`: /vault/… pages have their own, stricter ones. */
async function securityHeaders(pathname: string, nonce: string): Promise<Record<string, string>> {
  colorSchemeHash ??= scriptHash(colorSchemeScript)
  const hashes = [await colorSchemeHash]
  if (isVaultPage(pathname)) return vaultHeaders(nonce, hashes, firebaseOrigins(publicConfig()))
  return pageHeaders(pathname, nonce, hashes, appConnectOrigins(publicConfig(), serverConfig().searchHosts))
}

/** Start's stream handler, with styled-components collecting the CSS of what it renders. */
const styledStreamHandler = defineHandlerCallback(async ({ request, router, responseHeaders }) => {
  // Every page: the router gives its inline scripts the nonce the page's policy allows.
  const nonce = newNonce()
  router.options.ssr = { ...router.options.ssr, nonce }
  // The router made its hydration script writer before this callback, from the options it had
  // then; it reads its nonce only when it writes, so it gets the same one (tests/e2e/headers.spec.ts
  // and vault.spec.ts check every inline script carries it).
  const hydration = (router as { serverSsr?: { hydrationScripts?: { nonce?: string } } }).serverSsr?.hydrationScripts
  if (hydration) hydration.nonce = nonce
  for (const [name, value] of Object.entries(await securityHeaders(new URL(request.url).pathname, nonce))) responseHeaders.set(name, value)
  const sheet = new ServerStyleSheet()
  keepStyleRules(sheet.instance)
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

const startHandler = createStartHandler(styledStreamHandler)

/** Reads a body to its end without keeping it. */
async function discard(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader()
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing left to read.
  }
}

export default createServerEntry({
  fetch: async (request, options) => {
    // Only requests addressed to the app: a foreign Host (DNS rebinding, a misrouted proxy) would
    // otherwise reach the router's absolute redirects and the CSRF check's idea of "this origin".
    if (!isAppRequest(request, serverConfig())) {
      return withWorkerHeaders(new Response('Misdirected request', { status: 421, headers: { 'Content-Type': 'text/plain' } }))
    }
    const response = await answeredByStart(request, () => startHandler(request, options))
    // A request refused before its body was read (CSRF, media type) gets it read to the end: the
    // local runtime's proxy otherwise sees the connection cut under it and answers 500 instead.
    if (request.body && !request.bodyUsed) await discard(request.body)
    return withWorkerHeaders(response)
  },
})
