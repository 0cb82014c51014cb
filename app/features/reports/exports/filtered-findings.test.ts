import { describe, expect, it } from 'vitest'
import { exportFiltersOf } from './filtered-findings'

describe('exportFiltersOf', () => {
  it('records the filters, not the grouping or the order', () => {
    expect(exportFiltersOf({ severity: ['high'], q: ' sql ', group: 'asset', sort: 'title' })).toEqual({ severity: ['high'], q: 'sql' })
    expect(exportFiltersOf({})).toEqual({})
  })
})
