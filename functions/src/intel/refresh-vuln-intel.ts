// The daily vulnerability intelligence refresh (decision 0049), run by refreshVulnIntelDaily and
// directly by tests. Four steps, none holding more than it needs:
// 1. the CVE ids the findings name, read page by page (their `cve` field only);
// 2. the KEV catalogue (small, read whole) and the EPSS scores (streamed: only the rows of those
//    CVEs are kept);
// 3. vuln_intel/{cve} written where what the feeds say changed;
// 4. the findings read again page by page, each written only when its summed-up figures changed;
//    an open finding that becomes known exploited in a company whose SLA policy has a KEV deadline
//    gets the shorter clock, through the finding store (so the SLA counts follow).
// A second run on the same feeds writes nothing.
import {
  FieldPath,
  Timestamp,
  type DocumentReference,
  type Firestore,
  type Query,
  type QueryDocumentSnapshot,
} from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import * as v from 'valibot'
import { companyPath, kevSlaDaysOf } from '#domain/companies.ts'
import { FINDINGS_COLLECTION, isOpenStatus, type StoredFinding } from '#domain/findings.ts'
import { kevSlaClock, slaStateAt } from '#domain/sla.ts'
import { aggregatePacer } from '#domain/stats-ledger.ts'
import { storedTimes } from '#domain/stored.ts'
import { readEpssScores, type EpssScore } from '#domain/vuln-feeds/epss-feed.ts'
import { FeedError } from '#domain/vuln-feeds/feed-stream.ts'
import { readKevCatalogue } from '#domain/vuln-feeds/kev-feed.ts'
import {
  CVE_ID_PATTERN,
  FindingIntelSchema,
  findingIntel,
  roundedUnit,
  sameIntel,
  vulnIntelFromDocument,
  vulnIntelPath,
  type CveIntel,
  type FindingIntel,
  type StoredVulnIntel,
} from '#domain/vuln-intel.ts'
import { applyFindingChanges, readFinding, type FindingWrite } from '../reports/finding-store.ts'
import { foldPaced } from '../reports/stats-fold.ts'
import type { FeedUrls } from './feed-config.ts'

/** Findings read per page. */
export const INTEL_PAGE = 500
/** Distinct CVE ids the refresh keeps figures for: far more than the findings of many clients name. */
export const MAX_CARRIED_CVES = 500_000
/** Documents per getAll. */
const READ_IDS = 300
/** Findings per transaction when a KEV deadline moves their clocks. */
const CLOCK_CHUNK = 50
/** How long one download may take. */
const DOWNLOAD_MS = 120_000

export interface RefreshOptions extends FeedUrls {
  /** Findings per page (tests go through more than one page with a small one). */
  pageSize?: number
}

export interface RefreshSummary {
  kevVersion: string
  epssDate: string | null
  /** Distinct CVE ids the findings name, and how many of them a feed lists. */
  cves: number
  listed: number
  intelWritten: number
  findingsRead: number
  findingsWritten: number
  /** Findings whose deadline a company's KEV policy brought forward. */
  kevDeadlines: number
}

async function download(url: string, feed: string): Promise<ReadableStream<Uint8Array>> {
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_MS), headers: { accept: '*/*' } })
  } catch (error) {
    throw new FeedError(feed, url, `cannot be downloaded (${error instanceof Error ? error.message : String(error)})`)
  }
  if (!response.ok || !response.body) throw new FeedError(feed, url, `answered ${response.status}`)
  return response.body
}

/** The findings that name a CVE, page by page in path order (`fields`: only those are read). */
async function* findingPages(db: Firestore, pageSize: number, fields: string[]): AsyncGenerator<QueryDocumentSnapshot[]> {
  const query: Query = db
    .collectionGroup(FINDINGS_COLLECTION)
    .where('hasCves', '==', true)
    .orderBy(FieldPath.documentId())
    .select(...fields)
  let after: QueryDocumentSnapshot | null = null
  for (;;) {
    const page = await (after ? query.startAfter(after) : query).limit(pageSize).get()
    if (page.empty) return
    yield page.docs
    if (page.size < pageSize) return
    after = page.docs.at(-1)!
  }
}

const cvesOf = (doc: QueryDocumentSnapshot): string[] => {
  const value: unknown = doc.get('cve')
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string' && CVE_ID_PATTERN.test(x)) : []
}

/** Step 1: the distinct CVE ids the findings name. */
async function carriedCves(db: Firestore, pageSize: number): Promise<Set<string>> {
  const cves = new Set<string>()
  for await (const docs of findingPages(db, pageSize, ['cve']))
    for (const doc of docs)
      for (const cve of cvesOf(doc)) {
        cves.add(cve)
        if (cves.size > MAX_CARRIED_CVES) throw new Error(`vuln intel: the findings name more than ${MAX_CARRIED_CVES} CVEs`)
      }
  return cves
}

const sameCve = (a: CveIntel, b: CveIntel) =>
  JSON.stringify([a.kev, a.epss, a.percentile]) === JSON.stringify([b.kev, b.epss, b.percentile])

/** Writes the documents, each on its own (one that fails is logged, not the end of the run). */
async function writeEach(db: Firestore, writes: [DocumentReference, Record<string, unknown>, 'set' | 'update'][]): Promise<number> {
  if (writes.length === 0) return 0
  const writer = db.bulkWriter()
  let written = 0
  writer.onWriteError((error) => {
    logger.warn('vuln intel: a write failed', { path: error.documentRef.path, code: error.code })
    return false
  })
  for (const [ref, data, kind] of writes)
    void (kind === 'set' ? writer.set(ref, data) : writer.update(ref, data)).then(
      () => written++,
      () => {},
    )
  await writer.close()
  return written
}

export async function refreshVulnIntel(db: Firestore, now: number, options: RefreshOptions): Promise<RefreshSummary> {
  const pageSize = options.pageSize ?? INTEL_PAGE
  const wanted = await carriedCves(db, pageSize)

  const kev = await readKevCatalogue(await download(options.kevUrl, 'KEV catalogue'))
  const scores = new Map<string, EpssScore>()
  const edition = await readEpssScores(await download(options.epssUrl, 'EPSS scores'), (score) => {
    if (wanted.has(score.cve)) scores.set(score.cve, score)
  })

  // Step 3: what the feeds say of each CVE the findings name, written where it changed.
  const intel = new Map<string, CveIntel>()
  for (const cve of wanted) {
    const entry = kev.entries.get(cve) ?? null
    const score = scores.get(cve)
    if (!entry && !score) continue
    intel.set(cve, { cve, kev: entry, epss: roundedUnit(score?.epss ?? null), percentile: roundedUnit(score?.percentile ?? null) })
  }
  const ids = [...wanted]
  let intelWritten = 0
  for (let start = 0; start < ids.length; start += READ_IDS) {
    const refs = ids.slice(start, start + READ_IDS).map((cve) => db.doc(vulnIntelPath(cve)))
    const writes: [DocumentReference, Record<string, unknown>, 'set'][] = []
    for (const snapshot of await db.getAll(...refs)) {
      const before = snapshot.exists ? vulnIntelFromDocument(snapshot.data()) : null
      const after = intel.get(snapshot.id)
      // Listed before and by neither feed now: its document says so.
      const current = after ?? (before ? { cve: snapshot.id, kev: null, epss: null, percentile: null } : null)
      if (!current || (before && sameCve(before, current))) continue
      const stored: StoredVulnIntel = {
        ...current,
        epssDate: current.epss === null ? null : edition.scoreDate,
        kevVersion: current.kev ? kev.catalogVersion : null,
        updatedAt: now,
      }
      writes.push([snapshot.ref, storedTimes(stored, Timestamp.fromMillis) as Record<string, unknown>, 'set'])
    }
    intelWritten += await writeEach(db, writes)
  }

  // Step 4: each finding's figures, written only where they changed.
  const kevDays = companyKevDays(db)
  const lookup = (cve: string) => intel.get(cve)
  let findingsRead = 0
  let findingsWritten = 0
  let kevDeadlines = 0
  const folds = new Set<string>()
  for await (const docs of findingPages(db, pageSize, ['cve', 'intel'])) {
    findingsRead += docs.length
    const writes: [DocumentReference, Record<string, unknown>, 'update'][] = []
    // Findings becoming known exploited in a company with a KEV deadline: their clocks move too.
    const clocks = new Map<string, { days: number; ids: string[] }>()
    for (const doc of docs) {
      const stored = v.safeParse(v.nullable(FindingIntelSchema), doc.get('intel') ?? null)
      const after: FindingIntel | null = findingIntel(cvesOf(doc), lookup, now)
      if (stored.success && sameIntel(stored.output, after)) continue
      const company = doc.ref.parent.parent?.id
      const days = after?.kev && !(stored.success && stored.output?.kev) && company ? await kevDays(company) : null
      if (company && days) {
        const entry = clocks.get(company) ?? { days, ids: [] }
        entry.ids.push(doc.id)
        clocks.set(company, entry)
        continue
      }
      writes.push([doc.ref, { intel: after ? storedTimes(after, Timestamp.fromMillis) : null }, 'update'])
    }
    findingsWritten += await writeEach(db, writes)
    for (const [company, { days, ids }] of clocks)
      for (let start = 0; start < ids.length; start += CLOCK_CHUNK) {
        const moved = await kevClocks(db, company, ids.slice(start, start + CLOCK_CHUNK), days, lookup, now)
        findingsWritten += moved.written
        kevDeadlines += moved.shortened
        if (moved.written > 0) folds.add(company)
      }
  }
  // The SLA counts the moved clocks changed, added to the service figures.
  for (const company of folds) await foldPaced(db, company, aggregatePacer())

  return {
    kevVersion: kev.catalogVersion,
    epssDate: edition.scoreDate,
    cves: wanted.size,
    listed: intel.size,
    intelWritten,
    findingsRead,
    findingsWritten,
    kevDeadlines,
  }
}

/** A company's KEV deadline in days (its SLA policy), read once per company and run; null: none. */
function companyKevDays(db: Firestore): (company: string) => Promise<number | null> {
  const known = new Map<string, Promise<number | null>>()
  return (company) => {
    let days = known.get(company)
    if (!days) {
      days = db
        .doc(companyPath(company))
        .get()
        .then((snapshot) => kevSlaDaysOf(snapshot.data()))
      known.set(company, days)
    }
    return days
  }
}

/**
 * The findings' figures, and for the open ones that become known exploited the clock of the
 * company's KEV deadline, in one transaction through the finding store; read again inside it, so a
 * finding changed meanwhile is planned as it is now.
 */
async function kevClocks(
  db: Firestore,
  company: string,
  ids: readonly string[],
  days: number,
  lookup: (cve: string) => CveIntel | undefined,
  now: number,
): Promise<{ written: number; shortened: number }> {
  return db.runTransaction(async (tx) => {
    const writes: FindingWrite[] = []
    let shortened = 0
    for (const id of ids) {
      const finding = await readFinding(db, tx, company, id)
      if (!finding) continue
      const intel = findingIntel(finding.cve, lookup, now)
      if (sameIntel(finding.intel, intel)) continue
      const patch: Partial<StoredFinding> = { intel }
      if (intel?.kev && !finding.intel?.kev && isOpenStatus(finding.status)) {
        const sla = kevSlaClock(finding.sla, days, now)
        if (sla.dueAt !== finding.sla.dueAt) {
          Object.assign(patch, { sla, slaState: slaStateAt(sla, now) })
          shortened++
        }
      }
      writes.push({ id, before: finding, patch, change: null })
    }
    if (writes.length > 0) await applyFindingChanges(db, tx, { company, updatedBy: 'system', findings: writes, ledger: true })
    return { written: writes.length, shortened }
  })
}
