import type { ReactNode } from 'react'
import { useRouterState } from '@tanstack/react-router'
import styled, { keyframes } from 'styled-components'
import { brand } from '#domain/brand.ts'
import { Logo, LogoMark } from '~/ui/logo'
import { DarkSchemeOnly, LightSchemeOnly } from '~/ui/scheme-only'
import { layers, sizes } from '~/ui/theme'

const pulse = keyframes`
  50% { opacity: 0.45; transform: scale(0.96); }
`

// Fixed over everything, so it looks the same whichever page's slot it is rendered in.
const Page = styled.div`
  position: fixed;
  inset: 0;
  z-index: ${layers.overlay};
  overflow-y: auto;
  background: var(--color-bg);
  display: grid;
  grid-template-rows: 1fr auto;
`

const Centre = styled.main`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 28px;
  padding: 48px 16px;
`

const Mark = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  color: var(--color-text-muted);

  svg {
    animation: ${pulse} 1.4s ease-in-out infinite;
  }
`

const Footer = styled.footer`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 12px;
  height: ${sizes.footerHeight}px;
  border-top: 1px solid var(--color-border);
  background: var(--color-surface);
`

/**
 * Shown while a page takes longer than the router's pending delay to load: the logo in the
 * middle, `visitorPanel` (the sign-in panel) for visitors who are not signed in, so they can ask
 * for their link meanwhile, and the footer with the logo variant that suits the scheme.
 */
export function LoadingFallback({ visitorPanel }: { visitorPanel: ReactNode }) {
  const signedIn = useRouterState({ select: (state) => Boolean(state.matches[0]?.context?.session) })
  return (
    <Page>
      <Centre>
        <Mark role="status">
          <LogoMark size={64} />
          <span>Loading {brand.name}…</span>
        </Mark>
        {!signedIn && visitorPanel}
      </Centre>
      <Footer>
        <LightSchemeOnly data-testid="logo-light">
          <Logo size={24} variant="light" />
        </LightSchemeOnly>
        <DarkSchemeOnly data-testid="logo-dark">
          <Logo size={24} variant="dark" />
        </DarkSchemeOnly>
      </Footer>
    </Page>
  )
}
