import { createContext, useContext, useSyncExternalStore } from 'react'
import { browserReaderClock, sameClock, type ReaderClock } from './reader-clock'

/**
 * The one way the product writes a date or a time: in the reader's own language and time zone.
 * The server knows them only from the cookie the browser left on an earlier visit (reader-clock.ts);
 * without it, what it renders is filled in once the page runs in the browser.
 */
const formats = {
  date: { dateStyle: 'medium' },
  'date-time': { dateStyle: 'medium', timeStyle: 'short' },
  'full-date-time': { dateStyle: 'full', timeStyle: 'short' },
  'date-time-zone': { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' },
  month: { month: 'short', year: '2-digit' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>

export type TimeFormat = keyof typeof formats

const formatters = new Map<string, Intl.DateTimeFormat>()

/** `at` (ms since the epoch, or ISO text) in the reader's locale and zone; `locale`/`timeZone` for tests. */
export function formatTime(at: number | string, format: TimeFormat = 'date-time', locale?: string, timeZone?: string): string {
  const key = `${format}|${locale ?? ''}|${timeZone ?? ''}`
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...formats[format], ...(timeZone ? { timeZone } : {}) })
    formatters.set(key, formatter)
  }
  return formatter.format(new Date(at))
}

// A page's first date formatter loads its language's and time zone's data: on a phone, tens of
// milliseconds inside the hydration's render of the first date on the page. Loaded in a task of
// its own as soon as the page's code runs, it no longer lengthens that render.
if (typeof window !== 'undefined') setTimeout(() => formatTime(0, 'date'), 0)

/** A calendar month key ("2026-03", a UTC month) as the reader's "Mar 26": mid-month, so no zone moves it. */
export const formatMonth = (month: string, locale?: string) => formatTime(`${month}-15T12:00:00Z`, 'month', locale)

const ReaderClockContext = createContext<ReaderClock | null>(null)

/** The reader's clock as the server knew it, for the server's HTML and the hydration that follows it. */
export const ReaderClockProvider = ReaderClockContext.Provider

// This browser's clock, once the page has looked it up and found it differs from the server's (a
// journey, a new language), or the server knew none. Until then every date stays as the server wrote
// it: the page does not redraw its dates when it hydrates, and looks the clock up when it is idle.
let browserClock: ReaderClock | null = null
const clockListeners = new Set<() => void>()
const subscribeToClock = (listener: () => void) => {
  clockListeners.add(listener)
  return () => void clockListeners.delete(listener)
}

/** Writes every date in this browser's clock from now on (the root tells it when it differs from the server's). */
export function setBrowserClock(clock: ReaderClock): void {
  if (sameClock(browserClock, clock)) return
  browserClock = clock
  clockListeners.forEach((listener) => listener())
}

/**
 * `formatTime` for text that is not a `<time>` (an option's label, a chart's category): in the
 * clock the server knew, or this browser's once known to differ. The server's HTML leaves it empty
 * when the server knew no clock, so no guess ever shows.
 */
export function useTimeFormat(): (at: number | string, format?: TimeFormat) => string {
  const serverClock = useContext(ReaderClockContext)
  const clock =
    useSyncExternalStore(
      subscribeToClock,
      // Without the server's clock, the browser's is looked up at once (after hydration, or on a
      // page drawn in the browser alone).
      () => browserClock ?? (serverClock ? null : (browserClock = browserReaderClock())),
      () => null,
    ) ?? serverClock
  return (at, format = 'date') => (clock ? formatTime(at, format, clock.locale, clock.timeZone) : '')
}

/** A `<time>` in the reader's locale and zone. */
export function LocalTime({ at, format = 'date-time' }: { at: number | string; format?: TimeFormat }) {
  const text = useTimeFormat()(at, format)
  return <time dateTime={new Date(at).toISOString()}>{text}</time>
}
