import { createGlobalStyle } from 'styled-components'
import { fonts, paletteCss } from './theme'

/**
 * The palette follows the system scheme unless the document says otherwise through
 * `data-color-scheme`, so the server HTML is already in the right colours.
 */
export const GlobalStyle = createGlobalStyle`
  :root {
    color-scheme: light;
    ${paletteCss('light')}
  }
  @media (prefers-color-scheme: dark) {
    :root:not([data-color-scheme='light']) {
      color-scheme: dark;
      ${paletteCss('dark')}
    }
  }
  :root[data-color-scheme='dark'] {
    color-scheme: dark;
    ${paletteCss('dark')}
  }

  *, *::before, *::after { box-sizing: border-box; }
  html, body { margin: 0; padding: 0; }
  body {
    min-height: 100vh;
    background: var(--color-bg);
    color: var(--color-text);
    font-family: ${fonts.body};
    font-size: 15px;
    line-height: 1.5;
    -webkit-font-smoothing: antialiased;
  }
  a { color: var(--color-primary); }
  :focus-visible {
    outline: 2px solid var(--color-focus);
    outline-offset: 2px;
  }
  h1, h2, h3 { line-height: 1.25; margin: 0 0 0.5em; }
  p { margin: 0 0 1em; }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { transition-duration: 0.01ms !important; animation-duration: 0.01ms !important; }
  }
`
