// Work a page does only for what the reader comes near (the data of a long table further down):
// a phone's first seconds then go to what is on its screen.
import { useEffect, useRef, useState, type RefObject } from 'react'

/**
 * Calls `onNear` once `element` is on the screen or within `ahead` of it (a CSS length: "300px", or
 * "100%" of the screen's height); at once where nothing can tell. Returns the function that stops
 * watching.
 */
function onNearScreen(element: Element, ahead: string, onNear: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    onNear()
    return () => {}
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return
      observer.disconnect()
      onNear()
    },
    { rootMargin: `${ahead} 0px` },
  )
  observer.observe(element)
  return () => observer.disconnect()
}

/** The ref to put on an element, and whether it has come near the screen (it stays true after). */
export function useNearScreen<E extends Element>(ahead: string): [RefObject<E | null>, boolean] {
  const ref = useRef<E>(null)
  const [near, setNear] = useState(false)
  useEffect(() => {
    if (near || !ref.current) return
    return onNearScreen(ref.current, ahead, () => setNear(true))
  }, [ahead, near])
  return [ref, near]
}
