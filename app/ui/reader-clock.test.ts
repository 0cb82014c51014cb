import { describe, expect, it } from 'vitest'
import { parseReaderClock, readerClockCookie, READER_CLOCK_COOKIE } from './reader-clock'

describe('the reader’s clock in a cookie', () => {
  it('goes into the cookie and comes back the same', () => {
    const clock = { locale: 'pt-BR', timeZone: 'America/Sao_Paulo' }
    const cookie = readerClockCookie(clock)
    expect(cookie.startsWith(`${READER_CLOCK_COOKIE}=pt-BR%7CAmerica%2FSao_Paulo;`)).toBe(true)
    expect(cookie).toContain('SameSite=Lax')
    expect(parseReaderClock(cookie.slice(READER_CLOCK_COOKIE.length + 1, cookie.indexOf(';')))).toEqual(clock)
  })

  it('takes only a real language and a real zone', () => {
    expect(parseReaderClock(encodeURIComponent('en-GB|Europe/London'))).toEqual({ locale: 'en-GB', timeZone: 'Europe/London' })
    expect(parseReaderClock(encodeURIComponent('en-GB|Mars/Olympus'))).toBeNull()
    expect(parseReaderClock(encodeURIComponent('not a locale!|UTC'))).toBeNull()
    expect(parseReaderClock(encodeURIComponent('en-GB|UTC|extra'))).toBeNull()
    expect(parseReaderClock(encodeURIComponent('en-GB'))).toBeNull()
    expect(parseReaderClock('%E0%A4%A')).toBeNull()
    expect(parseReaderClock(`${'a'.repeat(300)}`)).toBeNull()
    expect(parseReaderClock(undefined)).toBeNull()
  })
})
