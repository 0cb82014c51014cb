/// <reference types="vite/client" />
import type { ReactNode } from 'react'
import { createRootRouteWithContext, HeadContent, Scripts } from '@tanstack/react-router'
import { brand, pageTitle } from '~/domain/brand'
import type { RouterContext } from '~/features/session/session'
import { GlobalStyle } from '~/ui/global-style'

export const Route = createRootRouteWithContext<RouterContext>()({
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
})

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
