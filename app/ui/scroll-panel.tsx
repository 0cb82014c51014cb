// A box that scrolls on its own with a thin bar that shows while the pointer is over it or it
// scrolls, and hides the theme's scrollHideDelay after both have stopped: long panels such as the
// navigation keep the page's look instead of a permanent system scrollbar. Keyboard, wheel and touch
// scroll as usual. Plain CSS scrollbars and a timer on the element itself: the shell is in every
// page's first load.
import { useRef, type ReactNode } from 'react'
import styled from 'styled-components'
import { timings } from './theme'

const BAR = 'color-mix(in srgb, var(--color-text-muted) 55%, transparent)'

const Box = styled.div`
  overflow-y: auto;
  overscroll-behavior: contain;
  scrollbar-width: thin;
  scrollbar-color: transparent transparent;

  &[data-bars] {
    scrollbar-color: ${BAR} transparent;
  }

  /* WebKit (the desktop shell) reads these instead of scrollbar-color. */
  &::-webkit-scrollbar {
    width: 8px;
  }
  &::-webkit-scrollbar-thumb {
    border-radius: 8px;
  }
  &[data-bars]::-webkit-scrollbar-thumb {
    background: ${BAR};
  }
`

/** The scrolling element: the panel using it sets its height or max-height through `className`. */
export function ScrollPanel({ className, children }: { className?: string; children: ReactNode }) {
  const hiding = useRef<ReturnType<typeof setTimeout>>(undefined)
  const inside = useRef(false)
  // Shown at once; hidden the delay after, unless shown again meanwhile.
  const bars = (element: HTMLElement, shown: boolean) => {
    clearTimeout(hiding.current)
    element.dataset.bars = ''
    if (!shown) hiding.current = setTimeout(() => delete element.dataset.bars, timings.scrollHideDelay)
  }
  return (
    <Box
      className={className}
      data-scroll-panel=""
      onPointerEnter={(event) => bars(event.currentTarget, (inside.current = true))}
      onPointerLeave={(event) => bars(event.currentTarget, (inside.current = false))}
      onScroll={(event) => bars(event.currentTarget, inside.current)}
    >
      {children}
    </Box>
  )
}
