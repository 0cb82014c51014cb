// Whether a Firestore index configuration (firestore.indexes.json) serves a query, by the rules of
// Firestore (Standard edition) in decision 0036. The emulator serves every query without an index,
// so only this check tells a query that would fail in production with FAILED_PRECONDITION.
import * as v from 'valibot'

export type Scope = 'COLLECTION' | 'COLLECTION_GROUP'
export type FilterOp = '==' | 'in' | 'array-contains' | 'array-contains-any' | '<' | '<=' | '>' | '>=' | '!=' | 'not-in'
export type Direction = 'asc' | 'desc'

export interface QueryFilter {
  field: string
  op: FilterOp
}
export interface QueryOrder {
  field: string
  direction: Direction
}

/** A query as the index rules see it: which collection (or group), its filters and its orders. */
export interface QueryShape {
  collection: string
  scope: Scope
  filters: readonly QueryFilter[]
  orderBy: readonly QueryOrder[]
}

const Order = v.picklist(['ASCENDING', 'DESCENDING'])
const QueryScope = v.picklist(['COLLECTION', 'COLLECTION_GROUP'])
const IndexField = v.union([
  v.strictObject({ fieldPath: v.string(), order: Order }),
  v.strictObject({ fieldPath: v.string(), arrayConfig: v.literal('CONTAINS') }),
])
const CompositeIndexSchema = v.strictObject({
  collectionGroup: v.string(),
  queryScope: QueryScope,
  fields: v.pipe(v.array(IndexField), v.minLength(2)),
})
const FieldOverrideIndex = v.union([
  v.strictObject({ order: Order, queryScope: QueryScope }),
  v.strictObject({ arrayConfig: v.literal('CONTAINS'), queryScope: QueryScope }),
])
const FieldOverrideSchema = v.strictObject({
  collectionGroup: v.string(),
  fieldPath: v.string(),
  ttl: v.optional(v.boolean()),
  indexes: v.array(FieldOverrideIndex),
})
export const IndexesFileSchema = v.strictObject({
  indexes: v.array(CompositeIndexSchema),
  fieldOverrides: v.optional(v.array(FieldOverrideSchema), []),
})

export type CompositeIndex = v.InferOutput<typeof CompositeIndexSchema>
export type FieldOverride = v.InferOutput<typeof FieldOverrideSchema>
export type IndexesFile = v.InferOutput<typeof IndexesFileSchema>

export const readIndexesFile = (json: unknown): IndexesFile => v.parse(IndexesFileSchema, json)

type Mode = 'ASCENDING' | 'DESCENDING' | 'CONTAINS'

/** The document key: every index ends with it, and filters on it need no index field. */
const NAME = '__name__'

const EQUALITY: readonly FilterOp[] = ['==', 'in']
const CONTAINS: readonly FilterOp[] = ['array-contains', 'array-contains-any']
const INEQUALITY: readonly FilterOp[] = ['<', '<=', '>', '>=', '!=', 'not-in']

/** What a query asks of the indexes: fields held fixed, array fields, and the order results come in. */
interface Needs {
  equality: string[]
  contains: string[]
  /** Explicit orders, then inequality fields not ordered (by name, in the last order's direction); `__name__` implied after. */
  order: { field: string; mode: 'ASCENDING' | 'DESCENDING' }[]
  /** Only `==` filters and explicit orders: indexes ending in that order may be merged (index-overview, "Index merging"). */
  mergeable: boolean
}

const modeOf = (direction: Direction) => (direction === 'asc' ? 'ASCENDING' : 'DESCENDING')

function needsOf(query: QueryShape): Needs {
  const filters = query.filters.filter((f) => f.field !== NAME)
  const unique = (ops: readonly FilterOp[]) => [...new Set(filters.filter((f) => ops.includes(f.op)).map((f) => f.field))]
  const order: Needs['order'] = []
  for (const o of query.orderBy) {
    if (o.field === NAME) break // the key orders last anyway; nothing after it changes the order
    if (!order.some((x) => x.field === o.field)) order.push({ field: o.field, mode: modeOf(o.direction) })
  }
  const last = order.at(-1)?.mode ?? 'ASCENDING'
  for (const field of unique(INEQUALITY).sort()) if (!order.some((x) => x.field === field)) order.push({ field, mode: last })
  return {
    equality: unique(EQUALITY),
    contains: unique(CONTAINS),
    order,
    mergeable: filters.every((f) => f.op === '==') && unique(INEQUALITY).length === 0,
  }
}

/** The single-field index override of a field, or of the nearest map field above it (subfields inherit it). */
function overrideOf(config: IndexesFile, collection: string, field: string): FieldOverride | undefined {
  const parts = field.split('.')
  for (let n = parts.length; n > 0; n--) {
    const path = parts.slice(0, n).join('.')
    const found = config.fieldOverrides.find((o) => o.collectionGroup === collection && o.fieldPath === path)
    if (found) return found
  }
  return undefined
}

/**
 * Whether the automatic single-field index of `field` exists: by default ascending, descending and
 * array-contains in collection scope, none in collection-group scope; an override replaces that list.
 */
export function hasSingleFieldIndex(config: IndexesFile, collection: string, field: string, scope: Scope, mode: Mode): boolean {
  const override = overrideOf(config, collection, field)
  if (!override) return scope === 'COLLECTION'
  return override.indexes.some((i) => i.queryScope === scope && ('order' in i ? i.order === mode : mode === 'CONTAINS'))
}

/** The index's fields without the trailing `__name__` Firestore adds to every composite index. */
const ownFields = (index: CompositeIndex) => (index.fields.at(-1)?.fieldPath === NAME ? index.fields.slice(0, -1) : index.fields)

/**
 * How an index lines up with a query's needs: its first fields all held fixed by the query (equality
 * on an ordered field, array-contains on an array field, any order among them), then exactly the
 * query's order. Returns the fixed fields it covers, or null when it cannot take part.
 */
function coverOf(index: CompositeIndex, query: QueryShape, needs: Needs): string[] | null {
  if (index.collectionGroup !== query.collection || index.queryScope !== query.scope) return null
  const fields = ownFields(index)
  const split = fields.length - needs.order.length
  if (split < 0) return null
  const suffix = fields.slice(split)
  if (!suffix.every((f, i) => 'order' in f && f.fieldPath === needs.order[i]!.field && f.order === needs.order[i]!.mode)) return null
  const prefix = fields.slice(0, split)
  const covered: string[] = []
  for (const f of prefix) {
    const fits = 'order' in f ? needs.equality.includes(f.fieldPath) : needs.contains.includes(f.fieldPath)
    if (!fits || covered.includes(f.fieldPath)) return null
    covered.push(f.fieldPath)
  }
  return covered
}

export type Plan = { kind: 'single-field' } | { kind: 'composite'; indexes: CompositeIndex[] }

/** An index plan for the query from the configuration, or null when Firestore would refuse it for want of an index. */
export function planFor(query: QueryShape, config: IndexesFile): Plan | null {
  const needs = needsOf(query)
  const fixed = [...needs.equality, ...needs.contains]
  const single = (field: string, mode: Mode) => hasSingleFieldIndex(config, query.collection, field, query.scope, mode)

  // Fixed fields only, each with its own index: those are merged.
  if (
    needs.order.length === 0 &&
    needs.equality.every((f) => single(f, 'ASCENDING') || single(f, 'DESCENDING')) &&
    needs.contains.every((f) => single(f, 'CONTAINS'))
  )
    return { kind: 'single-field' }
  // One ordered (or range-filtered) field and nothing fixed: that field's own index in that direction.
  if (fixed.length === 0 && needs.order.length === 1)
    return single(needs.order[0]!.field, needs.order[0]!.mode) ? { kind: 'single-field' } : null

  const candidates = config.indexes.flatMap((index) => {
    const covered = coverOf(index, query, needs)
    return covered ? [{ index: index as CompositeIndex | null, covered }] : []
  })
  const exact = candidates.find((c) => c.covered.length === fixed.length)
  if (exact) return { kind: 'composite', indexes: [exact.index!] }
  // Without an order, each fixed field's own single-field index takes part in the merge too.
  if (needs.order.length === 0) {
    for (const f of needs.equality) if (single(f, 'ASCENDING')) candidates.push({ index: null, covered: [f] })
    for (const f of needs.contains) if (single(f, 'CONTAINS')) candidates.push({ index: null, covered: [f] })
  } else if (!needs.mergeable) return null
  // Indexes that each fix some of the fields and end in the query's order are merged.
  const chosen: typeof candidates = []
  const left = new Set(fixed)
  while (left.size > 0) {
    const best = candidates.map((c) => ({ c, gain: c.covered.filter((f) => left.has(f)).length })).sort((a, b) => b.gain - a.gain)[0]
    if (!best || best.gain === 0) return null
    chosen.push(best.c)
    best.c.covered.forEach((f) => left.delete(f))
  }
  const indexes = chosen.flatMap((c) => (c.index ? [c.index] : []))
  if (indexes.length === 0) return { kind: 'single-field' }
  return { kind: 'composite', indexes }
}

/** What would serve the query on its own: a composite index, or a field override for one field. */
export function indexFor(query: QueryShape): string {
  const needs = needsOf(query)
  const fields = [
    ...needs.contains.map((field) => `${field} contains`),
    ...needs.equality.map((field) => `${field} asc`),
    ...needs.order.map(({ field, mode }) => `${field} ${mode === 'ASCENDING' ? 'asc' : 'desc'}`),
  ]
  const scope = query.scope === 'COLLECTION_GROUP' ? 'group' : 'collection'
  return fields.length === 1
    ? `a field override on ${query.collection} ${fields[0]} (${scope})`
    : `the index ${query.collection} (${scope}): ${fields.join(', ')}`
}

export const describeIndex = (index: CompositeIndex) =>
  `${index.collectionGroup} (${index.queryScope === 'COLLECTION_GROUP' ? 'group' : 'collection'}): ` +
  ownFields(index)
    .map((f) => `${f.fieldPath} ${'order' in f ? (f.order === 'ASCENDING' ? 'asc' : 'desc') : 'contains'}`)
    .join(', ')

/** The queries the configuration does not serve. */
export const unservedQueries = <Q extends QueryShape>(queries: readonly Q[], config: IndexesFile): Q[] =>
  queries.filter((query) => planFor(query, config) === null)

/**
 * Composite indexes no query needs: removing one leaves no further query unserved. Each costs a
 * write per indexed document change and storage, for nothing.
 */
export function unneededIndexes(queries: readonly QueryShape[], config: IndexesFile): CompositeIndex[] {
  const unserved = unservedQueries(queries, config).length
  return config.indexes.filter(
    (index) => unservedQueries(queries, { ...config, indexes: config.indexes.filter((i) => i !== index) }).length === unserved,
  )
}

/**
 * Indexes field overrides add beyond the automatic ones (collection-group scope) that no query
 * needs, as "collection fieldPath mode scope".
 */
export function unneededOverrideIndexes(queries: readonly QueryShape[], config: IndexesFile): string[] {
  const unserved = unservedQueries(queries, config).length
  return config.fieldOverrides.flatMap((override, o) =>
    override.indexes.flatMap((entry, e) => {
      if (entry.queryScope !== 'COLLECTION_GROUP') return []
      const fieldOverrides = config.fieldOverrides.map((x, i) => (i === o ? { ...x, indexes: x.indexes.filter((_, j) => j !== e) } : x))
      if (unservedQueries(queries, { ...config, fieldOverrides }).length > unserved) return []
      return [`${override.collectionGroup} ${override.fieldPath} ${'order' in entry ? entry.order : 'CONTAINS'} ${entry.queryScope}`]
    }),
  )
}
