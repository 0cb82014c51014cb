// The emulator's indices, in memory: records, settings, replicas, and search over them with
// MiniSearch doing the full-text part and Algolia's rules for everything around it (ranking
// criteria, filters, facets, highlighting, pagination).
import { randomUUID } from 'node:crypto'
import MiniSearch from 'minisearch'
import type { SearchResult } from 'minisearch'
import { ApiError } from './api-error.ts'
import { facetValuesOf, matchesFilter, valuesAt } from './filters.ts'
import type { Filter } from './filters.ts'
import { FacetIndex, topFacetValues } from './facet-index.ts'
import { parseListParam } from './search-params.ts'
import type { BatchRequest, IndexSettings, SearchParams } from './search-params.ts'

export type SearchRecord = Record<string, unknown> & { objectID: string }

export const INDEX_NOT_FOUND_MESSAGE = 'Index does not exist'
const OBJECT_NOT_FOUND_MESSAGE = 'ObjectID does not exist'

const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom']

const DEFAULT_SETTINGS = {
  hitsPerPage: 20,
  maxValuesPerFacet: 100,
  paginationLimitedTo: 1000,
  minWordSizefor1Typo: 4,
  minWordSizefor2Typos: 8,
  typoTolerance: true,
  queryType: 'prefixLast',
  highlightPreTag: '<em>',
  highlightPostTag: '</em>',
  ranking: DEFAULT_RANKING,
} as const

/** The searchable-attribute name MiniSearch uses for "every attribute" (no searchableAttributes). */
const ALL_ATTRIBUTES = '*'

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

// ---------------------------------------------------------------------------------------------
// Words

/**
 * A word, as Algolia's tokenizer makes them with no `separatorsToIndex`: a run of letters and digits
 * (with their accents); every other character (spaces, punctuation, symbols such as + = | < >,
 * control characters such as tabs) separates words and is not searchable. Search and highlighting
 * both split with it.
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu
const tokenize = (text: string): string[] => text.match(WORD) ?? []

/** Case- and accent-insensitive, as Algolia. */
function normalizeWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Levenshtein distance, or `limit + 1` as soon as it is known to exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      current.push(value)
      rowMin = Math.min(rowMin, value)
    }
    if (rowMin > limit) return limit + 1
    previous = current
  }
  return previous[b.length] ?? limit + 1
}

type QueryOptions = {
  queryType: 'prefixLast' | 'prefixAll' | 'prefixNone'
  typoTolerance: boolean | string
  minWordSizefor1Typo: number
  minWordSizefor2Typos: number
}

/** How each query word may match: as a prefix (search as you type) and with how many typos. */
class QueryWords {
  readonly words: string[]
  private readonly options: QueryOptions

  constructor(query: string, options: QueryOptions) {
    this.words = tokenize(query).map(normalizeWord).filter(Boolean)
    this.options = options
  }

  isPrefix(position: number): boolean {
    if (this.options.queryType === 'prefixAll') return true
    return this.options.queryType === 'prefixLast' && position === this.words.length - 1
  }

  maxTypos(word: string): number {
    const { typoTolerance, minWordSizefor1Typo, minWordSizefor2Typos } = this.options
    if (typoTolerance === false || typoTolerance === 'false') return 0
    if (word.length >= minWordSizefor2Typos) return 2
    return word.length >= minWordSizefor1Typo ? 1 : 0
  }

  /** How `documentWord` matches the query word at `position`, if it does. */
  match(position: number, documentWord: string): { typos: number; exact: boolean; prefixLength?: number } | undefined {
    const word = this.words[position] ?? ''
    if (documentWord === word) return { typos: 0, exact: true }
    if (this.isPrefix(position) && documentWord.startsWith(word)) return { typos: 0, exact: false, prefixLength: word.length }
    const limit = this.maxTypos(word)
    if (limit === 0) return undefined
    const typos = editDistance(word, documentWord, limit)
    return typos <= limit ? { typos, exact: false } : undefined
  }
}

// ---------------------------------------------------------------------------------------------
// Records as text

function leafTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value === 'number') return [String(value)]
  if (Array.isArray(value)) return value.flatMap(leafTexts)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leafTexts)
  return []
}

function attributeText(record: SearchRecord, attribute: string): string {
  if (attribute === 'objectID') return record.objectID
  if (attribute === ALL_ATTRIBUTES) {
    return Object.entries(record)
      .filter(([name]) => name !== 'objectID')
      .flatMap(([, value]) => leafTexts(value))
      .join(' ')
  }
  return valuesAt(record, attribute).flatMap(leafTexts).join(' ')
}

type SearchableAttribute = { attribute: string; rank: number }

/** `searchableAttributes` in order of importance; `"a,b"` share a rank, `unordered(x)` is x. */
function searchableAttributes(settings: IndexSettings): SearchableAttribute[] {
  const declared = settings.searchableAttributes
  if (!declared || declared.length === 0) return [{ attribute: ALL_ATTRIBUTES, rank: 0 }]
  return declared.flatMap((entry, rank) =>
    entry
      .replace(/^unordered\((.*)\)$/, '$1')
      .split(',')
      .map((attribute) => ({ attribute: attribute.trim(), rank })),
  )
}

/** `attributesForFaceting`: what can be filtered on and what facet counts can be asked for. */
function facetAttributes(settings: IndexSettings): { filterable: Set<string>; countable: string[] } {
  const filterable = new Set(['objectID', '_tags'])
  const countable: string[] = []
  for (const entry of settings.attributesForFaceting ?? []) {
    const [, wrapper, inner] = /^(searchable|filterOnly|afterDistinct)\((.*)\)$/.exec(entry) ?? []
    const attribute = (inner ?? entry).trim()
    filterable.add(attribute)
    if (wrapper !== 'filterOnly') countable.push(attribute)
  }
  return { filterable, countable }
}

/** Every record in one ranking's order, kept in order as records are written. */
class RecordOrder {
  readonly records: SearchRecord[]
  private readonly compare: (a: SearchRecord, b: SearchRecord) => number

  constructor(records: SearchRecord[], compare: (a: SearchRecord, b: SearchRecord) => number) {
    this.records = records
    this.compare = compare
  }

  /** Where `record` goes: after every record that comes before it (ties are broken by first insertion, so none are equal). */
  private place(record: SearchRecord): number {
    let low = 0
    let high = this.records.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.compare(this.records[middle]!, record) < 0) low = middle + 1
      else high = middle
    }
    return low
  }

  remove(record: SearchRecord): void {
    const at = this.place(record)
    if (this.records[at] === record) this.records.splice(at, 1)
  }

  insert(record: SearchRecord): void {
    this.records.splice(this.place(record), 0, record)
  }
}

/**
 * A write of more records than this drops the orders and facet lists, built again once writes
 * pause, rather than keeping them up to date record by record: at 100,000 records each record
 * moves every replica's order (a few milliseconds), which an import's batches of 1,000 would pay
 * over and over.
 */
const RECORD_BY_RECORD_WRITES = 100
/** How long writes pause before what queries use is built again (an import's batches come closer). */
const WARM_AFTER_MS = 1000
/** Records added to a text index being built between two other requests. */
const TEXT_SLICE = 5000

/** One set of records, shared by a primary index and its replicas. */
class Collection {
  readonly records = new Map<string, SearchRecord>()
  private readonly insertion = new Map<string, number>()
  private nextInsertion = 0
  // one full-text index per searchable-attribute list in use, kept up to date on every write
  private readonly textIndexes = new Map<string, MiniSearch<SearchRecord>>()
  // every record in a ranking's order, for queries without text (the same for each): kept up to date on every write
  private readonly orders = new Map<string, RecordOrder>()
  // the records of each facet value, for filters: kept up to date on every write
  readonly facets = new FacetIndex<SearchRecord>(() => this.records.values())

  put(record: SearchRecord): void {
    this.pendingText = undefined
    const previous = this.records.get(record.objectID)
    if (previous) for (const order of this.orders.values()) order.remove(previous)
    this.records.set(record.objectID, record)
    if (!this.insertion.has(record.objectID)) this.insertion.set(record.objectID, this.nextInsertion++)
    for (const order of this.orders.values()) order.insert(record)
    this.facets.replace(previous, record)
    for (const textIndex of this.textIndexes.values()) {
      if (previous) textIndex.replace(record)
      else textIndex.add(record)
    }
  }

  delete(objectID: string): void {
    this.pendingText = undefined
    const previous = this.records.get(objectID)
    if (!previous) return
    for (const order of this.orders.values()) order.remove(previous)
    this.records.delete(objectID)
    this.facets.replace(previous, undefined)
    this.insertion.delete(objectID)
    for (const textIndex of this.textIndexes.values()) textIndex.discard(objectID)
  }

  /**
   * Ahead of a write of `count` records: a large one drops what is kept in order (the store builds
   * it again once the writes pause); true when it did.
   */
  writing(count: number): boolean {
    if (count <= RECORD_BY_RECORD_WRITES) return false
    this.orders.clear()
    this.facets.clear()
    return true
  }

  clear(): void {
    this.pendingText = undefined
    this.orders.clear()
    this.facets.clear()
    this.records.clear()
    this.insertion.clear()
    this.textIndexes.clear()
  }

  insertionOf(objectID: string): number {
    return this.insertion.get(objectID) ?? Number.MAX_SAFE_INTEGER
  }

  /** Settings changed: indexes built for the old searchable attributes are rebuilt when next needed. */
  forgetTextIndexes(): void {
    this.textIndexes.clear()
    this.orders.clear()
  }

  /** Every record in the order `compare` gives them (`key` names the ranking), kept in order on every write. */
  ordered(
    key: string,
    compare: (a: SearchRecord, b: SearchRecord) => number,
    sort: (records: SearchRecord[]) => SearchRecord[],
  ): SearchRecord[] {
    let order = this.orders.get(key)
    if (!order) {
      order = new RecordOrder(sort([...this.records.values()]), compare)
      this.orders.set(key, order)
    }
    return order.records
  }

  private newTextIndex(attributes: string[]): MiniSearch<SearchRecord> {
    return new MiniSearch<SearchRecord>({
      fields: attributes,
      idField: 'objectID',
      extractField: attributeText,
      tokenize,
      processTerm: normalizeWord,
    })
  }

  textIndex(attributes: string[]): MiniSearch<SearchRecord> {
    const key = JSON.stringify(attributes)
    let textIndex = this.textIndexes.get(key)
    if (!textIndex) {
      textIndex = this.newTextIndex(attributes)
      textIndex.addAll([...this.records.values()])
      this.textIndexes.set(key, textIndex)
    }
    return textIndex
  }

  // A text index being built a slice at a time (warm); any write abandons it, to be built when asked.
  private pendingText: object | undefined;

  /** Builds the text index of `attributes` a slice of records per step, unless a write comes first. */
  *textIndexSteps(attributes: string[]): Generator<void> {
    const key = JSON.stringify(attributes)
    if (this.textIndexes.has(key)) return
    const pending = {}
    this.pendingText = pending
    const textIndex = this.newTextIndex(attributes)
    const records = [...this.records.values()]
    for (let at = 0; at < records.length; at += TEXT_SLICE) {
      textIndex.addAll(records.slice(at, at + TEXT_SLICE))
      yield
      if (this.pendingText !== pending) return
    }
    this.pendingText = undefined
    if (!this.textIndexes.has(key)) this.textIndexes.set(key, textIndex)
  }

  copy(): Collection {
    const copy = new Collection()
    for (const record of this.records.values()) copy.put(record)
    return copy
  }
}

class SearchIndex {
  readonly name: string
  /** Only the settings set on this index; null resets delete them. */
  settings: IndexSettings = {}
  collection: Collection
  primary: SearchIndex | undefined
  /** A virtual replica sorts by its customRanking before textual relevance ("relevant sort"). */
  virtual = false
  readonly createdAt = new Date().toISOString()
  updatedAt = this.createdAt

  constructor(name: string, collection: Collection) {
    this.name = name
    this.collection = collection
  }

  /** A replica inherits every setting of its primary it does not set itself. */
  effectiveSettings(): IndexSettings {
    if (!this.primary) return this.settings
    const { replicas: _ownReplicas, ...inherited } = this.primary.settings
    return { ...inherited, ...this.settings }
  }

  touch(): void {
    this.updatedAt = new Date().toISOString()
  }
}

type ReplicaDeclaration = { name: string; virtual: boolean }

function replicaDeclarations(settings: IndexSettings): ReplicaDeclaration[] {
  return (settings.replicas ?? []).map((entry) => {
    const virtualName = /^virtual\((.*)\)$/.exec(entry)?.[1]
    return { name: (virtualName ?? entry).trim(), virtual: virtualName !== undefined }
  })
}

// ---------------------------------------------------------------------------------------------
// Partial updates

const PARTIAL_OPERATIONS = ['Increment', 'Decrement', 'Add', 'AddUnique', 'Remove', 'IncrementFrom', 'IncrementSet']

function isOperation(value: unknown): value is { _operation: string; value?: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { _operation?: unknown })._operation === 'string'
}

function applyOperation(current: unknown, attribute: string, operation: { _operation: string; value?: unknown }): unknown {
  const { _operation: name, value } = operation
  if (!PARTIAL_OPERATIONS.includes(name)) {
    throw new ApiError(400, `${attribute}: unknown _operation "${name}" (expected ${PARTIAL_OPERATIONS.join(', ')})`)
  }
  const list = current === undefined ? [] : Array.isArray(current) ? current : [current]
  if (name === 'Add') return [...list, value]
  if (name === 'AddUnique') return list.includes(value) ? list : [...list, value]
  if (name === 'Remove') return list.filter((item) => item !== value)
  if (typeof value !== 'number') throw new ApiError(400, `${attribute}: ${name} needs a numeric value`)
  const number = typeof current === 'number' ? current : 0
  if (name === 'Increment') return number + value
  if (name === 'Decrement') return number - value
  if (name === 'IncrementFrom') return number === value ? number + 1 : current
  return value > number ? value : current // IncrementSet
}

function partiallyUpdated(current: SearchRecord | undefined, objectID: string, changes: Record<string, unknown>): SearchRecord {
  const next: SearchRecord = { ...current, objectID }
  for (const [attribute, change] of Object.entries(changes)) {
    if (attribute === 'objectID') continue
    next[attribute] = isOperation(change) ? applyOperation(next[attribute], attribute, change) : change
  }
  return next
}

// ---------------------------------------------------------------------------------------------
// Search results

export type SearchQuery = {
  params: SearchParams
  /** Everything that filters this query: filters, facetFilters, numericFilters and the key's filters. */
  filter: Filter
  /** The `params` string echoed in the result. */
  paramsText: string
  /** unretrievableAttributes stay hidden from every key but the admin key. */
  hideUnretrievable: boolean
}

type HighlightResult = {
  value: string
  matchLevel: 'none' | 'partial' | 'full'
  matchedWords: string[]
  fullyHighlighted?: boolean
}

export type SearchResponse = {
  hits: Record<string, unknown>[]
  nbHits: number
  page: number
  nbPages: number
  hitsPerPage: number
  exhaustiveNbHits: true
  exhaustiveTypo: true
  exhaustive: { nbHits: true; typo: true }
  facets?: Record<string, Record<string, number>>
  facets_stats?: Record<string, { min: number; max: number; avg: number; sum: number }>
  exhaustiveFacetsCount?: true
  query: string
  params: string
  index: string
  processingTimeMS: number
}

type Candidate = { record: SearchRecord; typos: number; attribute: number; exact: number; score: number }
type Comparator = (a: Candidate, b: Candidate) => number

/** Algolia sorts by numbers and booleans only: a string (even "32") or any other value counts as missing. */
function sortValue(record: SearchRecord, attribute: string): number | undefined {
  const [value] = valuesAt(record, attribute)
  if (typeof value === 'number') return value
  if (typeof value === 'boolean') return value ? 1 : 0
  return undefined
}

/** `asc(attribute)` / `desc(attribute)`; records without a number there come last either way. */
function attributeOrder(criterion: string): Comparator | undefined {
  const [, direction, attribute] = /^(asc|desc)\((.*)\)$/.exec(criterion) ?? []
  if (!attribute) return undefined
  const sign = direction === 'asc' ? 1 : -1
  return (a, b) => {
    const x = sortValue(a.record, attribute)
    const y = sortValue(b.record, attribute)
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1
    return sign * (x - y)
  }
}

/**
 * Algolia's tie-breaking: each criterion only orders what the previous ones left equal. `words`
 * (every word must match), `proximity`, `geo` and `filters` never separate two hits here.
 */
function rankingComparator(settings: IndexSettings, virtualReplica: boolean, collection: Collection): Comparator {
  const sortBy = (criterion: string): Comparator[] => {
    const order = attributeOrder(criterion)
    return order ? [order] : []
  }
  const custom = (settings.customRanking ?? []).flatMap(sortBy)
  const ranking = settings.ranking ?? DEFAULT_RANKING
  const criteria = virtualReplica ? ['custom', ...ranking.filter((criterion) => criterion !== 'custom')] : ranking
  const comparators = criteria.flatMap((criterion): Comparator[] => {
    if (criterion === 'typo') return [(a, b) => a.typos - b.typos]
    if (criterion === 'attribute') return [(a, b) => a.attribute - b.attribute]
    if (criterion === 'exact') return [(a, b) => b.exact - a.exact]
    if (criterion === 'custom') return custom
    return sortBy(criterion)
  })
  // what is still equal: the full-text score, then the order records were first added in
  comparators.push((a, b) => b.score - a.score)
  comparators.push((a, b) => collection.insertionOf(a.record.objectID) - collection.insertionOf(b.record.objectID))
  return (a, b) => {
    for (const compare of comparators) {
      const order = compare(a, b)
      if (order !== 0) return order
    }
    return 0
  }
}

function textualCriteria(result: SearchResult, words: QueryWords, rankOf: Map<string, number>): Omit<Candidate, 'record' | 'score'> {
  let typos = 0
  let exact = 0
  words.words.forEach((_word, position) => {
    const matches = result.terms.flatMap((term) => words.match(position, term) ?? [])
    typos += matches.length === 0 ? 0 : Math.min(...matches.map((match) => match.typos))
    if (matches.some((match) => match.exact)) exact += 1
  })
  const fields = Object.values(result.match).flat()
  const attribute = Math.min(...fields.map((field) => rankOf.get(field) ?? 0))
  return { typos, exact, attribute: Number.isFinite(attribute) ? attribute : 0 }
}

/** The length in `word` that covers the first `normalizedLength` characters of its normalized form. */
function originalPrefixLength(word: string, normalizedLength: number): number {
  let length = 0
  for (const char of word) {
    if (normalizeWord(word.slice(0, length)).length >= normalizedLength) break
    length += char.length
  }
  return length
}

class Highlighter {
  private readonly words: QueryWords
  private readonly preTag: string
  private readonly postTag: string
  private readonly distinctWords: number

  constructor(words: QueryWords, preTag: string, postTag: string) {
    this.words = words
    this.preTag = preTag
    this.postTag = postTag
    this.distinctWords = new Set(words.words).size
  }

  /** Values are not HTML-escaped, as Algolia's are not: whoever renders them escapes the rest. */
  text(text: string): HighlightResult {
    const matched = new Set<string>()
    let value = ''
    let copied = 0
    let everyWordCovered = true
    for (const found of text.matchAll(WORD)) {
      const original = found[0]
      const normalized = normalizeWord(original)
      let best: { word: string; length: number } | undefined
      this.words.words.forEach((word, position) => {
        const match = this.words.match(position, normalized)
        if (!match) return
        const length = match.prefixLength === undefined ? original.length : originalPrefixLength(original, match.prefixLength)
        if (!best || length > best.length) best = { word, length }
      })
      if (!best) {
        everyWordCovered = false
        continue
      }
      matched.add(best.word)
      if (best.length < original.length) everyWordCovered = false
      value += `${text.slice(copied, found.index)}${this.preTag}${original.slice(0, best.length)}${this.postTag}`
      copied = found.index + best.length
    }
    value += text.slice(copied)
    if (matched.size === 0) return { value, matchLevel: 'none', matchedWords: [] }
    return {
      value,
      matchLevel: matched.size === this.distinctWords ? 'full' : 'partial',
      matchedWords: [...matched],
      fullyHighlighted: everyWordCovered,
    }
  }

  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (typeof value === 'number') return this.text(String(value))
    if (Array.isArray(value)) return value.map((item) => this.value(item))
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, this.value(item)]))
    }
    return undefined
  }
}

/** The record's attributes a key may see, as `attributesToRetrieve` (`*`, names, `-name`) asks. */
function retrieved(record: SearchRecord, attributesToRetrieve: readonly string[], hidden: ReadonlySet<string>): SearchRecord {
  const everything = attributesToRetrieve.includes('*')
  const excluded = new Set(attributesToRetrieve.filter((name) => name.startsWith('-')).map((name) => name.slice(1)))
  const wanted = new Set(attributesToRetrieve.map((name) => name.split('.')[0]))
  const visible: SearchRecord = { objectID: record.objectID }
  for (const [name, value] of Object.entries(record)) {
    if (hidden.has(name) || name === 'objectID') continue
    if (everything ? !excluded.has(name) : wanted.has(name)) visible[name] = value
  }
  return visible
}

function requestedFacets(facets: SearchParams['facets'], countable: string[]): string[] {
  const list = typeof facets === 'string' ? parseListParam(facets) : (facets ?? [])
  const names = Array.isArray(list) ? list.map(String) : []
  if (names.includes('*')) return countable
  return names.filter((name) => countable.includes(name))
}

/**
 * The facet counts of the records a query found. Those a filter's facet lists give (`key`) are
 * counted once until the next write: the same key's queries ask for them again and again.
 */
function facetCounts(
  found: { records: Iterable<SearchRecord>; key?: string },
  attributes: string[],
  maxValues: number,
  facetIndex: FacetIndex<SearchRecord>,
): Pick<SearchResponse, 'facets' | 'facets_stats'> {
  const facets: Record<string, Record<string, number>> = {}
  const stats: NonNullable<SearchResponse['facets_stats']> = {}
  const count = (attribute: string) => {
    const counts = new Map<string, number>()
    const numbers: number[] = []
    for (const record of found.records) {
      const values = facetValuesOf(record, attribute)
      for (const number of values.numbers) numbers.push(number)
      // an array counts each of its values once
      for (const value of values.values) counts.set(value, (counts.get(value) ?? 0) + 1)
    }
    return { counts, numbers }
  }
  for (const attribute of attributes) {
    const { counts, numbers } =
      found.key === undefined ? count(attribute) : facetIndex.untilWrite(`counts:${attribute}:${found.key}`, () => count(attribute))
    const sorted = topFacetValues(counts, maxValues, facetIndex.valueRanks(attribute, collator.compare))
    facets[attribute] = Object.fromEntries(sorted)
    if (numbers.length > 0) {
      const sum = numbers.reduce((total, number) => total + number, 0)
      const min = numbers.reduce((least, number) => Math.min(least, number))
      const max = numbers.reduce((most, number) => Math.max(most, number))
      stats[attribute] = { min, max, avg: sum / numbers.length, sum }
    }
  }
  return Object.keys(stats).length > 0 ? { facets, facets_stats: stats } : { facets }
}

/** Every record of `index` in its ranking's order, as a query without text ranks them (all tie on the textual criteria). */
function noTextOrder(index: SearchIndex): SearchRecord[] {
  const settings = index.effectiveSettings()
  const ranked = rankingComparator(settings, index.virtual, index.collection)
  const plain = (record: SearchRecord): Candidate => ({ record, typos: 0, attribute: 0, exact: 0, score: 0 })
  return index.collection.ordered(
    JSON.stringify([settings.ranking ?? null, settings.customRanking ?? null, index.virtual]),
    (a, b) => ranked(plain(a), plain(b)),
    (all) =>
      all
        .map(plain)
        .sort(ranked)
        .map(({ record }) => record),
  )
}

// ---------------------------------------------------------------------------------------------
// The store

type WriteResult = { taskID: number }

export class IndexStore {
  private readonly indexes = new Map<string, SearchIndex>()
  private lastTaskID = 0

  private task(index?: SearchIndex): WriteResult {
    index?.touch()
    this.lastTaskID += 1
    return { taskID: this.lastTaskID }
  }

  has(name: string): boolean {
    return this.indexes.has(name)
  }

  private existing(name: string): SearchIndex {
    const index = this.indexes.get(name)
    if (!index) throw new ApiError(404, INDEX_NOT_FOUND_MESSAGE)
    return index
  }

  private create(name: string): SearchIndex {
    const index = new SearchIndex(name, new Collection())
    this.indexes.set(name, index)
    return index
  }

  /** An index records can be written to: created on first write, and never a replica. */
  private writable(name: string): SearchIndex {
    const index = this.indexes.get(name) ?? this.create(name)
    if (index.primary) {
      throw new ApiError(400, `${name} is a replica: write records to its primary index ${index.primary.name}`)
    }
    return index
  }

  private readonly warming = new Map<SearchIndex, ReturnType<typeof setTimeout>>()

  /**
   * Once writes to `primary` pause, builds what its queries use (each replica's order, the facet
   * lists and the facets' value order), a step at a time so queries are answered in between: as
   * Algolia builds an index before serving it, the first query after an import does not pay for it.
   */
  private warmSoon(primary: SearchIndex): void {
    clearTimeout(this.warming.get(primary))
    const timer = setTimeout(() => {
      const steps = this.warmSteps(primary)
      const next = () => {
        // A later write starts again.
        if (this.warming.get(primary) !== timer) return
        if (steps.next().done) return void this.warming.delete(primary)
        setImmediate(next)
      }
      next()
    }, WARM_AFTER_MS)
    timer.unref()
    this.warming.set(primary, timer)
  }

  /** What the queries of `primary` and its replicas use, a step (a yield) at a time. */
  private *warmSteps(primary: SearchIndex): Generator<void> {
    const { collection } = primary
    const indexes = [primary, ...this.replicasOf(primary)]
    for (const index of indexes) {
      noTextOrder(index)
      yield
    }
    const { filterable, countable } = facetAttributes(primary.effectiveSettings())
    for (const attribute of filterable) {
      if (attribute === 'objectID') continue
      collection.facets.prepare(attribute)
      yield
    }
    for (const attribute of countable) {
      collection.facets.valueRanks(attribute, collator.compare)
      yield
    }
    const searched = new Set(
      indexes.map((index) => JSON.stringify(searchableAttributes(index.effectiveSettings()).map(({ attribute }) => attribute))),
    )
    for (const attributes of searched) yield* collection.textIndexSteps(JSON.parse(attributes) as string[])
  }

  private replicasOf(primary: SearchIndex): SearchIndex[] {
    return [...this.indexes.values()].filter((index) => index.primary === primary)
  }

  saveObject(indexName: string, body: Record<string, unknown>): WriteResult & { createdAt: string; objectID: string } {
    const objectID = typeof body.objectID === 'string' ? body.objectID : randomUUID()
    const { updatedAt, ...written } = this.putObject(indexName, objectID, body)
    return { createdAt: updatedAt, ...written }
  }

  putObject(indexName: string, objectID: string, body: Record<string, unknown>): WriteResult & { updatedAt: string; objectID: string } {
    const index = this.writable(indexName)
    index.collection.put({ ...body, objectID })
    return { updatedAt: new Date().toISOString(), ...this.task(index), objectID }
  }

  partialUpdate(
    indexName: string,
    objectID: string,
    changes: Record<string, unknown>,
    createIfNotExists: boolean,
  ): WriteResult & { updatedAt: string; objectID: string } {
    const index = this.writable(indexName)
    const current = index.collection.records.get(objectID)
    if (current || createIfNotExists) index.collection.put(partiallyUpdated(current, objectID, changes))
    return { updatedAt: new Date().toISOString(), ...this.task(index), objectID }
  }

  deleteObject(indexName: string, objectID: string): WriteResult & { deletedAt: string } {
    const index = this.writable(indexName)
    index.collection.delete(objectID)
    return { deletedAt: new Date().toISOString(), ...this.task(index) }
  }

  /** Applies every request or, when one is invalid, none. */
  batch(indexName: string, requests: BatchRequest[]): WriteResult & { objectIDs: string[] } {
    const index = this.writable(indexName)
    const staged = new Map<string, SearchRecord | null>()
    const current = (objectID: string) => {
      const record = staged.get(objectID)
      return record === undefined ? index.collection.records.get(objectID) : (record ?? undefined)
    }
    const objectIDs = requests.map((request) => {
      const { body } = request
      const objectID = body.objectID ?? randomUUID()
      switch (request.action) {
        case 'addObject':
        case 'updateObject':
          staged.set(objectID, { ...body, objectID })
          break
        case 'partialUpdateObject':
        case 'partialUpdateObjectNoCreate': {
          const existing = current(objectID)
          if (existing || request.action === 'partialUpdateObject') staged.set(objectID, partiallyUpdated(existing, objectID, body))
          break
        }
        case 'deleteObject':
          staged.set(objectID, null)
          break
      }
      return objectID
    })
    const large = index.collection.writing(staged.size)
    for (const [objectID, record] of staged) {
      if (record) index.collection.put(record)
      else index.collection.delete(objectID)
    }
    if (large) this.warmSoon(index)
    return { ...this.task(index), objectIDs }
  }

  clear(indexName: string): WriteResult & { updatedAt: string } {
    const index = this.writable(indexName)
    index.collection.clear()
    return { updatedAt: new Date().toISOString(), ...this.task(index) }
  }

  deleteIndex(indexName: string): WriteResult & { deletedAt: string } {
    const index = this.indexes.get(indexName)
    if (index?.primary) {
      throw new ApiError(400, `${indexName} is a replica of ${index.primary.name}: remove it from that index's replicas setting first`)
    }
    if (index) {
      for (const replica of this.replicasOf(index)) this.detach(replica)
      this.indexes.delete(indexName)
    }
    return { deletedAt: new Date().toISOString(), ...this.task() }
  }

  getObject(
    indexName: string,
    objectID: string,
    attributesToRetrieve: readonly string[] | undefined,
    hideUnretrievable: boolean,
  ): SearchRecord {
    const index = this.existing(indexName)
    const record = index.collection.records.get(objectID)
    if (!record) throw new ApiError(404, OBJECT_NOT_FOUND_MESSAGE)
    const hidden = new Set(hideUnretrievable ? (index.effectiveSettings().unretrievableAttributes ?? []) : [])
    return retrieved(record, attributesToRetrieve ?? ['*'], hidden)
  }

  getSettings(indexName: string): Record<string, unknown> {
    const index = this.existing(indexName)
    const settings = { ...DEFAULT_SETTINGS, ...index.effectiveSettings() }
    return index.primary ? { ...settings, primary: index.primary.name } : settings
  }

  setSettings(indexName: string, changes: IndexSettings, forwardToReplicas: boolean): WriteResult & { updatedAt: string } {
    const index = this.indexes.get(indexName) ?? this.create(indexName)
    if (index.primary && changes.replicas) {
      throw new ApiError(400, `${indexName} is a replica of ${index.primary.name}: a replica cannot have replicas`)
    }
    const next: IndexSettings = { ...index.settings }
    for (const [name, value] of Object.entries(changes) as [keyof IndexSettings, unknown][]) {
      if (value === null) delete next[name]
      else Object.assign(next, { [name]: value })
    }
    if ('replicas' in changes) this.linkReplicas(index, replicaDeclarations(next))
    index.settings = next
    if (forwardToReplicas) {
      // forwarded settings replace the replicas' own, which then inherit the primary's again
      for (const replica of this.replicasOf(index)) {
        const own: IndexSettings = { ...replica.settings }
        for (const name of Object.keys(changes) as (keyof IndexSettings)[]) if (name !== 'replicas') delete own[name]
        replica.settings = own
      }
    }
    index.collection.forgetTextIndexes()
    return { updatedAt: new Date().toISOString(), ...this.task(index) }
  }

  private linkReplicas(primary: SearchIndex, declarations: ReplicaDeclaration[]): void {
    const names = declarations.map((declaration) => declaration.name)
    if (new Set(names).size !== names.length) throw new ApiError(400, 'replicas: a replica is listed twice')
    for (const { name } of declarations) {
      const existing = this.indexes.get(name)
      if (name === primary.name) throw new ApiError(400, `replicas: ${name} cannot be a replica of itself`)
      if (existing?.primary && existing.primary !== primary) {
        throw new ApiError(400, `replicas: ${name} is already a replica of ${existing.primary.name}`)
      }
      if (existing && !existing.primary && (existing.collection.records.size > 0 || this.replicasOf(existing).length > 0)) {
        throw new ApiError(400, `replicas: ${name} already exists as an index with records or replicas of its own; delete it first`)
      }
    }
    for (const replica of this.replicasOf(primary)) {
      if (!names.includes(replica.name)) this.detach(replica)
    }
    for (const { name, virtual } of declarations) {
      // settings saved on the name before it was declared a replica are kept as its own
      const replica = this.indexes.get(name) ?? this.create(name)
      replica.primary = primary
      replica.virtual = virtual
      replica.collection = primary.collection
    }
  }

  /** A replica removed from its primary becomes a regular index with a copy of the records. */
  private detach(replica: SearchIndex): void {
    replica.settings = replica.effectiveSettings()
    replica.collection = replica.collection.copy()
    replica.primary = undefined
    replica.virtual = false
    replica.touch()
  }

  list(): { items: Record<string, unknown>[]; nbPages: number } {
    const items = [...this.indexes.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((index) => {
        const size = Buffer.byteLength(JSON.stringify([...index.collection.records.values()]))
        const replicas = this.replicasOf(index).map((replica) => replica.name)
        return {
          name: index.name,
          createdAt: index.createdAt,
          updatedAt: index.updatedAt,
          entries: index.collection.records.size,
          dataSize: size,
          fileSize: size,
          lastBuildTimeS: 0,
          numberOfPendingTasks: 0,
          pendingTask: false,
          ...(index.primary ? { primary: index.primary.name } : {}),
          ...(replicas.length > 0 ? { replicas } : {}),
        }
      })
    return { items, nbPages: 1 }
  }

  /** Writes apply before they are answered, so every task is already published. */
  taskStatus(taskID: number): { status: 'published'; pendingTask: false } {
    if (!Number.isInteger(taskID) || taskID < 1 || taskID > this.lastTaskID) throw new ApiError(404, 'Task does not exist')
    return { status: 'published', pendingTask: false }
  }

  search(indexName: string, { params, filter, paramsText, hideUnretrievable }: SearchQuery): SearchResponse {
    const started = performance.now()
    const index = this.existing(indexName)
    const settings = index.effectiveSettings()
    const setting = <Name extends keyof typeof DEFAULT_SETTINGS>(name: Name) =>
      (params as Record<string, unknown>)[name] ?? settings[name] ?? DEFAULT_SETTINGS[name]
    const words = new QueryWords(params.query ?? '', {
      queryType: setting('queryType') as QueryOptions['queryType'],
      typoTolerance: setting('typoTolerance') as QueryOptions['typoTolerance'],
      minWordSizefor1Typo: setting('minWordSizefor1Typo') as number,
      minWordSizefor2Typos: setting('minWordSizefor2Typos') as number,
    })
    const { collection } = index

    const searchable = searchableAttributes(settings)
    const rankOf = new Map(searchable.map(({ attribute, rank }) => [attribute, rank]))
    const { filterable, countable } = facetAttributes(settings)
    const canFilterOn = (attribute: string) => filterable.has(attribute)
    // Filtered before anything else is worked out for a record: most records of a large index fail.
    // The facet lists give the records a filter can let through, so the rest are never looked at.
    const allowed = collection.facets.allowedBy(filter, canFilterOn)
    const passes = (record: SearchRecord) =>
      allowed === null
        ? matchesFilter(record, filter, canFilterOn)
        : allowed.records.has(record) && (allowed.complete || matchesFilter(record, filter, canFilterOn))
    let hits: SearchRecord[]
    // Every record the query finds, when it is not `hits` (which then holds only those up to the page).
    let found: { records: Iterable<SearchRecord>; size: number; key: string } | null = null
    const ranked = rankingComparator(settings, index.virtual, collection)
    const hitsPerPage = setting('hitsPerPage') as number
    const page = params.page ?? 0
    const paginationLimitedTo = setting('paginationLimitedTo') as number
    // Without text every record ties on the textual criteria, so one order serves every such query;
    // a query for counts alone (no hits) needs no order at all.
    if (words.words.length === 0 && allowed?.complete) {
      // The facet lists alone say which records and how many: the order is walked only to the page asked.
      found = { records: allowed.records, size: allowed.records.size, key: allowed.key }
      const wanted = Math.min((page + 1) * hitsPerPage, paginationLimitedTo, found.size)
      hits = []
      if (wanted > 0) {
        for (const record of noTextOrder(index)) {
          if (!allowed.records.has(record)) continue
          hits.push(record)
          if (hits.length >= wanted) break
        }
      }
    } else if (words.words.length === 0) {
      const records = hitsPerPage > 0 ? noTextOrder(index) : (allowed?.records ?? collection.records.values())
      hits = []
      for (const record of records) if (passes(record)) hits.push(record)
    } else {
      const attributes = searchable.map(({ attribute }) => attribute)
      const restricted = params.restrictSearchableAttributes?.filter((name) => rankOf.has(name))
      const results = collection.textIndex(attributes).search(words.words.join(' '), {
        fields: restricted && restricted.length > 0 ? restricted : attributes,
        combineWith: 'AND',
        prefix: (_term, position) => words.isPrefix(position),
        fuzzy: (term) => words.maxTypos(term),
        // more important attributes score higher; the ranking criteria come first anyway
        boost: Object.fromEntries(searchable.map(({ attribute, rank }) => [attribute, searchable.length - rank])),
      })
      const candidates = results.flatMap((result): Candidate[] => {
        const record = collection.records.get(result.id as string)
        return record && passes(record) ? [{ record, score: result.score, ...textualCriteria(result, words, rankOf) }] : []
      })
      if (hitsPerPage > 0) candidates.sort(ranked)
      hits = candidates.map(({ record }) => record)
    }

    const total = found?.size ?? hits.length
    const reachable = Math.min(total, paginationLimitedTo)
    const pageHits = hitsPerPage === 0 ? [] : hits.slice(page * hitsPerPage, Math.min((page + 1) * hitsPerPage, reachable))

    const hidden = new Set(hideUnretrievable ? (settings.unretrievableAttributes ?? []) : [])
    const attributesToRetrieve = params.attributesToRetrieve ?? settings.attributesToRetrieve ?? ['*']
    const attributesToHighlight =
      params.attributesToHighlight ?? settings.attributesToHighlight ?? searchable.map(({ attribute }) => attribute)
    const highlighter = new Highlighter(words, setting('highlightPreTag') as string, setting('highlightPostTag') as string)
    const renderedHits = pageHits.map((record) => {
      const visible = retrieved(record, attributesToRetrieve, hidden)
      const highlighted: Record<string, unknown> = {}
      const highlightNames = attributesToHighlight.includes(ALL_ATTRIBUTES) ? Object.keys(record) : attributesToHighlight
      for (const name of new Set(highlightNames.map((attribute) => attribute.split('.')[0] ?? attribute))) {
        if (name === 'objectID' || hidden.has(name) || !(name in record)) continue
        const value = highlighter.value(record[name])
        if (value !== undefined) highlighted[name] = value
      }
      return Object.keys(highlighted).length > 0 ? { ...visible, _highlightResult: highlighted } : visible
    })

    const facetNames = requestedFacets(params.facets, countable)
    const facets =
      params.facets === undefined
        ? {}
        : {
            ...facetCounts(found ?? { records: hits }, facetNames, setting('maxValuesPerFacet') as number, collection.facets),
            exhaustiveFacetsCount: true as const,
          }
    return {
      hits: renderedHits,
      nbHits: total,
      page,
      nbPages: hitsPerPage === 0 ? 0 : Math.ceil(reachable / hitsPerPage),
      hitsPerPage,
      exhaustiveNbHits: true,
      exhaustiveTypo: true,
      exhaustive: { nbHits: true, typo: true },
      ...facets,
      query: params.query ?? '',
      params: paramsText,
      index: indexName,
      processingTimeMS: Math.round(performance.now() - started),
    }
  }

  getObjects(
    requests: { indexName: string; objectID: string; attributesToRetrieve?: string[] }[],
    hideUnretrievable: boolean,
  ): { results: (SearchRecord | null)[] } {
    return {
      results: requests.map(({ indexName, objectID, attributesToRetrieve }) => {
        const index = this.indexes.get(indexName)
        const record = index?.collection.records.get(objectID)
        if (!index || !record) return null
        return this.getObject(indexName, objectID, attributesToRetrieve, hideUnretrievable)
      }),
    }
  }
}
