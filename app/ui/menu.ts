// The look of dropdown menus (user menu, export menu) and of the round buttons in the header that
// open them; Radix gives the behaviour, these give one appearance.
import { css, keyframes } from 'styled-components'
import { floating } from './surface'
import { layers, timings } from './theme'

const dropIn = keyframes`
  from { opacity: 0; transform: translateY(-4px); }
  to { opacity: 1; transform: none; }
`

/** A menu's floating panel; the menu sets its own width. */
export const menuPanel = css`
  z-index: ${layers.popover};
  padding: 6px;
  ${floating('near')}
  animation: ${dropIn} ${timings.popoverFade}ms ease-out;
`

/** One entry of a menu: highlighted by pointer and keyboard alike, dimmed when disabled. */
export const menuItem = css`
  display: flex;
  align-items: center;
  gap: 10px;
  min-height: 38px;
  padding: 0 10px;
  border-radius: 8px;
  font-size: 14px;
  color: inherit;
  text-decoration: none;
  cursor: pointer;
  outline: none;
  user-select: none;

  &[data-highlighted] {
    background: var(--color-primary-soft);
  }
  &[data-disabled] {
    color: var(--color-text-muted);
    cursor: default;
  }
`

/** A round header button that opens a menu or popover, tinted while open. */
export const headerTrigger = css`
  border-radius: 999px;
  border: 1px solid var(--color-border);
  background: var(--color-surface);
  color: var(--color-text);
  cursor: pointer;

  &:hover,
  &[data-state='open'] {
    background: var(--color-primary-soft);
  }
`
