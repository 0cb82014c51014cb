/// <reference types="vite/client" />
import type { ReactNode } from 'react'
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from '@tanstack/react-router'
import { brand, pageTitle } from '~/domain/brand'
import { DesktopSignInLinks } from '~/features/auth/desktop-sign-in-links'
import { clientBoot } from '~/features/session/client-boot'
import type { RouterContext } from '~/features/session/session'
import { loadRootContext } from '~/features/session/session.functions'
import { GlobalStyle } from '~/ui/global-style'
import { Notifications } from '~/ui/notifications/notifications'

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: () => loadRootContext(),
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
    </>
  )
}

function RootDocument({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        <GlobalStyle />
        {children}
        <Scripts />
      </body>
    </html>
  )
}
