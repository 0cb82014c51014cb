import styled, { css } from 'styled-components'

// Decided by CSS alone, like the palette (global-style.ts), so the server HTML is already right.
const darkByAttribute = `:root[data-color-scheme='dark'] &`
const darkBySystem = `:root:not([data-color-scheme='light']) &`

const displayBy = (light: string, dark: string) => css`
  display: ${light};
  ${darkByAttribute} {
    display: ${dark};
  }
  @media (prefers-color-scheme: dark) {
    ${darkBySystem} {
      display: ${dark};
    }
  }
`

/** Shown only while the page is light. */
export const LightSchemeOnly = styled.span`
  ${displayBy('contents', 'none')}
`

/** Shown only while the page is dark. */
export const DarkSchemeOnly = styled.span`
  ${displayBy('none', 'contents')}
`
