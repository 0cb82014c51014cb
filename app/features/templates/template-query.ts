// Imports are relative with extensions: the search benchmark runs this module in Node as well.
// What the templates list asks the search service, from the list's state in the address bar:
// the hits of the chosen order and page, and facet counts that ignore each facet's own choice
// (disjunctive facets: picking "high" still shows how many "critical" there are).
import * as v from 'valibot'
import { SEVERITIES, TEMPLATE_STATUSES } from '#domain/template-vocabulary.ts'
import { TEMPLATE_SORTS, type TemplateSort } from '#domain/template-search.ts'
import { listParam } from '../../core/search-params.ts'
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from './highlight.ts'

export const TEMPLATE_FACETS = ['severity', 'status', 'services', 'tags'] as const
export type TemplateFacet = (typeof TEMPLATE_FACETS)[number]

export const HITS_PER_PAGE = 20

const list = listParam(v.pipe(v.string(), v.maxLength(100)))

/** The list's state in the address bar; anything unexpected falls back to the default. */
export const TemplateListSearchSchema = v.object({
  q: v.optional(v.fallback(v.pipe(v.string(), v.maxLength(200)), '')),
  severity: list,
  status: list,
  services: list,
  tags: list,
  sort: v.optional(v.fallback(v.picklist(TEMPLATE_SORTS.map((sort) => sort.id)), 'relevance')),
  page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999)), 0)),
  /** The template open in the editor. */
  template: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
})

export type TemplateListSearch = v.InferOutput<typeof TemplateListSearchSchema>

export const selectedValues = (search: TemplateListSearch, facet: TemplateFacet): string[] => search[facet] ?? []

const sortOf = (search: TemplateListSearch): TemplateSort => TEMPLATE_SORTS.find((sort) => sort.id === search.sort) ?? TEMPLATE_SORTS[0]!

/** Each facet's choices ORed, the facets ANDed, optionally leaving one facet out. */
export function facetFilters(search: TemplateListSearch, except?: TemplateFacet): string[][] {
  return TEMPLATE_FACETS.filter((facet) => facet !== except)
    .map((facet) => selectedValues(search, facet).map((value) => `${facet}:${value}`))
    .filter((group) => group.length > 0)
}

export interface TemplateSearchRequest {
  indexName: string
  query: string
  facets: string[]
  facetFilters: string[][]
  page: number
  hitsPerPage: number
  maxValuesPerFacet: number
  attributesToHighlight: string[]
  highlightPreTag: string
  highlightPostTag: string
}

/** The first request brings the hits and the counts of unrefined facets; one more per refined facet. */
export function templateSearchRequests(search: TemplateListSearch): TemplateSearchRequest[] {
  const base = {
    indexName: sortOf(search).indexName,
    query: search.q ?? '',
    maxValuesPerFacet: 30,
    attributesToHighlight: ['title', 'excerpt'],
    highlightPreTag: HIGHLIGHT_PRE_TAG,
    highlightPostTag: HIGHLIGHT_POST_TAG,
  }
  const refined = TEMPLATE_FACETS.filter((facet) => selectedValues(search, facet).length > 0)
  return [
    {
      ...base,
      facets: [...TEMPLATE_FACETS],
      facetFilters: facetFilters(search),
      page: search.page ?? 0,
      hitsPerPage: HITS_PER_PAGE,
    },
    ...refined.map((facet) => ({
      ...base,
      facets: [facet],
      facetFilters: facetFilters(search, facet),
      page: 0,
      hitsPerPage: 0,
      attributesToHighlight: [],
    })),
  ]
}

export type FacetCounts = Record<TemplateFacet, Record<string, number>>

/** Merges the counts of the answers, each refined facet's from its own request. */
export function mergeFacetCounts(
  search: TemplateListSearch,
  results: readonly { facets?: Record<string, Record<string, number>> }[],
): FacetCounts {
  const refined = TEMPLATE_FACETS.filter((facet) => selectedValues(search, facet).length > 0)
  const counts = Object.fromEntries(TEMPLATE_FACETS.map((facet) => [facet, { ...results[0]?.facets?.[facet] }])) as FacetCounts
  refined.forEach((facet, index) => {
    counts[facet] = { ...results[index + 1]?.facets?.[facet] }
  })
  return counts
}

/** The values a facet offers: fixed lists in their natural order, tags by count. */
export function facetOptions(facet: TemplateFacet, counts: Record<string, number>, selected: readonly string[]): string[] {
  const fixed: Partial<Record<TemplateFacet, readonly string[]>> = { severity: SEVERITIES, status: TEMPLATE_STATUSES }
  const known = fixed[facet]
  if (known) return known.filter((value) => value in counts || selected.includes(value))
  const values = new Set([...Object.keys(counts), ...selected])
  return [...values].sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || a.localeCompare(b))
}

/** Whether the list shows less than the whole library: a query or any filter. */
export const isFiltered = (search: TemplateListSearch): boolean =>
  (search.q ?? '').trim() !== '' || TEMPLATE_FACETS.some((facet) => selectedValues(search, facet).length > 0)
