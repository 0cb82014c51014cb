import { createContext, useContext } from 'react'
import type { ReaderClock } from './reader-clock'
import { useHydrated } from './use-hydrated'

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

/** A calendar month key ("2026-03", a UTC month) as the reader's "Mar 26": mid-month, so no zone moves it. */
export const formatMonth = (month: string, locale?: string) => formatTime(`${month}-15T12:00:00Z`, 'month', locale)

const ReaderClockContext = createContext<ReaderClock | null>(null)

/** The reader's clock as the server knew it, for the server's HTML and the hydration that follows it. */
export const ReaderClockProvider = ReaderClockContext.Provider

/**
 * `formatTime` for text that is not a `<time>` (an option's label, a chart's category). Before the
 * page runs in the browser: in the clock the server knew, or empty, so no guess ever shows.
 */
export function useTimeFormat(): (at: number | string, format?: TimeFormat) => string {
  const hydrated = useHydrated()
  const clock = useContext(ReaderClockContext)
  return (at, format = 'date') => {
    if (hydrated) return formatTime(at, format)
    return clock ? formatTime(at, format, clock.locale, clock.timeZone) : ''
  }
}

/** A `<time>` in the reader's locale and zone. */
export function LocalTime({ at, format = 'date-time' }: { at: number | string; format?: TimeFormat }) {
  const text = useTimeFormat()(at, format)
  return <time dateTime={new Date(at).toISOString()}>{text}</time>
}
