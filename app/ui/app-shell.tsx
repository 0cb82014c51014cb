import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { Logo } from './logo'
import { media, sizes } from './theme'

const Frame = styled.div<{ $menuOpen: boolean }>`
  min-height: 100vh;
  display: grid;
  grid-template-columns: ${({ $menuOpen }) => ($menuOpen ? `${sizes.navbarWidth}px` : '0')} minmax(0, 1fr);
  grid-template-rows: ${sizes.headerHeight}px 1fr ${sizes.footerHeight}px;
  grid-template-areas:
    'header header'
    'navbar main'
    'footer footer';

  ${media.mobile} {
    grid-template-columns: minmax(0, 1fr);
    grid-template-rows: ${sizes.headerHeight}px auto 1fr ${sizes.footerHeight}px;
    grid-template-areas: 'header' 'navbar' 'main' 'footer';
  }
`

const Header = styled.header`
  grid-area: header;
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 16px;
  padding: 0 24px;
  background: var(--color-surface);
  border-bottom: 1px solid var(--color-border);

  ${media.mobile} {
    padding: 0 16px;
  }
`

const HomeLink = styled(Link)`
  text-decoration: none;
  border-radius: 8px;
`

const Navbar = styled.aside`
  grid-area: navbar;
  overflow: hidden;
  background: var(--color-surface);
  border-right: 1px solid var(--color-border);

  ${media.mobile} {
    border-right: none;
    border-bottom: 1px solid var(--color-border);
  }
`

const Main = styled.main`
  grid-area: main;
  padding: 32px;
  min-width: 0;

  ${media.mobile} {
    padding: 20px 16px;
  }
`

const Footer = styled.footer`
  grid-area: footer;
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: 0 24px;
  font-size: 13px;
  color: var(--color-text-muted);
  border-top: 1px solid var(--color-border);
  background: var(--color-surface);
`

/** The workspace frame: header with the logo, navigation, the page, footer. */
export function AppShell({
  nav,
  menuOpen = true,
  headerEnd,
  footer,
  children,
}: {
  nav: ReactNode
  menuOpen?: boolean
  headerEnd?: ReactNode
  footer?: ReactNode
  children: ReactNode
}) {
  return (
    <Frame $menuOpen={menuOpen}>
      <Header>
        <HomeLink to="/" aria-label="Home">
          <Logo />
        </HomeLink>
        {headerEnd}
      </Header>
      <Navbar hidden={!menuOpen}>{nav}</Navbar>
      <Main id="main">{children}</Main>
      <Footer>{footer}</Footer>
    </Frame>
  )
}
