import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  facetFilters,
  facetOptions,
  isFiltered,
  mergeFacetCounts,
  TemplateListSearchSchema,
  templateSearchRequests,
} from './template-query'

const state = (input: unknown) => v.parse(TemplateListSearchSchema, input)

describe('the templates list state', () => {
  it('falls back to defaults for anything unexpected in the address', () => {
    expect(state({ sort: 'nonsense', page: -3, q: 42 })).toMatchObject({ sort: 'relevance', page: 0, q: '' })
  })

  it('ORs the choices of a facet and ANDs the facets', () => {
    expect(facetFilters(state({ severity: ['critical', 'high'], tags: ['xss'] }))).toEqual([
      ['severity:critical', 'severity:high'],
      ['tags:xss'],
    ])
    expect(facetFilters(state({ severity: ['high'], tags: ['xss'] }), 'severity')).toEqual([['tags:xss']])
  })

  it('asks for the hits with every facet, plus one count request per refined facet without its own choice', () => {
    const requests = templateSearchRequests(state({ q: 'smb', severity: ['high'], sort: 'severity', page: 2 }))
    expect(requests).toHaveLength(2)
    expect(requests[0]).toMatchObject({
      indexName: 'finding_templates_severity_desc',
      query: 'smb',
      page: 2,
      hitsPerPage: 20,
      facetFilters: [['severity:high']],
    })
    expect(requests[1]).toMatchObject({ facets: ['severity'], facetFilters: [], hitsPerPage: 0 })
  })

  it('takes each refined facet’s counts from its own request', () => {
    const search = state({ severity: ['high'] })
    const counts = mergeFacetCounts(search, [
      { facets: { severity: { high: 4 }, tags: { xss: 2 } } },
      { facets: { severity: { critical: 1, high: 4, low: 9 } } },
    ])
    expect(counts.severity).toEqual({ critical: 1, high: 4, low: 9 })
    expect(counts.tags).toEqual({ xss: 2 })
  })

  it('lists severities in their order and tags by count, keeping chosen values with no count', () => {
    expect(facetOptions('severity', { low: 3, critical: 1 }, [])).toEqual(['critical', 'low'])
    expect(facetOptions('tags', { tls: 2, xss: 5, api: 2 }, ['smb'])).toEqual(['xss', 'api', 'tls', 'smb'])
  })
})

describe('isFiltered', () => {
  it('says whether the list shows less than the whole library', () => {
    expect(isFiltered({})).toBe(false)
    expect(isFiltered({ q: '  ', sort: 'relevance', page: 2 })).toBe(false)
    expect(isFiltered({ q: 'smb' })).toBe(true)
    expect(isFiltered({ severity: ['high'] })).toBe(true)
  })
})
