// A box that scrolls on its own with thin bars that show while the pointer is over it or it scrolls,
// and hide the theme's scrollHideDelay after (Radix ScrollArea): long panels such as the navigation
// keep the page's look instead of a permanent system scrollbar. Keyboard and wheel scroll as usual.
import type { ReactNode } from 'react'
import { ScrollArea } from 'radix-ui'
import styled from 'styled-components'
import { timings } from './theme'

const Root = styled(ScrollArea.Root)`
  overflow: hidden;
`

/** The scrolling element: its height (or max-height) is set by the panel using it. */
export const ScrollPanelViewport = styled(ScrollArea.Viewport)`
  width: 100%;
  overscroll-behavior: contain;
`

const Bar = styled(ScrollArea.Scrollbar)`
  display: flex;
  width: 10px;
  padding: 2px;
  user-select: none;
  touch-action: none;
`

const Thumb = styled(ScrollArea.Thumb)`
  flex: 1;
  position: relative;
  border-radius: 8px;
  background: color-mix(in srgb, var(--color-text-muted) 55%, transparent);

  /* A larger target than the thin thumb it draws. */
  &::before {
    content: '';
    position: absolute;
    top: 50%;
    left: 50%;
    width: 100%;
    height: 100%;
    min-width: 24px;
    min-height: 24px;
    transform: translate(-50%, -50%);
  }
`

/** `viewport` is the scrolling element (ScrollPanelViewport styled with its height). */
export function ScrollPanel({
  className,
  viewport: Viewport = ScrollPanelViewport,
  children,
}: {
  className?: string
  viewport?: typeof ScrollPanelViewport
  children: ReactNode
}) {
  return (
    <Root className={className} type="hover" scrollHideDelay={timings.scrollHideDelay}>
      <Viewport>{children}</Viewport>
      <Bar orientation="vertical">
        <Thumb />
      </Bar>
    </Root>
  )
}
