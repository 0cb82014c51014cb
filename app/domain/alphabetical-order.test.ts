import { describe, expect, it } from 'vitest'
import { alphabeticalOrder, alphabeticalOrderFields, alphabeticalOrderKeys } from './alphabetical-order.ts'

describe('alphabeticalOrder', () => {
  it('orders texts as numbers that sort as the text does, on its first 30 characters', () => {
    const texts = [
      'Banner disclosure',
      'banner',
      'Cross-site scripting',
      'Ça va',
      'https://a.example/x',
      'https://a.example/y',
      '10.0.0.2',
      'z',
    ]
    const key = (text: string) => alphabeticalOrder(text)
    const compare = (a: string, b: string) => {
      const [x, y] = [key(a), key(b)]
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
    }
    expect([...texts].sort(compare)).toEqual([
      '10.0.0.2',
      'banner',
      'Banner disclosure',
      'Ça va',
      'Cross-site scripting',
      'https://a.example/x',
      'https://a.example/y',
      'z',
    ])
    expect(alphabeticalOrder('a'.repeat(30) + 'b')).toEqual(alphabeticalOrder('a'.repeat(30) + 'c'))
    for (const part of alphabeticalOrder('z'.repeat(30))) expect(Number.isSafeInteger(part)).toBe(true)
  })

  it('names the record fields and the ranking keys alike', () => {
    const fields = alphabeticalOrderFields('title', 'Banner')
    expect(Object.keys(fields)).toEqual(alphabeticalOrderKeys('title'))
    expect(Object.values(fields)).toEqual(alphabeticalOrder('Banner'))
  })
})
