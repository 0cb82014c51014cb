// Times as the vault pages say them, a clock that ticks so links turn expired on screen without a
// write, and the key taken out of the address bar once a link page has read it.
import { useEffect, useState } from 'react'
import { formatTime } from '~/ui/local-time'

/** "24 Nov 2026, 20:15": the analyst's lists. */
export const formatWhen = (at: number) => formatTime(at, 'date-time')

/** "Tuesday, 24 November 2026 at 20:15": a recipient's page, where the date is the news. */
export const formatWhenFull = (at: number) => formatTime(at, 'full-date-time')

/** Now, ticking each minute. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** Takes the key out of the address bar (history keeps what was typed, but the bar no longer shows it). */
export const dropKey = () => window.history.replaceState(window.history.state, '', window.location.pathname)
