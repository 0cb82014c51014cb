import { createSsrStreamResponse, normalizeSsrResponse, renderRouterToStream } from '@tanstack/react-router/ssr/server'
import { createStartHandler, defineHandlerCallback, StartServer } from '@tanstack/react-start/server'
import { createServerEntry } from '@tanstack/react-start/server-entry'
import { ServerStyleSheet } from 'styled-components'
import { colorSchemeScript } from './ui/color-scheme-script'
import { publicConfig } from './server/config.server'
import { injectStyles } from './server/styled-stream'
import { firebaseOrigins, isVaultPage, newNonce, scriptHash, vaultHeaders } from './server/vault-headers.server'

let colorSchemeHash: Promise<string> | undefined

/** The headers of a /vault/… page, whose inline scripts then carry `nonce`. */
async function vaultPageHeaders(nonce: string): Promise<Record<string, string>> {
  colorSchemeHash ??= scriptHash(colorSchemeScript)
  return vaultHeaders(nonce, [await colorSchemeHash], firebaseOrigins(publicConfig()))
}

/** Start's stream handler, with styled-components collecting the CSS of what it renders. */
const styledStreamHandler = defineHandlerCallback(async ({ request, router, responseHeaders }) => {
  // Vault pages: the router gives its inline scripts the nonce their policy allows.
  const vault = isVaultPage(new URL(request.url).pathname)
  if (vault) {
    const nonce = newNonce()
    router.options.ssr = { ...router.options.ssr, nonce }
    // The router made its hydration script writer before this callback, from the options it had
    // then; it reads its nonce only when it writes, so it gets the same one (tests/e2e/vault.spec.ts
    // checks every inline script carries it).
    const hydration = (router as { serverSsr?: { hydrationScripts?: { nonce?: string } } }).serverSsr?.hydrationScripts
    if (hydration) hydration.nonce = nonce
    for (const [name, value] of Object.entries(await vaultPageHeaders(nonce))) responseHeaders.set(name, value)
  }
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
