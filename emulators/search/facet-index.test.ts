import { describe, expect, it } from 'vitest'
import { FacetIndex, topFacetValues } from './facet-index.ts'
import { parseFilters } from './filters.ts'

type Rec = { objectID: string; status?: string; tags?: string[]; score?: number }

const records: Rec[] = [
  { objectID: 'a', status: 'open', tags: ['x', 'y'], score: 1 },
  { objectID: 'b', status: 'Open', tags: ['y'], score: 5 },
  { objectID: 'c', status: 'fixed', tags: ['x'], score: 9 },
  { objectID: 'd', status: 'reopened', score: 3 },
]
const everyAttribute = () => true
const ids = (set: ReadonlySet<Rec> | undefined) => [...(set ?? [])].map((r) => r.objectID).sort()

describe('facet index', () => {
  it('lets through what a filter of plain facet conditions allows, case-insensitively, and says it covered the filter', () => {
    const index = new FacetIndex(() => records)
    const allowed = index.allowedBy(parseFilters('(status:open OR status:reopened) AND tags:x'), everyAttribute)
    expect(ids(allowed?.records)).toEqual(['a'])
    expect(allowed?.complete).toBe(true)
  })

  it('narrows by the facet clauses only and leaves numeric and negated ones to be checked', () => {
    const index = new FacetIndex(() => records)
    const allowed = index.allowedBy(parseFilters('tags:y AND score > 2 AND NOT status:fixed'), everyAttribute)
    expect(ids(allowed?.records)).toEqual(['a', 'b'])
    expect(allowed?.complete).toBe(false)
    expect(index.allowedBy(parseFilters('score > 2'), everyAttribute)).toBeNull()
  })

  it('allows nothing through a facet that may not be filtered on', () => {
    const index = new FacetIndex(() => records)
    expect(ids(index.allowedBy(parseFilters('status:open'), (attribute) => attribute !== 'status')?.records)).toEqual([])
  })

  it('reads the records again after it is cleared (every write clears it)', () => {
    const current = [...records]
    const index = new FacetIndex(() => current)
    expect(ids(index.withValue('status', 'fixed') as ReadonlySet<Rec>)).toEqual(['c'])
    current[2] = { ...records[2]!, status: 'open' }
    index.clear()
    expect(ids(index.withValue('status', 'fixed') as ReadonlySet<Rec>)).toEqual([])
    expect(ids(index.allowedBy(parseFilters('status:open'), everyAttribute)?.records)).toEqual(['a', 'b', 'c'])
  })

  it('keeps what a filter allows until a write, which the next answer follows', () => {
    const current = [...records]
    const index = new FacetIndex(() => current)
    const filter = parseFilters('status:open AND tags:y')
    const first = index.allowedBy(filter, everyAttribute)
    expect(ids(first?.records)).toEqual(['a', 'b'])
    // The same clauses in another order are the same filter.
    expect(index.allowedBy(parseFilters('tags:y AND status:open'), everyAttribute)?.records).toBe(first?.records)
    expect(index.untilWrite('counted', () => 1)).toBe(1)
    expect(index.untilWrite('counted', () => 2)).toBe(1)
    const changed = { ...records[1]!, tags: ['x'] }
    index.replace(records[1], changed)
    current[1] = changed
    expect(ids(index.allowedBy(filter, everyAttribute)?.records)).toEqual(['a'])
    expect(index.untilWrite('counted', () => 2)).toBe(2)
  })
})

describe('top facet values', () => {
  it('gives what a full sort by count, then by place, gives, when the cut falls among many ties', () => {
    const many: Rec[] = Array.from({ length: 500 }, (_, i) => ({ objectID: String(i), tags: [`t${(i * 37) % 450}`] }))
    const index = new FacetIndex(() => many)
    const counts = new Map<string, number>()
    for (const record of many) for (const tag of record.tags!) counts.set(tag, (counts.get(tag) ?? 0) + 1)
    const ranks = index.valueRanks('tags', (a, b) => a.localeCompare(b, 'en', { numeric: true }))
    const place = (value: string) => ranks.placeOf.get(value)!
    const full = [...counts].sort((a, b) => b[1] - a[1] || place(a[0]) - place(b[0]))
    for (const max of [1, 10, 49, 50, 51, 100, 449, 450, 1000]) expect(topFacetValues(counts, max, ranks)).toEqual(full.slice(0, max))
  })
})
