import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react'
import { Link, useRouterState } from '@tanstack/react-router'
import { IconMenu2, IconX } from '@tabler/icons-react'
import styled from 'styled-components'
import { Logo } from './logo'
import { ScrollPanel } from './scroll-panel'
import { breakpoints, layers, media, sizes } from './theme'

const mobileQuery = `(max-width: ${breakpoints.mobile - 1}px)`

function subscribeViewport(onChange: () => void): () => void {
  const query = window.matchMedia(mobileQuery)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}

/** Below the small breakpoint; false on the server and during hydration (desktop first). */
function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribeViewport,
    () => window.matchMedia(mobileQuery).matches,
    () => false,
  )
}

export interface NavbarState {
  toggle(): void
  closeOnPhone(): void
  desktopOpen: boolean
  phoneOpen: boolean
}

/**
 * The navbar is open by default on wide screens and collapsed on phones; each keeps its own state,
 * so opening the menu on a phone does not collapse it on the desktop. On phones it closes again
 * when a page is chosen.
 */
export function useNavbarState(): NavbarState {
  const [desktopOpen, setDesktopOpen] = useState(true)
  const [phoneOpen, setPhoneOpen] = useState(false)
  const toggle = useCallback(() => {
    if (window.matchMedia(mobileQuery).matches) setPhoneOpen((open) => !open)
    else setDesktopOpen((open) => !open)
  }, [])
  const closeOnPhone = useCallback(() => setPhoneOpen(false), [])
  const path = useRouterState({ select: (state) => state.location.pathname })
  useEffect(() => setPhoneOpen(false), [path])
  return { toggle, closeOnPhone, desktopOpen, phoneOpen }
}

const Frame = styled.div<{ $desktopOpen: boolean }>`
  min-height: 100vh;
  display: grid;
  grid-template-columns: ${({ $desktopOpen }) => ($desktopOpen ? `${sizes.navbarWidth}px` : '0')} minmax(0, 1fr);
  grid-template-rows: ${sizes.headerHeight}px 1fr ${sizes.footerHeight}px;
  grid-template-areas:
    'header header'
    'navbar main'
    'footer footer';

  ${media.mobile} {
    grid-template-columns: minmax(0, 1fr);
    grid-template-areas: 'header' 'main' 'footer';
  }
`

const Header = styled.header`
  grid-area: header;
  position: sticky;
  top: 0;
  z-index: ${layers.app};
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 16px;
  padding: 0 24px 0 16px;
  background: var(--color-surface);
  border-bottom: 1px solid var(--color-border);

  ${media.mobile} {
    padding: 0 12px;
  }
`

const HeaderStart = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
`

const Burger = styled.button`
  display: inline-grid;
  place-items: center;
  width: 40px;
  height: 40px;
  border-radius: 8px;
  border: 1px solid transparent;
  background: none;
  color: var(--color-text);
  cursor: pointer;

  &:hover {
    background: var(--color-primary-soft);
  }
`

const HomeLink = styled(Link)`
  text-decoration: none;
  border-radius: 8px;
`

const Navbar = styled.aside<{ $desktopOpen: boolean; $phoneOpen: boolean }>`
  grid-area: navbar;
  background: var(--color-surface);
  border-right: 1px solid var(--color-border);
  display: ${({ $desktopOpen }) => ($desktopOpen ? 'block' : 'none')};

  /* On phones the open menu covers the page below the header. */
  ${media.mobile} {
    display: ${({ $phoneOpen }) => ($phoneOpen ? 'block' : 'none')};
    position: fixed;
    inset: ${sizes.headerHeight}px 0 0 0;
    z-index: ${layers.app};
    border-right: none;
    overflow-y: auto;
  }
`

/**
 * The navigation stays in view below the header while a long page scrolls, and scrolls on its own
 * when it is taller than the window. On phones the open menu is the scrolling box itself.
 */
const NavbarScroll = styled(ScrollPanel)`
  position: sticky;
  top: ${sizes.headerHeight}px;
  /* Above the footer too, so that at the page's end its top is not pushed under the header. */
  max-height: calc(100vh - ${sizes.headerHeight + sizes.footerHeight}px);
  max-height: calc(100dvh - ${sizes.headerHeight + sizes.footerHeight}px);

  ${media.mobile} {
    position: static;
    max-height: none;
    overflow: visible;
  }
`

/** The first stop of the keyboard: straight past header and navigation to the page. */
const SkipLink = styled.a`
  position: absolute;
  top: 8px;
  left: 8px;
  z-index: ${layers.overlay};
  padding: 10px 16px;
  border-radius: 8px;
  background: var(--color-primary);
  color: var(--color-primary-text);
  font-weight: 650;
  text-decoration: none;
  transform: translateY(-200%);

  &:focus-visible {
    transform: none;
    outline: 2px solid var(--color-focus);
    outline-offset: 2px;
  }
`

const Main = styled.main`
  grid-area: main;
  padding: 32px;
  min-width: 0;

  /* Focused by the skip link: the page itself needs no frame. */
  &:focus {
    outline: none;
  }

  ${media.mobile} {
    padding: 20px 16px;
  }
`

const Footer = styled.footer`
  grid-area: footer;
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  padding: 0 24px;
  font-size: 13px;
  color: var(--color-text-muted);
  border-top: 1px solid var(--color-border);
  background: var(--color-surface);

  ${media.mobile} {
    padding: 0 12px;
  }
`

/**
 * The burger shows the state of the menu on the viewport in use. It alone reads the viewport: on a
 * phone that reading changes right after hydration, and React redraws its reader synchronously, so
 * the reader is this button and not the whole frame.
 */
function MenuButton({ navbar: { toggle, desktopOpen, phoneOpen } }: { navbar: NavbarState }) {
  const isMobile = useIsMobile()
  const open = isMobile ? phoneOpen : desktopOpen
  return (
    <Burger type="button" aria-label={open ? 'Hide menu' : 'Show menu'} aria-expanded={open} aria-controls="navbar" onClick={toggle}>
      {open && isMobile ? <IconX size={22} aria-hidden="true" /> : <IconMenu2 size={22} aria-hidden="true" />}
    </Burger>
  )
}

/** The workspace frame: header with the menu button and logo, navigation, the page, footer. */
export function AppShell({
  nav,
  navbar,
  headerEnd,
  footer,
  children,
}: {
  nav: ReactNode
  navbar: NavbarState
  headerEnd?: ReactNode
  footer?: ReactNode
  children: ReactNode
}) {
  const { closeOnPhone, desktopOpen, phoneOpen } = navbar
  useEffect(() => {
    if (!phoneOpen) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeOnPhone()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [phoneOpen, closeOnPhone])
  return (
    <Frame $desktopOpen={desktopOpen}>
      <SkipLink href="#main">Skip to content</SkipLink>
      <Header>
        <HeaderStart>
          <MenuButton navbar={navbar} />
          <HomeLink to="/" aria-label="Home">
            <Logo />
          </HomeLink>
        </HeaderStart>
        {headerEnd}
      </Header>
      <Navbar id="navbar" $desktopOpen={desktopOpen} $phoneOpen={phoneOpen}>
        <NavbarScroll>{nav}</NavbarScroll>
      </Navbar>
      <Main id="main" tabIndex={-1}>
        {children}
      </Main>
      <Footer>{footer}</Footer>
    </Frame>
  )
}
