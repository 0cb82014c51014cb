import { css } from 'styled-components'

/** The raised panel look shared by cards, notices and forms. */
export const surface = css`
  background: var(--color-surface);
  border: 1px solid var(--color-border);
  border-radius: 12px;
`

/** What floats above the page (menus, popovers, dialogs): the raised surface with a shadow. */
export const floating = (shadow: 'near' | 'far') => css`
  border-radius: 12px;
  border: 1px solid var(--color-border);
  background: var(--color-surface-raised);
  color: var(--color-text);
  box-shadow: ${shadow === 'near' ? '0 12px 32px rgb(0 0 0 / 0.18)' : '0 16px 48px rgb(0 0 0 / 0.24)'};
`
