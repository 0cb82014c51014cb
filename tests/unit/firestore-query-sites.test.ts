import { describe, expect, it } from 'vitest'
import { scanSource } from './firestore-query-sites'

const lines = (...source: string[]) => source.join('\n')
const web = "import { collection, collectionGroup, documentId, limit, or, orderBy, query, where as w } from 'firebase/firestore'"

describe('query sites in browser code', () => {
  it('reads filters, orders and the collection of a query, per top-level declaration', () => {
    const sites = scanSource(
      'app/features/x/x-live.ts',
      lines(
        web,
        "import { THINGS_COLLECTION } from '#domain/things.ts'",
        "import { scansPath } from '#domain/scans.ts'",
        'export const watchThings = (uid: string) => query(collection(db, THINGS_COLLECTION), w("owner", "==", uid), orderBy("createdAt", "desc"), limit(5))',
        'export function watchScans(company: string, since: number | null) {',
        '  const scans = collection(db, scansPath(company))',
        "  return query(scans, w('service', '==', 's'), ...(since === null ? [] : [w('at', '>', since)]), w(documentId(), 'in', []), orderBy('at', 'desc'))",
        '}',
        "export const plain = () => collection(db, 'things')",
      ),
    )
    expect(sites).toEqual([
      {
        site: 'app/features/x/x-live.ts#watchThings',
        filters: ['owner =='],
        orders: ['createdAt desc'],
        sources: [{ scope: 'COLLECTION', name: 'THINGS_COLLECTION', from: '#domain/things.ts' }],
        problems: [],
      },
      {
        site: 'app/features/x/x-live.ts#watchScans',
        filters: ['__name__ in', 'at >', 'service =='],
        orders: ['at desc'],
        sources: [{ scope: 'COLLECTION', name: 'scansPath', from: '#domain/scans.ts' }],
        problems: [],
      },
    ])
  })

  it('tells a collection group, and ignores a `where` that is not Firestore’s', () => {
    const sites = scanSource(
      'app/features/x/history.ts',
      lines(
        web,
        "const HISTORY = 'history'",
        "export const read = () => query(collectionGroup(db, HISTORY), w('company', '==', 'c'))",
        'const where = (x: unknown) => String(x)',
        'export const label = () => where(1)',
      ),
    )
    expect(sites.map(({ site, sources }) => ({ site, sources }))).toEqual([
      { site: 'app/features/x/history.ts#read', sources: [{ scope: 'COLLECTION_GROUP', literal: 'history' }] },
    ])
  })

  it('follows the watchQuery helper to its collection, and skips the helper itself', () => {
    const sites = scanSource(
      'app/features/x/fleet-live.ts',
      lines(
        "import { orderBy } from 'firebase/firestore'",
        "import { watchQuery } from '~/core/watch-query'",
        "import { AGENTS } from '#domain/agents.ts'",
        "export const watchAgents = () => watchQuery(AGENTS, read, orderBy('name'))",
        'export const watchAll = () => watchQuery(AGENTS, read)',
      ),
    )
    expect(sites.map((s) => [s.site, s.orders, s.sources])).toEqual([
      ['app/features/x/fleet-live.ts#watchAgents', ['name asc'], [{ scope: 'COLLECTION', name: 'AGENTS', from: '#domain/agents.ts' }]],
    ])
    const helper = scanSource(
      'app/core/watch-query.ts',
      lines(
        "import { collection, query } from 'firebase/firestore'",
        'export const watchQuery = (path: string, read: unknown, ...constraints: never[]) => query(collection(db, path), ...constraints)',
      ),
    )
    expect(helper).toEqual([])
  })

  it('reports what the catalogue cannot describe', () => {
    const [site] = scanSource(
      'app/features/x/odd.ts',
      lines(
        web,
        "import { THINGS } from '#domain/things.ts'",
        'export const odd = (field: string) => query(collection(db, THINGS), w(field, "==", 1), or(w("a", "==", 1), w("b", "==", 2)))',
      ),
    )
    expect(site!.problems.map((p) => p.split(':')[0])).toEqual([
      'a filter not written with a literal field and operator',
      'a query part the index check does not model',
    ])
  })
})

describe('query sites in the functions', () => {
  it('follows Admin SDK chains through variables to their collection', () => {
    const sites = scanSource(
      'functions/src/jobs.ts',
      lines(
        "import { FieldPath } from 'firebase-admin/firestore'",
        "import { JOBS } from '#domain/jobs.ts'",
        "import { draftsPath } from '#domain/drafts.ts'",
        'export async function reclaim(db: Db, location?: string) {',
        "  let q = db.collection(JOBS).where('state', 'in', ['a'])",
        "  if (location) q = q.where('locationId', '==', location)",
        "  await q.where('leaseExpiresAt', '<=', 1).limit(10).get()",
        "  await db.collectionGroup('findings').where('templateSlug', '==', 's').count().get()",
        '  const drafts = db.collection(draftsPath("c"))',
        '  await drafts.orderBy(FieldPath.documentId()).startAfter("x").get()',
        "  await db.collection(JOBS).doc('x').get()",
        '}',
      ),
    )
    expect(sites).toEqual([
      {
        site: 'functions/src/jobs.ts#reclaim',
        filters: ['leaseExpiresAt <=', 'locationId ==', 'state in', 'templateSlug =='],
        orders: ['__name__ asc'],
        sources: [
          { scope: 'COLLECTION', name: 'JOBS', from: '#domain/jobs.ts' },
          { scope: 'COLLECTION_GROUP', literal: 'findings' },
          { scope: 'COLLECTION', name: 'draftsPath', from: '#domain/drafts.ts' },
        ],
        problems: [],
      },
    ])
  })

  it('takes the variable a query names from its own block', () => {
    const [site] = scanSource(
      'functions/src/pages.ts',
      lines(
        "import { A, B } from '#domain/ab.ts'",
        'export async function pages(db: Db) {',
        "  async function first() { const q = db.collection(A); return q.where('a', '==', 1).get() }",
        "  async function second() { const q = db.collection(B); return q.where('b', '==', 1).get() }",
        '  return [await first(), await second()]',
        '}',
      ),
    )
    expect(site!.sources).toEqual([
      { scope: 'COLLECTION', name: 'A', from: '#domain/ab.ts' },
      { scope: 'COLLECTION', name: 'B', from: '#domain/ab.ts' },
    ])
  })

  it('reports a Filter object and limitToLast', () => {
    const [site] = scanSource(
      'functions/src/odd.ts',
      lines(
        "export const odd = (db: Db) => db.collection('jobs').where(Filter.or(Filter.where('a', '==', 1))).get()",
        "export const last = (db: Db) => db.collection('jobs').orderBy('at').limitToLast(3).get()",
      ),
    )
    expect(site!.problems[0]).toMatch(/^a Filter object/)
    expect(
      scanSource('functions/src/odd.ts', "export const last = (db: Db) => db.collection('jobs').orderBy('at').limitToLast(3).get()")[0]!
        .problems[0],
    ).toMatch(/^a query part the index check does not model/)
  })
})

describe('query sites over REST', () => {
  const runner = "import { runStructuredQuery } from '~/server/firestore-rest'"

  it('reads the calls of runStructuredQuery: the collection, filters and orders of the literal it passes', () => {
    const sites = scanSource(
      'app/features/r/edge.server.ts',
      lines(
        runner,
        "import { scansPath, findingsPath } from '#domain/scans.ts'",
        'async function published(company: string) {',
        "  return runStructuredQuery(config, token, { parent: 'c', collectionId: scansPath(company).slice(10), filters: [{ field: 'service', op: 'EQUAL', value: v }], orderBy: [{ field: 'publishedAt', direction: 'DESCENDING' }], limit: 3 }, signal)",
        '}',
        'async function page(company: string, several: boolean) {',
        "  const query = { parent: 'c', collectionId: 'findings', filters: [several ? { field: 'status', op: 'IN', value: a } : { field: 'status', op: 'EQUAL', value: b }], orderBy: [{ field: 'lastSeenAt', direction: 'DESCENDING' }], limit: 5 }",
        '  return runStructuredQuery(config, token, query, signal)',
        '}',
      ),
    )
    expect(sites).toEqual([
      {
        site: 'app/features/r/edge.server.ts#published',
        filters: ['service =='],
        orders: ['publishedAt desc'],
        sources: [{ scope: 'COLLECTION', name: 'scansPath', from: '#domain/scans.ts' }],
        problems: [],
      },
      {
        site: 'app/features/r/edge.server.ts#page',
        filters: ['status ==', 'status in'],
        orders: ['lastSeenAt desc'],
        sources: [{ scope: 'COLLECTION', literal: 'findings' }],
        problems: [],
      },
    ])
  })

  it('reports an operator it cannot read, and a structured query sent some other way', () => {
    const [unread] = scanSource(
      'app/features/r/edge.server.ts',
      lines(
        runner,
        "const run = () => runStructuredQuery(c, t, { parent: 'c', collectionId: 'x', filters: [{ field: 'a', op }], orderBy: [], limit: 1 }, s)",
      ),
    )
    expect(unread!.problems[0]).toMatch(/^a filter not written with a literal operator/)
    const [own] = scanSource(
      'app/features/r/edge.server.ts',
      "const run = () => fetch(url, { body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'x' }] } }) })",
    )
    expect(own!.problems[0]).toMatch(/^a structured query sent other than through runStructuredQuery/)
  })
})
