import * as v from 'valibot'
import { isTimeZone } from '#domain/sign-in.ts'
import { cookieAttributes } from './color-scheme'

/**
 * The reader's language and time zone, as their browser last said them. The browser mirrors them
 * in a cookie so the server can write dates as the reader will read them, instead of leaving them
 * empty until the page runs.
 */
export interface ReaderClock {
  locale: string
  timeZone: string
}

export const READER_CLOCK_COOKIE = 'bulwark.clock'

const validLocale = (locale: string) => {
  try {
    return Intl.getCanonicalLocales(locale).length === 1
  } catch {
    return false
  }
}

const ReaderClockSchema = v.object({
  locale: v.pipe(v.string(), v.maxLength(35), v.check(validLocale)),
  timeZone: v.pipe(v.string(), v.maxLength(64), v.check(isTimeZone)),
})

/** The clock a cookie's value names ("locale|zone", URI-encoded); null when absent or not a real one. */
export function parseReaderClock(value: string | null | undefined): ReaderClock | null {
  if (!value || value.length > 200) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(value)
  } catch {
    return null
  }
  const [locale = '', timeZone = '', ...rest] = decoded.split('|')
  if (rest.length > 0) return null
  const parsed = v.safeParse(ReaderClockSchema, { locale, timeZone })
  return parsed.success ? parsed.output : null
}

/** The string to assign to `document.cookie`. */
export const readerClockCookie = (clock: ReaderClock): string =>
  `${READER_CLOCK_COOKIE}=${encodeURIComponent(`${clock.locale}|${clock.timeZone}`)}${cookieAttributes}`

/** This browser's own language and zone, which `formatTime` uses once the page runs. */
export function browserReaderClock(): ReaderClock {
  const { locale, timeZone } = new Intl.DateTimeFormat().resolvedOptions()
  return { locale, timeZone }
}

export const sameClock = (a: ReaderClock | null, b: ReaderClock | null) => a?.locale === b?.locale && a?.timeZone === b?.timeZone
