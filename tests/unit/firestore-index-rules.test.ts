import { describe, expect, it } from 'vitest'
import {
  indexFor,
  planFor,
  readIndexesFile,
  unneededIndexes,
  unneededOverrideIndexes,
  unservedQueries,
  type CompositeIndex,
  type FieldOverride,
  type FilterOp,
  type IndexesFile,
  type QueryShape,
} from './firestore-index-rules'

type Clause = { where: [string, FilterOp] } | { orderBy: [string, 'asc' | 'desc'] }
const where = (field: string, op: FilterOp): Clause => ({ where: [field, op] })
const orderBy = (field: string, direction: 'asc' | 'desc' = 'asc'): Clause => ({ orderBy: [field, direction] })

function shape(collection: string, ...clauses: Clause[]): QueryShape {
  return {
    collection,
    scope: 'COLLECTION',
    filters: clauses.flatMap((c) => ('where' in c ? [{ field: c.where[0], op: c.where[1] }] : [])),
    orderBy: clauses.flatMap((c) => ('orderBy' in c ? [{ field: c.orderBy[0], direction: c.orderBy[1] }] : [])),
  }
}
const group = (query: QueryShape): QueryShape => ({ ...query, scope: 'COLLECTION_GROUP' })

/** An index from "field asc|desc|contains" parts. */
function index(collection: string, ...fields: string[]): CompositeIndex {
  return {
    collectionGroup: collection,
    queryScope: 'COLLECTION',
    fields: fields.map((part) => {
      const [fieldPath, mode] = part.split(' ') as [string, string]
      return mode === 'contains'
        ? { fieldPath, arrayConfig: 'CONTAINS' as const }
        : { fieldPath, order: mode === 'desc' ? 'DESCENDING' : 'ASCENDING' }
    }),
  }
}
const inGroup = (i: CompositeIndex): CompositeIndex => ({ ...i, queryScope: 'COLLECTION_GROUP' })
const config = (indexes: CompositeIndex[] = [], fieldOverrides: FieldOverride[] = []): IndexesFile => ({ indexes, fieldOverrides })
const served = (query: QueryShape, c: IndexesFile) => planFor(query, c) !== null

describe('single-field indexes (automatic)', () => {
  it('serve equality filters on any fields, merged', () => {
    expect(planFor(shape('scans', where('service', '=='), where('state', '==')), config())).toEqual({ kind: 'single-field' })
    expect(served(shape('jobs', where('locationId', '=='), where('state', 'in')), config())).toBe(true)
    expect(served(shape('retests', where('service', '=='), where('findingIds', 'array-contains')), config())).toBe(true)
  })

  it('serve one ordered or range-filtered field, in either direction', () => {
    expect(served(shape('templates', orderBy('updatedAt', 'desc')), config())).toBe(true)
    expect(served(shape('vault_links', where('purgeAt', '<=')), config())).toBe(true)
    expect(served(shape('activity', where('at', '>'), orderBy('at', 'desc')), config())).toBe(true)
  })

  it('do not serve an equality filter with an order on another field', () => {
    const query = shape('scans', where('service', '=='), orderBy('startedAt', 'desc'))
    expect(served(query, config())).toBe(false)
    expect(indexFor(query)).toBe('the index scans (collection): service asc, startedAt desc')
  })

  it('do not serve an equality filter with a range on another field', () => {
    expect(served(shape('findings', where('status', '=='), where('dueAt', '<=')), config())).toBe(false)
  })

  it('are missing where an override exempts the field, or the map field above it', () => {
    const exempt: FieldOverride = { collectionGroup: 'rate_limits', fieldPath: 'expiresAt', ttl: true, indexes: [] }
    expect(served(shape('rate_limits', where('expiresAt', '<=')), config([], [exempt]))).toBe(false)
    const map: FieldOverride = { collectionGroup: 'findings', fieldPath: 'sla', indexes: [] }
    expect(served(shape('findings', where('sla.dueAt', '<=')), config([], [map]))).toBe(false)
    expect(served(shape('findings', where('slaState', '==')), config([], [map]))).toBe(true)
  })

  it('an override that keeps only ascending leaves no descending order', () => {
    const ascending: FieldOverride = {
      collectionGroup: 'vault_links',
      fieldPath: 'purgeAt',
      ttl: true,
      indexes: [{ order: 'ASCENDING', queryScope: 'COLLECTION' }],
    }
    expect(served(shape('vault_links', where('purgeAt', '<=')), config([], [ascending]))).toBe(true)
    expect(served(shape('vault_links', orderBy('purgeAt', 'desc')), config([], [ascending]))).toBe(false)
  })

  it('exist in collection scope only, unless an override adds the collection-group scope', () => {
    const query = group(shape('findings', where('templateSlug', '==')))
    expect(served(query, config())).toBe(false)
    expect(indexFor(query)).toBe('a field override on findings templateSlug asc (group)')
    const override: FieldOverride = {
      collectionGroup: 'findings',
      fieldPath: 'templateSlug',
      indexes: [
        { order: 'ASCENDING', queryScope: 'COLLECTION' },
        { order: 'ASCENDING', queryScope: 'COLLECTION_GROUP' },
      ],
    }
    expect(served(query, config([], [override]))).toBe(true)
    // The override replaces the defaults: no array-contains index is left in collection scope.
    expect(served(shape('findings', where('templateSlug', 'array-contains')), config([], [override]))).toBe(false)
  })

  it('ignore filters and a final order on the document key', () => {
    expect(served(shape('findings', where('service', '=='), where('__name__', 'in')), config())).toBe(true)
    expect(served(shape('findings', orderBy('lastSeenAt', 'desc'), orderBy('__name__', 'desc')), config())).toBe(true)
  })
})

describe('composite indexes', () => {
  const serviceByStart = index('scans', 'service asc', 'startedAt desc')

  it('serve equality fields then the order, in its direction', () => {
    expect(planFor(shape('scans', where('service', '=='), orderBy('startedAt', 'desc')), config([serviceByStart]))).toEqual({
      kind: 'composite',
      indexes: [serviceByStart],
    })
    expect(served(shape('scans', where('service', '=='), orderBy('startedAt', 'asc')), config([serviceByStart]))).toBe(false)
    expect(served(shape('scans', where('service', '=='), orderBy('publishedAt', 'desc')), config([serviceByStart]))).toBe(false)
  })

  it('take the equality fields in any order, and either direction', () => {
    const i = index('findings', 'status desc', 'service asc', 'lastSeenAt desc')
    expect(served(shape('findings', where('service', '=='), where('status', 'in'), orderBy('lastSeenAt', 'desc')), config([i]))).toBe(true)
  })

  it('must cover exactly the fixed fields and the order: no field more, none less', () => {
    const wide = index('findings', 'service asc', 'status asc', 'lastSeenAt desc')
    expect(served(shape('findings', where('service', '=='), orderBy('lastSeenAt', 'desc')), config([wide]))).toBe(false)
    const long = index('findings', 'service asc', 'lastSeenAt desc', 'title asc')
    expect(served(shape('findings', where('service', '=='), orderBy('lastSeenAt', 'desc')), config([long]))).toBe(false)
  })

  it('ignore a trailing __name__ field', () => {
    const i = index('scans', 'service asc', 'startedAt desc', '__name__ desc')
    expect(served(shape('scans', where('service', '=='), orderBy('startedAt', 'desc')), config([i]))).toBe(true)
  })

  it('serve a range after the equality fields, ordered ascending when no order is given', () => {
    const query = shape('jobs', where('state', 'in'), where('leaseExpiresAt', '<='))
    expect(served(query, config([index('jobs', 'state asc', 'leaseExpiresAt asc')]))).toBe(true)
    expect(served(query, config([index('jobs', 'state asc', 'leaseExpiresAt desc')]))).toBe(false)
    expect(served(query, config([index('jobs', 'leaseExpiresAt asc', 'state asc')]))).toBe(false)
  })

  it('order several inequality fields by name after the explicit order, in its direction', () => {
    const query = shape('cities', where('population', '>'), where('density', '<'))
    expect(served(query, config([index('cities', 'density asc', 'population asc')]))).toBe(true)
    expect(served(query, config([index('cities', 'population asc', 'density asc')]))).toBe(false)
    const ordered = shape('cities', where('population', '>'), where('density', '<'), orderBy('population', 'desc'))
    expect(served(ordered, config([index('cities', 'population desc', 'density desc')]))).toBe(true)
    expect(indexFor(ordered)).toBe('the index cities (collection): population desc, density desc')
  })

  it('need an array-contains field for an array-contains filter', () => {
    const query = shape('shares', where('teamUids', 'array-contains'), where('company', '=='), orderBy('createdAt', 'desc'))
    expect(served(query, config([index('shares', 'teamUids contains', 'company asc', 'createdAt desc')]))).toBe(true)
    expect(served(query, config([index('shares', 'teamUids asc', 'company asc', 'createdAt desc')]))).toBe(false)
    expect(indexFor(query)).toBe('the index shares (collection): teamUids contains, company asc, createdAt desc')
  })

  it('serve a collection-group query only in collection-group scope', () => {
    const query = group(shape('history', where('company', '=='), where('service', '=='), where('findingId', 'in')))
    const fields = ['company asc', 'service asc', 'findingId asc']
    expect(served(query, config([index('history', ...fields)]))).toBe(false)
    expect(served(query, config([inGroup(index('history', ...fields))]))).toBe(true)
    expect(
      served(
        shape('history', where('company', '=='), where('service', '=='), orderBy('at')),
        config([inGroup(index('history', 'company asc', 'service asc', 'at asc'))]),
      ),
    ).toBe(false)
  })

  it('are merged for equality filters and one order (index merging)', () => {
    const byCompany = index('audit', 'companyId asc', 'createdAt desc')
    const byAudience = index('audit', 'audience asc', 'createdAt desc')
    const query = shape('audit', where('companyId', '=='), where('audience', '=='), orderBy('createdAt', 'desc'))
    expect(planFor(query, config([byCompany, byAudience]))).toEqual({ kind: 'composite', indexes: [byCompany, byAudience] })
    expect(served(query, config([byCompany]))).toBe(false)
    // Not with `in` or a range: those need the one index that serves them.
    expect(
      served(
        shape('audit', where('companyId', '=='), where('audience', 'in'), orderBy('createdAt', 'desc')),
        config([byCompany, byAudience]),
      ),
    ).toBe(false)
  })

  it('merge with single-field indexes when there is no order', () => {
    const query = group(shape('history', where('company', '=='), where('findingId', 'in')))
    const override: FieldOverride = {
      collectionGroup: 'history',
      fieldPath: 'findingId',
      indexes: [{ order: 'ASCENDING', queryScope: 'COLLECTION_GROUP' }],
    }
    expect(served(query, config([], [override]))).toBe(false)
    expect(served(query, config([inGroup(index('history', 'company asc', 'service asc'))], [override]))).toBe(false)
    const companyOverride: FieldOverride = {
      collectionGroup: 'history',
      fieldPath: 'company',
      indexes: [{ order: 'ASCENDING', queryScope: 'COLLECTION_GROUP' }],
    }
    expect(served(query, config([], [override, companyOverride]))).toBe(true)
  })
})

describe('unneeded indexes', () => {
  const queries = [
    shape('scans', where('service', '=='), orderBy('startedAt', 'desc')),
    shape('audit', where('companyId', '=='), orderBy('createdAt', 'desc')),
    shape('audit', where('audience', '=='), orderBy('createdAt', 'desc')),
    shape('audit', where('companyId', '=='), where('audience', '=='), orderBy('createdAt', 'desc')),
    group(shape('findings', where('templateSlug', '=='))),
  ]
  const needed = [
    index('scans', 'service asc', 'startedAt desc'),
    index('audit', 'companyId asc', 'createdAt desc'),
    index('audit', 'audience asc', 'createdAt desc'),
  ]
  const override: FieldOverride = {
    collectionGroup: 'findings',
    fieldPath: 'templateSlug',
    indexes: [
      { order: 'ASCENDING', queryScope: 'COLLECTION' },
      { order: 'ASCENDING', queryScope: 'COLLECTION_GROUP' },
    ],
  }

  it('none when each index is the only way to serve some query', () => {
    expect(unservedQueries(queries, config(needed, [override]))).toEqual([])
    expect(unneededIndexes(queries, config(needed, [override]))).toEqual([])
    expect(unneededOverrideIndexes(queries, config(needed, [override]))).toEqual([])
  })

  it('an index no query uses, and one every query it serves can do without', () => {
    const unused = index('scans', 'state asc', 'startedAt desc')
    const merged = index('audit', 'companyId asc', 'audience asc', 'createdAt desc')
    expect(unneededIndexes(queries, config([...needed, unused, merged], [override]))).toEqual([unused, merged])
  })

  it('are told apart from needed ones while some query is unserved', () => {
    const unservable = shape('scans', where('service', '=='), orderBy('publishedAt', 'desc'))
    const unused = index('scans', 'state asc', 'startedAt desc')
    expect(unneededIndexes([...queries, unservable], config([...needed, unused], [override]))).toEqual([unused])
  })

  it('a collection-group index an override adds for no query', () => {
    const extra: FieldOverride = {
      collectionGroup: 'scans',
      fieldPath: 'startedAt',
      indexes: [{ order: 'DESCENDING', queryScope: 'COLLECTION_GROUP' }],
    }
    expect(unneededOverrideIndexes(queries, config(needed, [override, extra]))).toEqual(['scans startedAt DESCENDING COLLECTION_GROUP'])
  })
})

describe('the indexes file', () => {
  it('is read strictly', () => {
    expect(readIndexesFile({ indexes: [index('scans', 'service asc', 'startedAt desc')] }).fieldOverrides).toEqual([])
    expect(() =>
      readIndexesFile({ indexes: [{ collectionGroup: 'scans', queryScope: 'COLLECTION', fields: [{ fieldPath: 'a', order: 'UP' }] }] }),
    ).toThrow()
    expect(() =>
      readIndexesFile({
        indexes: [{ collectionGroup: 'scans', queryScope: 'COLLECTION', fields: [{ fieldPath: 'a', order: 'ASCENDING' }] }],
      }),
    ).toThrow()
    expect(() => readIndexesFile({ indexes: [], fieldOverides: [] })).toThrow()
  })
})
