import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { listParam, parseSearch, stringifySearch } from './search-params'

describe('search params', () => {
  it('writes lists as repeated keys and reads them back', () => {
    const text = stringifySearch({ severity: ['high', 'critical'], q: 'sql', page: 2, empty: undefined })
    expect(text).toBe('?severity=high&severity=critical&q=sql&page=2')
    expect(parseSearch(text)).toEqual({ severity: ['high', 'critical'], q: 'sql', page: 2 })
  })

  it('keeps text that looks like a number as text', () => {
    expect(stringifySearch({ q: '2024' })).toBe('?q=%222024%22')
    expect(parseSearch(stringifySearch({ q: '2024' }))).toEqual({ q: '2024' })
  })

  it('reads a key given once as a list of one, and drops what does not fit', () => {
    const schema = v.object({ tag: listParam(v.pipe(v.string(), v.maxLength(5))) })
    expect(v.parse(schema, parseSearch('?tag=xss'))).toEqual({ tag: ['xss'] })
    expect(v.parse(schema, parseSearch('?tag=2024&tag=tls'))).toEqual({ tag: ['2024', 'tls'] })
    expect(v.parse(schema, parseSearch('?tag=far-too-long'))).toEqual({ tag: undefined })
    expect(v.parse(schema, parseSearch(''))).toEqual({ tag: undefined })
  })
})
