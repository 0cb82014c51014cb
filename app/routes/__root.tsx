/// <reference types="vite/client" />
import type { ReactNode } from 'react'
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from '@tanstack/react-router'
import { createIsomorphicFn } from '@tanstack/react-start'
import { getCookie } from '@tanstack/react-start/server'
import { brand, pageTitle } from '#domain/brand.ts'
import { DesktopMenuListener } from '~/platform/desktop-menu-listener'
import { DesktopSignInLinks } from '~/platform/desktop-sign-in-links'
import { clientBoot } from '~/core/client-boot'
import type { RouterContext } from '~/core/session'
import { loadRootContext } from '~/core/session.functions'
import { COLOR_SCHEME_KEY, parsePreference, readPreference, schemeAttribute, type ColorSchemePreference } from '~/ui/color-scheme'
import { colorSchemeScript } from '~/ui/color-scheme-script'
import { BareShell } from '~/ui/bare-shell'
import { GlobalStyle } from '~/ui/global-style'
import { NotFoundPage } from '~/ui/not-found-page'
import { brandColorsCss } from '~/ui/theme'
import { Notifications } from '~/ui/notifications/notifications'

/** The server renders `<html data-color-scheme>` from the cookie, so the first paint has the right colours. */
const loadColorScheme = createIsomorphicFn()
  .server((): ColorSchemePreference => parsePreference(getCookie(COLOR_SCHEME_KEY)))
  .client((): ColorSchemePreference => readPreference())

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async () => ({ ...(await loadRootContext()), colorScheme: loadColorScheme() }),
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { name: 'color-scheme', content: 'light dark' },
      { name: 'description', content: `${brand.name}: ${brand.tagline}` },
      { title: pageTitle() },
    ],
    links: [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }],
  }),
  shellComponent: RootDocument,
  // An address outside every area stands alone, with the logo, like the other standalone pages.
  notFoundComponent: () => (
    <BareShell>
      <NotFoundPage />
    </BareShell>
  ),
  component: Root,
})

function Root() {
  // The browser continues from the context the server rendered with.
  clientBoot.init(Route.useRouteContext())
  return (
    <>
      <Outlet />
      <Notifications />
      <DesktopSignInLinks />
      <DesktopMenuListener />
    </>
  )
}

function RootDocument({ children }: { children: ReactNode }) {
  const colorScheme = Route.useRouteContext({ select: (context) => context.colorScheme })
  const brandCss = brandColorsCss(Route.useRouteContext({ select: (context) => context.firebase?.brandColors }))
  return (
    // The head script and setPreference change data-color-scheme before and after hydration;
    // suppressHydrationWarning only covers this element's own attributes.
    <html lang="en" data-color-scheme={schemeAttribute(colorScheme)} suppressHydrationWarning>
      <head>
        <HeadContent />
        <script dangerouslySetInnerHTML={{ __html: colorSchemeScript }} />
        {brandCss && <style dangerouslySetInnerHTML={{ __html: brandCss }} />}
      </head>
      <body>
        <GlobalStyle />
        {children}
        <Scripts />
      </body>
    </html>
  )
}
