// Dropdown menus close a moment after the mouse leaves their panel (the theme's menuCloseDelay): a
// menu used and then left behind does not stay over the page, and a pointer that slips out and back
// within the delay does not close it. Only the panel counts: while a menu is open Radix makes the
// rest of the page inert, so the button it opened from sees the pointer leave at once. Keyboard and
// touch use are unaffected.
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react'
import { timings } from './theme'

interface LeaveHandlers {
  onPointerEnter: (event: PointerEvent) => void
  onPointerLeave: (event: PointerEvent) => void
}

/** A controlled menu's open state, and the handlers for its panel. */
export function useMenuClosingOnLeave(onOpenChange?: (open: boolean) => void): {
  open: boolean
  setOpen: (open: boolean) => void
  pointer: LeaveHandlers
} {
  const [open, setOpenState] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current)
    timer.current = null
  }, [])
  const setOpen = useCallback(
    (next: boolean) => {
      cancel()
      setOpenState(next)
      onOpenChange?.(next)
    },
    [cancel, onOpenChange],
  )
  useEffect(() => cancel, [cancel])
  const pointer: LeaveHandlers = {
    onPointerEnter: (event) => {
      if (event.pointerType === 'mouse') cancel()
    },
    onPointerLeave: (event) => {
      if (event.pointerType !== 'mouse' || !open) return
      cancel()
      timer.current = setTimeout(() => setOpen(false), timings.menuCloseDelay)
    },
  }
  return { open, setOpen, pointer }
}
