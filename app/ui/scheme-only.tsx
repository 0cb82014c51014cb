import styled from 'styled-components'

// Decided by CSS alone, like the palette (global-style.ts), so the server HTML is already right.
const darkByAttribute = `:root[data-color-scheme='dark'] &`
const darkBySystem = `:root:not([data-color-scheme='light']) &`

/** Shown only while the page is light. */
export const LightSchemeOnly = styled.span`
  display: contents;
  ${darkByAttribute} {
    display: none;
  }
  @media (prefers-color-scheme: dark) {
    ${darkBySystem} {
      display: none;
    }
  }
`

/** Shown only while the page is dark. */
export const DarkSchemeOnly = styled.span`
  display: none;
  ${darkByAttribute} {
    display: contents;
  }
  @media (prefers-color-scheme: dark) {
    ${darkBySystem} {
      display: contents;
    }
  }
`
