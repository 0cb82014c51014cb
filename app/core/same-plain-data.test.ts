import { describe, expect, it } from 'vitest'
import { samePlainData } from './same-plain-data'

describe('samePlainData', () => {
  it('compares what listeners give by value', () => {
    expect(samePlainData({ a: [1, { b: 'x' }], c: null }, { a: [1, { b: 'x' }], c: null })).toBe(true)
    expect(samePlainData({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false)
    expect(samePlainData({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(samePlainData([1, 2], [1, 2, 3])).toBe(false)
    expect(samePlainData(new Date(1), new Date(1))).toBe(true)
    expect(samePlainData(new Date(1), new Date(2))).toBe(false)
    expect(samePlainData([], {})).toBe(false)
    expect(samePlainData(Number.NaN, Number.NaN)).toBe(true)
    expect(samePlainData(0, '0')).toBe(false)
  })
})
