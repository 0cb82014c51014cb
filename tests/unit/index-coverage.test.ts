// firestore.indexes.json serves every Firestore query the product runs (decision 0036). The
// emulator needs no composite index, so a query missing one passes every other test and fails in
// production with FAILED_PRECONDITION. Here the query catalogue is tied to the source (each site
// that builds a query, as written) and the indexes file is checked against it by Firestore's rules.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  describeIndex,
  indexFor,
  readIndexesFile,
  unneededIndexes,
  unneededOverrideIndexes,
  unservedQueries,
  type IndexesFile,
} from './firestore-index-rules'
import { QUERIES, type CataloguedQuery } from './firestore-queries'
import { MAY_QUERY, scanSource, type CollectionSource, type QuerySite } from './firestore-query-sites'

const ROOT = join(import.meta.dirname, '../..')
const INDEXES = readIndexesFile(JSON.parse(readFileSync(join(ROOT, 'firestore.indexes.json'), 'utf8')))

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gen.ts') ? [path] : []
  })
}

/** Every query site of the browser and edge code (app/) and of the functions. */
const SITES: QuerySite[] = [...sources('app'), ...sources('functions/src')].flatMap((file) => {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return MAY_QUERY.test(text) ? scanSource(file, text) : []
})

/** The collection id a source names: a string, or the domain constant or path builder it imports. */
async function collectionId(file: string, source: CollectionSource): Promise<string | null> {
  if ('literal' in source) return source.literal.split('/').at(-1)!
  const spec = source.from
  if (spec === null) return null
  const path = spec.startsWith('#domain/')
    ? join(ROOT, 'app/domain', spec.slice('#domain/'.length))
    : spec.startsWith('~/')
      ? join(ROOT, 'app', spec.slice(2))
      : spec.startsWith('.')
        ? join(ROOT, dirname(file), spec)
        : null
  if (path === null) return null
  const value: unknown = ((await import(pathToFileURL(path).href)) as Record<string, unknown>)[source.name]
  const id = typeof value === 'function' ? (value as (...a: string[]) => unknown)('a', 'b', 'c', 'd') : value
  return typeof id === 'string' ? id.split('/').at(-1)! : null
}

const scopeKey = (scope: string, id: string) => `${scope === 'COLLECTION_GROUP' ? 'group' : 'collection'} ${id}`
const describeQuery = (q: CataloguedQuery) =>
  `${q.site}: ${scopeKey(q.scope, q.collection)} where ${q.filters.map((f) => `${f.field} ${f.op}`).join(', ') || '-'} order ${q.orderBy.map((o) => `${o.field} ${o.direction}`).join(', ') || '-'}`

/** Differences between what a site builds and what the catalogue says it builds. */
async function differences(site: QuerySite, entries: readonly CataloguedQuery[]): Promise<string[]> {
  if (entries.length === 0)
    return [`${site.site}: not in the catalogue (filters ${site.filters.join(', ') || '-'}; orders ${site.orders.join(', ') || '-'})`]
  const out = site.problems.map((p) => `${site.site}: ${p}`)
  const compare = (what: string, built: string[], catalogued: string[]) => {
    const a = [...new Set(built)].sort()
    const b = [...new Set(catalogued)].sort()
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`${site.site}: the code ${what} ${a.join(', ') || 'nothing'}; the catalogue ${b.join(', ') || 'nothing'}`)
  }
  compare(
    'filters',
    site.filters,
    entries.flatMap((e) => e.filters.map((f) => `${f.field} ${f.op}`)),
  )
  compare(
    'orders',
    site.orders,
    entries.flatMap((e) => e.orderBy.map((o) => `${o.field} ${o.direction}`)),
  )
  const file = site.site.slice(0, site.site.indexOf('#'))
  const built = await Promise.all(
    site.sources.map(async (s) => {
      const id = await collectionId(file, s)
      return id === null ? `${'name' in s ? s.name : '?'} (not a collection this test can resolve)` : scopeKey(s.scope, id)
    }),
  )
  compare(
    'queries',
    built,
    entries.map((e) => scopeKey(e.scope, e.collection)),
  )
  return out
}

describe('the query catalogue', () => {
  it('finds the query sites of the browser, the edge and the functions', () => {
    const files = new Set(SITES.map((s) => s.site.slice(0, s.site.indexOf('#'))))
    expect(files).toContain('app/features/admin/org/org-live.ts')
    expect(files).toContain('app/features/reports/data/reports-edge.server.ts')
    expect(files).toContain('functions/src/reports/sweep.ts')
  })

  it('lists every query site in app/ and functions/src as it is written', async () => {
    const found = (
      await Promise.all(
        SITES.map((site) =>
          differences(
            site,
            QUERIES.filter((q) => q.site === site.site),
          ),
        ),
      )
    ).flat()
    expect(found).toEqual([])
  })

  it('lists no query that the code no longer builds', () => {
    const sites = new Set(SITES.map((s) => s.site))
    expect(QUERIES.filter((q) => !sites.has(q.site)).map(describeQuery)).toEqual([])
  })
})

describe('firestore.indexes.json', () => {
  /** Queries a changed configuration leaves unserved that the file itself serves. */
  const newlyUnserved = (config: IndexesFile) => {
    const already = new Set(unservedQueries(QUERIES, INDEXES))
    return unservedQueries(QUERIES, config).filter((q) => !already.has(q))
  }

  it('serves every query in the catalogue', () => {
    expect(unservedQueries(QUERIES, INDEXES).map((q) => `${describeQuery(q)} needs ${indexFor(q)}`)).toEqual([])
  })

  it('declares no composite index that no query needs (each costs writes)', () => {
    expect(unneededIndexes(QUERIES, INDEXES).map(describeIndex)).toEqual([])
  })

  it('adds no collection-group single-field index that no query needs', () => {
    expect(unneededOverrideIndexes(QUERIES, INDEXES)).toEqual([])
  })

  it('without any one of its composite indexes, leaves a query unserved and names it', () => {
    const orphans = INDEXES.indexes.flatMap((index) =>
      newlyUnserved({ ...INDEXES, indexes: INDEXES.indexes.filter((i) => i !== index) }).length > 0 ? [] : [describeIndex(index)],
    )
    expect(INDEXES.indexes.length).toBeGreaterThan(0)
    expect(orphans).toEqual([])
    // The one the report pages' and the client API's published scans use, for one: without it those queries fail.
    const published = INDEXES.indexes.filter((i) => describeIndex(i) === 'scans (collection): service asc, state asc, publishedAt desc')
    expect(published).toHaveLength(1)
    const without = { ...INDEXES, indexes: INDEXES.indexes.filter((i) => i !== published[0]) }
    expect(newlyUnserved(without).map((q) => q.site)).toEqual([
      'app/features/reports/data/reports-live.ts#watchPublishedScans',
      'app/features/reports/data/reports-edge.server.ts#publishedScans',
      'functions/src/api/client-api.ts#listScans',
    ])
  })

  it('without a collection-group override, leaves its query unserved', () => {
    const fieldOverrides = INDEXES.fieldOverrides.map((o) =>
      o.collectionGroup === 'findings' && o.fieldPath === 'templateSlug'
        ? { ...o, indexes: o.indexes.filter((i) => i.queryScope !== 'COLLECTION_GROUP') }
        : o,
    )
    expect(newlyUnserved({ ...INDEXES, fieldOverrides }).map((q) => q.site)).toEqual([
      'functions/src/delete-finding-template.ts#deleteFindingTemplate',
    ])
  })
})
