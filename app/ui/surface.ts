import { css } from 'styled-components'

/** The raised panel look shared by cards, notices and forms. */
export const surface = css`
  background: var(--color-surface);
  border: 1px solid var(--color-border);
  border-radius: 12px;
`
