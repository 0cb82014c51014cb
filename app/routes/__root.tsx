/// <reference types="vite/client" />
import { useEffect, type ReactNode } from 'react'
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from '@tanstack/react-router'
import { createIsomorphicFn } from '@tanstack/react-start'
import { getCookie } from '@tanstack/react-start/server'
import { brand, pageTitle } from '#domain/brand.ts'
import { DesktopMenuListener } from '~/platform/desktop-menu-listener'
import { DesktopSignInLinks } from '~/platform/desktop-sign-in-links'
import { afterIdle } from '~/core/after-idle'
import { clientBoot } from '~/core/client-boot'
import type { RouterContext } from '~/core/session'
import { loadRootContext } from '~/core/session.functions'
import { COLOR_SCHEME_KEY, parsePreference, readPreference, schemeAttribute, type ColorSchemePreference } from '~/ui/color-scheme'
import { colorSchemeScript } from '~/ui/color-scheme-script'
import { BareShell } from '~/ui/bare-shell'
import { GlobalStyle } from '~/ui/global-style'
import { ReaderClockProvider, setBrowserClock } from '~/ui/local-time'
import { NotFoundPage } from '~/ui/not-found-page'
import {
  browserReaderClock,
  parseReaderClock,
  READER_CLOCK_COOKIE,
  readerClockCookie,
  sameClock,
  type ReaderClock,
} from '~/ui/reader-clock'
import { brandColorsCss } from '~/ui/theme'
import { Notifications } from '~/ui/notifications/notifications'

/** The server renders `<html data-color-scheme>` from the cookie, so the first paint has the right colours. */
const loadColorScheme = createIsomorphicFn()
  .server((): ColorSchemePreference => parsePreference(getCookie(COLOR_SCHEME_KEY)))
  .client((): ColorSchemePreference => readPreference())

let thisBrowsersClock: ReaderClock | undefined

/** The server writes dates in the reader's language and zone when an earlier visit left them in a cookie. */
const loadReaderClock = createIsomorphicFn()
  .server((): ReaderClock | null => parseReaderClock(getCookie(READER_CLOCK_COOKIE)))
  // One object for the page's life, so a navigation does not re-render every date.
  .client((): ReaderClock | null => (thisBrowsersClock ??= browserReaderClock()))

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async () => ({ ...(await loadRootContext()), colorScheme: loadColorScheme(), readerClock: loadReaderClock() }),
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
  const serverClock = Route.useRouteContext({ select: (context) => context.readerClock })
  useEffect(
    // When this browser's clock is not the one the server wrote the dates in (a first visit, a
    // journey, a new language), the dates follow it and the server is told it for the next page.
    // (Without a clock from the server the dates already took the browser's as they hydrated.)
    () =>
      afterIdle(() => {
        const clock = browserReaderClock()
        if (sameClock(clock, serverClock)) return
        document.cookie = readerClockCookie(clock)
        setBrowserClock(clock)
      }),
    [serverClock],
  )
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
  const readerClock = Route.useRouteContext({ select: (context) => context.readerClock })
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
        <ReaderClockProvider value={readerClock}>{children}</ReaderClockProvider>
        <Scripts />
      </body>
    </html>
  )
}
