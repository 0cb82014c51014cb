import { describe, expect, it } from 'vitest'
import { formatCompactNumber, formatNumber } from './numbers.ts'

const intl = new Intl.NumberFormat('en-GB')

describe('formatNumber', () => {
  it('writes what Intl writes in en-GB', () => {
    const values = [
      0,
      -0,
      1,
      7,
      12,
      999,
      1000,
      1001,
      12_345,
      999_999,
      1_000_000,
      123_456_789_012,
      2 ** 53,
      1e21,
      1.5e22,
      1e23,
      123.456e25,
      -1,
      -1234,
      -1234.5,
      0.1 + 0.2,
      1e-7,
      1.5e-7,
      0.0004,
      0.0005,
      0.0015,
      -0.0001,
      1.0005,
      2.0005,
      1.0015,
      999.9995,
      999_999.9996,
      3.14159,
      12.5,
      0.5,
      1 / 3,
      2 / 3,
      NaN,
      Infinity,
      -Infinity,
    ]
    for (const value of values) expect(formatNumber(value), String(value)).toBe(intl.format(value))
  })

  it('groups thousands and keeps up to three decimals', () => {
    expect(formatNumber(8833)).toBe('8,833')
    expect(formatNumber(1234567.891)).toBe('1,234,567.891')
    expect(formatNumber(1234.56789)).toBe('1,234.568')
    expect(formatNumber(-45.1)).toBe('-45.1')
  })

  it('writes the same as Intl for whole numbers up to a million and for fractions of every size', () => {
    for (let value = 0; value <= 1_000_000; value += 997) expect(formatNumber(value)).toBe(intl.format(value))
    for (let i = 0; i < 5000; i++) {
      const value = Math.sin(i) * 10 ** ((i % 12) - 3)
      expect(formatNumber(value), String(value)).toBe(intl.format(value))
    }
  })
})

describe('formatCompactNumber', () => {
  it('shortens for an axis', () => {
    expect(formatCompactNumber(950)).toBe('950')
    expect(formatCompactNumber(12_300)).toBe('12k')
    expect(formatCompactNumber(2_500_000)).toBe('2.5m')
  })
})
