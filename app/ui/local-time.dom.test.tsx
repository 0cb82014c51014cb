// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LocalTime, ReaderClockProvider, setBrowserClock } from './local-time'

describe('LocalTime in the browser', () => {
  const at = Date.UTC(2026, 10, 20, 23, 30)

  it('keeps the server’s clock until told this browser’s differs, then follows it', () => {
    render(
      <ReaderClockProvider value={{ locale: 'en-GB', timeZone: 'Europe/London' }}>
        <LocalTime at={at} format="date" />
      </ReaderClockProvider>,
    )
    const time = screen.getByText('20 Nov 2026')
    // A journey: the browser is in Tokyo now, where that moment is the next day.
    act(() => setBrowserClock({ locale: 'en-GB', timeZone: 'Asia/Tokyo' }))
    expect(time.textContent).toBe('21 Nov 2026')
  })
})
