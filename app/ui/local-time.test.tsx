import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { formatTime, LocalTime, ReaderClockProvider } from './local-time'

describe('formatTime', () => {
  const at = Date.UTC(2026, 10, 20, 23, 30)

  it('writes the time in the reader’s zone: the same moment is another day in Tokyo', () => {
    expect(formatTime(at, 'date', 'en-GB', 'UTC')).toBe('20 Nov 2026')
    expect(formatTime(at, 'date', 'en-GB', 'Asia/Tokyo')).toBe('21 Nov 2026')
  })

  it('writes it in the reader’s language', () => {
    expect(formatTime(at, 'date-time', 'en-GB', 'UTC')).toBe('20 Nov 2026, 23:30')
    expect(formatTime(at, 'date-time', 'en-US', 'UTC')).toBe('Nov 20, 2026, 11:30 PM')
  })

  it('reads ISO text as well as milliseconds', () => {
    expect(formatTime(new Date(at).toISOString(), 'date', 'en-GB', 'UTC')).toBe('20 Nov 2026')
  })
})

describe('LocalTime in the server’s HTML', () => {
  const at = Date.UTC(2026, 10, 20, 23, 30)

  it('is written in the clock the reader’s browser left in a cookie', () => {
    const html = renderToString(
      <ReaderClockProvider value={{ locale: 'en-GB', timeZone: 'Asia/Tokyo' }}>
        <LocalTime at={at} format="date" />
      </ReaderClockProvider>,
    )
    expect(html).toBe('<time dateTime="2026-11-20T23:30:00.000Z">21 Nov 2026</time>')
  })

  it('is empty when the server does not know that clock: no guess shows', () => {
    expect(renderToString(<LocalTime at={at} format="date" />)).toBe('<time dateTime="2026-11-20T23:30:00.000Z"></time>')
  })
})
