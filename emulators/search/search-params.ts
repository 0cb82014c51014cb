// The request bodies the emulator accepts, as valibot schemas, and Algolia's url-encoded parameter
// strings (the legacy `params` field and the restrictions inside a secured API key).
import * as v from 'valibot'
import { ApiError, parseOrBadRequest } from './api-error.ts'

const StringList = v.array(v.string())
const Count = v.pipe(v.number(), v.integer(), v.minValue(0))
const FilterListSchema = v.union([v.string(), v.array(v.union([v.string(), v.array(v.string())]))])
const TypoToleranceSchema = v.union([v.boolean(), v.picklist(['min', 'strict', 'true', 'false'])])
const QueryTypeSchema = v.picklist(['prefixLast', 'prefixAll', 'prefixNone'])

/** Accepted because Algolia accepts it, and ignored: analytics, personalization, rules, languages. */
const Ignored = v.optional(v.unknown())

/** Parameters Algolia accepts whose effect does not show on the product's data: accepted, then ignored. */
const ignored = (...names: string[]) => Object.fromEntries(names.map((name) => [name, Ignored]))

const SearchParamsSchema = v.object({
  query: v.optional(v.string()),
  filters: v.optional(v.string()),
  facetFilters: v.optional(FilterListSchema),
  numericFilters: v.optional(FilterListSchema),
  facets: v.optional(v.union([StringList, v.string()])),
  maxValuesPerFacet: v.optional(Count),
  page: v.optional(Count),
  hitsPerPage: v.optional(v.pipe(Count, v.maxValue(1000))),
  attributesToRetrieve: v.optional(StringList),
  attributesToHighlight: v.optional(StringList),
  highlightPreTag: v.optional(v.string()),
  highlightPostTag: v.optional(v.string()),
  restrictSearchableAttributes: v.optional(StringList),
  typoTolerance: v.optional(TypoToleranceSchema),
  minWordSizefor1Typo: v.optional(Count),
  minWordSizefor2Typos: v.optional(Count),
  queryType: v.optional(QueryTypeSchema),
  ...ignored(
    'analytics',
    'analyticsTags',
    'clickAnalytics',
    'userToken',
    'enablePersonalization',
    'personalizationImpact',
    'enableABTest',
    'enableRules',
    'ruleContexts',
    'getRankingInfo',
    'percentileComputation',
    'synonyms',
    'responseFields',
    'ignorePlurals',
    'removeStopWords',
    'queryLanguages',
    'naturalLanguages',
  ),
})

export type SearchParams = v.InferOutput<typeof SearchParamsSchema>

const SEARCH_PARAM_NAMES = new Set(Object.keys(SearchParamsSchema.entries))

/** Validates one query's parameters; any Algolia does not know, or the emulator does not implement, is a 400. */
export function parseSearchParams(input: Record<string, unknown>): SearchParams {
  for (const name of Object.keys(input)) {
    if (!SEARCH_PARAM_NAMES.has(name)) {
      throw new ApiError(400, `Unknown parameter: ${name} (or one the search emulator does not implement)`)
    }
  }
  return parseOrBadRequest(SearchParamsSchema, input, 'search parameters')
}

// In url-encoded form every value is a string; these are the ones that are something else.
const INTEGER_PARAMS = new Set([
  'page',
  'hitsPerPage',
  'maxValuesPerFacet',
  'minWordSizefor1Typo',
  'minWordSizefor2Typos',
  'personalizationImpact',
])
const LIST_PARAMS = new Set([
  'facets',
  'attributesToRetrieve',
  'attributesToHighlight',
  'restrictSearchableAttributes',
  'analyticsTags',
  'ruleContexts',
  'responseFields',
])

/** A list parameter in url-encoded form: a JSON array or comma-separated names. */
export function parseListParam(text: string): unknown {
  const trimmed = text.trim()
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed)
    } catch {
      return text // left for the schema to reject
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((item) => item.trim())
}

/** `query=a&hitsPerPage=5&facets=%5B%22x%22%5D` as typed values (validation comes later). */
export function paramsFromQueryString(text: string): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [name, value] of new URLSearchParams(text)) {
    if (INTEGER_PARAMS.has(name) && /^\d+$/.test(value.trim())) params[name] = Number(value)
    else if (LIST_PARAMS.has(name)) params[name] = parseListParam(value)
    else if (name === 'typoTolerance' && (value === 'true' || value === 'false')) params[name] = value === 'true'
    else params[name] = value
  }
  return params
}

/** The `params` string Algolia echoes in each result. */
export function serializeParams(params: Record<string, unknown>): string {
  return Object.keys(params)
    .filter((name) => params[name] !== undefined)
    .sort()
    .map((name) => {
      const value = params[name]
      const text = typeof value === 'string' ? value : JSON.stringify(value)
      return `${name}=${encodeURIComponent(text)}`
    })
    .join('&')
}

// ---------------------------------------------------------------------------------------------
// Request bodies

const MultipleQueriesSchema = v.object({
  requests: v.array(
    v.looseObject({
      indexName: v.pipe(v.string(), v.minLength(1)),
      type: v.optional(v.picklist(['default', 'facet'])),
      params: v.optional(v.string()),
    }),
  ),
  strategy: v.optional(v.picklist(['none', 'stopIfEnoughMatches'])),
})

export type QueryRequest = { indexName: string; params: Record<string, unknown> }

/** `POST /1/indexes/*\/queries`: each request's parameters, the legacy `params` string merged in. */
export function parseMultipleQueries(body: unknown): QueryRequest[] {
  const { requests } = parseOrBadRequest(MultipleQueriesSchema, body, 'request body')
  return requests.map(({ indexName, type, params, ...rest }) => {
    if (type === 'facet') throw new ApiError(400, 'Searching for facet values is not implemented by the search emulator')
    return { indexName, params: { ...(params === undefined ? {} : paramsFromQueryString(params)), ...rest } }
  })
}

/** `POST /1/indexes/{indexName}/query`: a JSON body, possibly with a legacy `params` string. */
export function parseSingleQuery(body: unknown): Record<string, unknown> {
  const { params, ...rest } = parseOrBadRequest(v.looseObject({ params: v.optional(v.string()) }), body ?? {}, 'request body')
  return { ...(params === undefined ? {} : paramsFromQueryString(params)), ...rest }
}

const ObjectIDSchema = v.pipe(
  v.union([v.pipe(v.string(), v.minLength(1)), v.number()]),
  v.transform((id) => String(id)),
)

export const RecordSchema = v.looseObject({ objectID: v.optional(ObjectIDSchema) })

export const RecordWithIDSchema = v.looseObject({ objectID: ObjectIDSchema })

export const BatchSchema = v.object({
  requests: v.array(
    v.variant('action', [
      v.object({ action: v.literal('addObject'), body: RecordSchema }),
      v.object({
        action: v.picklist(['updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate', 'deleteObject']),
        body: RecordWithIDSchema,
      }),
    ]),
  ),
})

export type BatchRequest = v.InferOutput<typeof BatchSchema>['requests'][number]

export const GetObjectsSchema = v.object({
  requests: v.array(
    v.object({
      indexName: v.pipe(v.string(), v.minLength(1)),
      objectID: ObjectIDSchema,
      attributesToRetrieve: v.optional(StringList),
    }),
  ),
})

// ---------------------------------------------------------------------------------------------
// Index settings

const RANKING_CRITERIA = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom']
const SortCriterion = v.pipe(v.string(), v.regex(/^(asc|desc)\([^()]+\)$/, 'expected asc(attribute) or desc(attribute)'))
const RankingCriterion = v.pipe(
  v.string(),
  v.check(
    (text) => RANKING_CRITERIA.includes(text) || /^(asc|desc)\([^()]+\)$/.test(text),
    `expected one of ${RANKING_CRITERIA.join(', ')}, asc(attribute) or desc(attribute)`,
  ),
)
const FacetDeclaration = v.pipe(
  v.string(),
  v.regex(
    /^((searchable|filterOnly|afterDistinct)\([^()]+\)|[^()]+)$/,
    'expected attribute, searchable(attribute) or filterOnly(attribute)',
  ),
)
const ReplicaDeclaration = v.pipe(v.string(), v.regex(/^(virtual\([^()]+\)|[^()]+)$/, 'expected an index name or virtual(index name)'))
const SearchableDeclaration = v.pipe(
  v.string(),
  v.regex(/^(unordered\([^()]+\)|[^()]+)$/, 'expected attribute, "attribute1,attribute2" or unordered(attribute)'),
)

const SettingsSchema = v.object({
  searchableAttributes: v.nullish(v.array(SearchableDeclaration)),
  attributesForFaceting: v.nullish(v.array(FacetDeclaration)),
  ranking: v.nullish(v.array(RankingCriterion)),
  customRanking: v.nullish(v.array(SortCriterion)),
  replicas: v.nullish(v.array(ReplicaDeclaration)),
  attributesToRetrieve: v.nullish(StringList),
  unretrievableAttributes: v.nullish(StringList),
  attributesToHighlight: v.nullish(StringList),
  highlightPreTag: v.nullish(v.string()),
  highlightPostTag: v.nullish(v.string()),
  hitsPerPage: v.nullish(v.pipe(Count, v.maxValue(1000))),
  maxValuesPerFacet: v.nullish(Count),
  paginationLimitedTo: v.nullish(Count),
  // Only 0 is modelled: a virtual replica here sorts every hit (a higher value drops the less
  // relevant on Algolia, and Algolia's default for virtual replicas is 100).
  relevancyStrictness: v.nullish(v.pipe(Count, v.maxValue(100))),
  typoTolerance: v.nullish(TypoToleranceSchema),
  minWordSizefor1Typo: v.nullish(Count),
  minWordSizefor2Typos: v.nullish(Count),
  queryType: v.nullish(QueryTypeSchema),
  // stored and returned, but they change nothing here
  ...ignored(
    'ignorePlurals',
    'removeStopWords',
    'queryLanguages',
    'indexLanguages',
    'advancedSyntax',
    'separatorsToIndex',
    'allowTyposOnNumericTokens',
    'userData',
  ),
})

export type IndexSettings = v.InferOutput<typeof SettingsSchema>

const SETTING_NAMES = new Set(Object.keys(SettingsSchema.entries))

/** `PUT …/settings`; null resets a setting to its default. */
export function parseSettings(body: unknown): IndexSettings {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const name of Object.keys(body)) {
      if (!SETTING_NAMES.has(name)) {
        throw new ApiError(400, `Unknown setting: ${name} (or one the search emulator does not implement)`)
      }
    }
  }
  return parseOrBadRequest(SettingsSchema, body, 'settings')
}
