import { useHydrated } from './use-hydrated'

/**
 * The one way the product writes a date or a time: in the reader's own language and time zone.
 * The server knows neither, so what it renders is filled in once the page runs in the browser.
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

/**
 * `formatTime` for text that is not a `<time>` (an option's label, a chart's category): empty
 * until the page runs in the browser, like `LocalTime`.
 */
export function useTimeFormat(): (at: number | string, format?: TimeFormat) => string {
  const hydrated = useHydrated()
  return (at, format = 'date') => (hydrated ? formatTime(at, format) : '')
}

/** A `<time>` in the reader's locale and zone; empty in the server's HTML, so no guess ever shows. */
export function LocalTime({ at, format = 'date-time' }: { at: number | string; format?: TimeFormat }) {
  const hydrated = useHydrated()
  return <time dateTime={new Date(at).toISOString()}>{hydrated ? formatTime(at, format) : ''}</time>
}
