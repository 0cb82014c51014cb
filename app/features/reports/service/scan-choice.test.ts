import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ScanChoiceSchema } from './scan-choice'

describe('ScanChoiceSchema', () => {
  it('keeps a scan and a comparison named in the address', () => {
    expect(v.parse(ScanChoiceSchema, { scan: 'network-2026-05', compare: 'network-2026-04' })).toEqual({
      scan: 'network-2026-05',
      compare: 'network-2026-04',
    })
    expect(v.parse(ScanChoiceSchema, { scan: 202605 })).toEqual({ scan: '202605', compare: undefined })
  })

  it('drops what is not an id, so the page shows the latest scan', () => {
    expect(v.parse(ScanChoiceSchema, { scan: '../x/y', compare: '' })).toEqual({ scan: undefined, compare: undefined })
    expect(v.parse(ScanChoiceSchema, { scan: 'a'.repeat(201), compare: { id: 1 } })).toEqual({ scan: undefined, compare: undefined })
    expect(v.parse(ScanChoiceSchema, {})).toEqual({ scan: undefined, compare: undefined })
  })
})
