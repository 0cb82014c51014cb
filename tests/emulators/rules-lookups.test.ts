// Every read the product makes (each query of the browser and the edge in the query catalogue, and
// the scan comparison's reads), made as each kind of person who makes it and at its largest (as
// many ids per `documentId() in` as the product sends, Firestore's 30 values in other `in`s),
// counted against Firestore's limit on document accesses per request. The emulator counts the
// rules' lookups (exists() and get() of users_access, of the company, of a parent document) and,
// for a client's read of findings by id, the ids too; it refuses more than 20 ("Cannot call
// firestore functions more than 20 during the rules evaluation"); production allows 10 per query.
// The count: the rules run with k lookups of other documents added to every condition, and the
// largest k the emulator still answers a read with leaves what the read took itself. A read the
// rules answered by fetching per document or per id would count past 10 here and fail.
import {
  collection,
  collectionGroup,
  documentId,
  getDocs,
  limit,
  orderBy,
  query,
  Timestamp,
  where,
  type WhereFilterOp,
} from 'firebase/firestore/lite'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { companyPath } from '#domain/companies.ts'
import { FINDING_IDS_PER_READ, FINDING_STATUSES, findingsPath } from '#domain/findings.ts'
import { reopenCandidates } from '#domain/scan-comparison.ts'
import { scanMembersFromDocument, scanMembersPath, type ScanMembers } from '#domain/scans.ts'
import { PROJECT_ID, ROOT } from '../../emulators/firebase/env.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import { findingDocument } from '../builders.ts'
import { QUERIES, type CataloguedQuery } from '../unit/firestore-queries.ts'
import { demo, principals, ruleCase, rulesSuite, type Db, type Principal, type RuleCase } from './rules-harness.ts'

const suite = rulesSuite('lookups')
suite.seedPrincipals(principals)
for (const company of DEMO_COMPANIES) suite.seed(companyPath(company.slug), { ...company })

const COMPANY = 'acme'
const SERVICE = 'network'
/** The emulator's limit per request, and production's per query. */
const EMULATOR_ACCESSES = 20
const QUERY_ACCESSES = 10
/** The most values Firestore takes in one `in`: what the reads that batch values by a field send (history-reads.ts). */
const IN_VALUES = 30
const DAY = 86_400_000
const baseStart = Date.UTC(2026, 5, 1)

// Two scans of a year's network findings: 600 in both, 240 only in the target (half of them first
// seen before the base: reopened), 60 only in the base. Members split over documents as stored.
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`)
const both = ids('lookups-both', 600)
const onlyTarget = ids('lookups-target', 240)
const onlyBase = ids('lookups-base', 60)
const entries = (list: string[]) => list.map((id) => ({ id, severity: 'high' as const }))
const scanMembers = { base: [...both, ...onlyBase], target: [...both, ...onlyTarget] }
for (const [name, members] of Object.entries(scanMembers)) {
  const scanId = `lookups-${name}`
  suite.seed(`${companyPath(COMPANY)}/scans/${scanId}`, {
    service: SERVICE,
    state: 'published',
    title: `${name} scan`,
    scopeKey: 'lookups',
    startedAt: name === 'base' ? baseStart : baseStart + 30 * DAY,
  })
  for (let n = 0; n * 250 < members.length; n++)
    suite.seed(`${scanMembersPath(COMPANY, scanId)}/${n}`, { findings: entries(members.slice(n * 250, (n + 1) * 250)), assets: [] })
}
for (const [i, id] of [...both, ...onlyTarget, ...onlyBase].entries())
  suite.seed(`${findingsPath(COMPANY)}/${id}`, { ...findingDocument(SERVICE, { firstSeenAt: baseStart + (i % 2 ? -DAY : DAY) }) })

// The documents the catalogue's reads under a scan or a finding hang from: the rules read them.
const DRAFT_SCAN = 'lookups-draft'
const FINDING = both[0]!
suite.seed(`${companyPath(COMPANY)}/scans/${DRAFT_SCAN}`, { service: SERVICE, state: 'draft', title: 'draft scan', scopeKey: 'lookups' })

async function members(db: Db, scanId: string): Promise<ScanMembers> {
  const snapshot = await getDocs(collection(db, scanMembersPath(COMPANY, scanId)))
  const out: ScanMembers = { findings: [], assets: [] }
  for (const d of snapshot.docs) out.findings.push(...scanMembersFromDocument(d.data()).findings)
  return out
}

// One read of first-seen times, as the comparison makes it (app/features/reports/data/reports-live.ts).
const readFindings = (db: Db, chunk: string[]) =>
  getDocs(query(collection(db, findingsPath(COMPANY)), where('service', '==', SERVICE), where(documentId(), 'in', chunk)))

// The readers of acme's network results who reported it: a viewer (service right) and a company admin.
const comparers = [demo[1], demo[3]]

function comparisonCases(): RuleCase[] {
  return comparers.map((p) =>
    ruleCase(p, 'compares two scans of a year of network findings', true, async (db) => {
      const [base, target] = await Promise.all([members(db, 'lookups-base'), members(db, 'lookups-target')])
      expect(target.findings).toHaveLength(both.length + onlyTarget.length)
      const candidates = reopenCandidates(base, target)
      expect(candidates).toEqual(onlyTarget)
      let read = 0
      for (let i = 0; i < candidates.length; i += FINDING_IDS_PER_READ)
        read += (await readFindings(db, candidates.slice(i, i + FINDING_IDS_PER_READ))).size
      expect(read).toBe(onlyTarget.length)
    }),
  )
}

// ---- The catalogue's reads ------------------------------------------------------------------

/** Every kind of person who reads acme's network results: client viewer, manager, company admin, analysts, platform admin. */
const readers = [demo[1], demo[2], demo[3], demo[5], demo[7], demo[9]]
const everyone = readers
const analysts = [demo[5], demo[7]]
const seniors = [demo[7], demo[9]]

/** Who makes each read of the browser and the edge: the people whose pages run it. */
const makers: Record<string, (q: CataloguedQuery) => readonly Principal[]> = {
  'app/features/activity/activity-live.ts#watchActivity': () => everyone,
  'app/features/admin/email-keys/email-keys-live.ts#watchEmailKeys': () => [demo[9]],
  'app/features/admin/hub/admin-hub-live.ts#watchPeopleCount': () => [demo[9]],
  'app/features/admin/hub/admin-hub-live.ts#watchExpiringKeys': () => [demo[9]],
  // Platform admins read every event, senior analysts those for analysts, company admins their company's.
  'app/features/admin/hub/admin-hub-live.ts#watchAuditEvents': (q) =>
    has(q, 'audience') ? [demo[7]] : has(q, 'companyId') ? [demo[3]] : [demo[9]],
  'app/features/admin/org/org-live.ts#watchCompanyAudit': () => [demo[3], demo[9]],
  'app/features/admin/org/org-live.ts#watchDastKeys': () => [demo[3], demo[9]],
  'app/features/admin/org/org-live.ts#watchApiTokens': () => [demo[3], demo[9]],
  'app/features/admin/webhooks/webhooks-live.ts#watchWebhookEndpoints': () => [demo[3], demo[9]],
  'app/features/admin/webhooks/webhooks-live.ts#watchWebhookDeliveries': () => [demo[3], demo[9]],
  'app/features/analyst/desk/desk-live.ts#watchDrafts': () => analysts,
  'app/features/analyst/desk/desk-live.ts#watchRecentScans': () => analysts,
  'app/features/analyst/desk/desk-live.ts#watchRequestedRetests': () => analysts,
  'app/features/analyst/desk/desk-live.ts#watchDisputed': () => analysts,
  'app/features/analyst/service-page/analyst-live.ts#watchServiceScans': () => analysts,
  // A draft's findings: those who may import its service's scans (network: senior analysts and up).
  'app/features/analyst/service-page/analyst-live.ts#watchDraftFindings': () => seniors,
  'app/features/analyst/service-page/analyst-live.ts#watchMergedFindings': () => seniors,
  'app/features/analyst/service-page/analyst-live.ts#watchRequestedRetests': () => analysts,
  'app/features/analyst/service-page/analyst-live.ts#watchTemplateMappings': () => analysts,
  'app/features/analyst/service-page/analyst-live.ts#watchScanJobs': () => seniors,
  'app/features/dashboard/dashboard-live.ts#watchDashboard': () => readers,
  'app/features/fleet/fleet-live.ts#watchLocations': () => seniors,
  'app/features/fleet/fleet-live.ts#watchAgents': () => seniors,
  'app/features/notifications/notifications-live.ts#watchNotifications': () => everyone,
  'app/features/notifications/notifications-live.ts#markAllRead': () => everyone,
  'app/features/reports/data/reports-live.ts#watchPublishedScans': () => readers,
  'app/features/reports/data/reports-live.ts#readComparedFindings': () => readers,
  'app/features/reports/data/reports-live.ts#watchCompanyActivity': () => readers,
  'app/features/reports/exports/findings-pages.ts#segmentQuery': () => readers,
  'app/features/reports/exports/findings-pages.ts#segmentPage': () => readers,
  'app/features/reports/exports/history-reads.ts#readHistories': () => readers,
  'app/features/reports/findings/findings-live.ts#watchFindingsByIds': () => readers,
  'app/features/reports/findings/findings-live.ts#watchFindingHistory': () => readers,
  'app/features/reports/findings/findings-live.ts#watchFindingComments': () => readers,
  'app/features/reports/findings/findings-live.ts#watchFindingRetests': () => readers,
  'app/features/templates/template-library-live.ts#watchLatestTemplates': () => seniors,
  'app/features/templates/template-library-live.ts#readWholeLibrary': () => seniors,
  'app/features/vault/vault-links-live.ts#watchVaultLinks': () => analysts,
  'app/features/vault/vault-requests-live.ts#watchVaultRequests': () => analysts,
  'app/features/vault/vault-requests-live.ts#watchTeamVaultRequests': () => analysts,
  'app/features/reports/data/reports-edge.server.ts#publishedScans': () => readers,
}

const has = (q: CataloguedQuery, field: string) => q.filters.some((f) => f.field === field)

/** The collection a catalogued query reads, under acme (and its draft scan or a finding) where it is a company's. */
function pathOf(q: CataloguedQuery): string {
  const company = companyPath(COMPANY)
  switch (q.collection) {
    case 'scans':
    case 'findings':
    case 'retests':
    case 'activity':
    case 'assets':
      return `${company}/${q.collection}`
    case 'draft_findings':
      return `${company}/scans/${DRAFT_SCAN}/draft_findings`
    case 'history':
    case 'comments':
      return `${company}/findings/${FINDING}/${q.collection}`
    default:
      return q.collection
  }
}

/** A value of the filter as the product sends it, the largest it sends for an `in`. */
function valueOf(field: string, op: string, p: Principal, q: CataloguedQuery): unknown {
  if (field === '__name__') return both.slice(0, FINDING_IDS_PER_READ)
  const now = Timestamp.now()
  const values: Record<string, unknown> = {
    service: SERVICE,
    // Clients list published scans; the desk lists drafts.
    state: q.collection === 'scans' ? (q.site.includes('/analyst/') ? 'draft' : 'published') : 'requested',
    status: op === 'in' ? [...FINDING_STATUSES] : 'open',
    severity: 'high',
    createdByUid: p.uid,
    uid: p.uid,
    createdBy: p.uid,
    teamUids: p.uid,
    companies: COMPANY,
    company: COMPANY,
    companyId: COMPANY,
    audience: 'analysts',
    revokedAt: null,
    expiresAt: now,
    dueAt: now,
    at: now,
    read: false,
    visibility: 'client',
    findingIds: FINDING,
    findingId: both.slice(0, IN_VALUES),
    templateSlug: null,
    falsePositive: false,
    mergedInto: null,
    ruleId: 'rule',
    endpointId: 'endpoint',
  }
  if (!(field in values)) throw new Error(`${q.site}: no value for ${field} in this test`)
  return values[field]
}

/** The catalogued query as the product builds it; `first` keeps to one document (the rules answer the same). */
function readOf(db: Db, q: CataloguedQuery, p: Principal, first = false) {
  const filters = q.filters.map((f) =>
    where(f.field === '__name__' ? documentId() : f.field, f.op as WhereFilterOp, valueOf(f.field, f.op, p, q)),
  )
  const orders = q.orderBy.map((o) => orderBy(o.field === '__name__' ? documentId() : o.field, o.direction))
  const source = q.scope === 'COLLECTION_GROUP' ? collectionGroup(db, q.collection) : collection(db, pathOf(q))
  return getDocs(query(source, ...filters, ...orders, ...(first ? [limit(1)] : [])))
}

// The count: the rules as written, with `k` lookups of documents nobody writes added in front of
// every condition (each a distinct document, so each counts). The emulator refuses a read once its
// accesses and the k pass 20, so the largest k it still answers tells how many the read took.
const RULES = readFileSync(path.join(ROOT, 'firestore.rules'), 'utf8')
function rulesWithLookups(k: number): string {
  const probe = Array.from({ length: k }, (_, i) => `(exists(/databases/$(database)/documents/lookups_probe/p${i}) || true)`)
  const withAllows = RULES.replace(/allow ([a-z, ]+): if /g, 'allow $1: if lookupsProbe() && ')
  expect(withAllows).not.toBe(RULES)
  return withAllows.replace(
    'match /databases/{database}/documents {',
    `match /databases/{database}/documents {\n    function lookupsProbe() {\n      return ${probe.join(' && ') || 'true'};\n    }\n`,
  )
}

async function loadRules(content: string) {
  const host = process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080'
  const response = await fetch(`http://${host}/emulator/v1/projects/${PROJECT_ID}:securityRules`, {
    method: 'PUT',
    body: JSON.stringify({ rules: { files: [{ content }] } }),
  })
  if (!response.ok) throw new Error(`rules not loaded: ${await response.text()}`)
}

/** Whether the emulator answers the read (a refusal is permission-denied; anything else is a fault of the test). */
async function answered(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read()
    return true
  } catch (error) {
    if ((error as { code?: string }).code === 'permission-denied') return false
    throw error
  }
}

/** The catalogue's reads that the rules answer: the browser's and the edge's (the functions bypass the rules). */
const ruledReads = QUERIES.filter((q) => q.site.startsWith('app/'))

const describeQuery = (q: CataloguedQuery) =>
  `${q.site.slice(q.site.lastIndexOf('/') + 1)} (${q.collection} where ${q.filters.map((f) => `${f.field} ${f.op}`).join(', ') || '-'}${q.orderBy.length ? ` order ${q.orderBy.map((o) => o.field).join(', ')}` : ''})`

interface Read {
  name: string
  /** The read as the product makes it, or its first document only. */
  run: (first?: boolean) => Promise<unknown>
}

const reads = (): Read[] => {
  const out = new Map<string, Read>()
  for (const q of ruledReads)
    for (const p of makers[q.site]?.(q) ?? []) {
      const name = `${p.name}: ${describeQuery(q)}`
      out.set(name, { name, run: (first) => readOf(suite.db(p), q, p, first) })
    }
  return [...out.values()]
}

/** Runs `work` over `items`, `width` at a time. */
async function eachAtOnce<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

describe('firestore.rules: the scan comparison at full size', () => suite.run(comparisonCases()))
describe('firestore.rules: lookups of every read the browser and the edge make', () => {
  it('knows who makes each of the catalogue’s reads', () => {
    expect([...new Set(ruledReads.map((q) => q.site))].filter((site) => !(site in makers))).toEqual([])
  })

  it('answers each, at its largest, as each person who makes it, within 10 document accesses', { timeout: 300_000 }, async () => {
    const all = reads()
    // The most lookups added that each read is still answered with, trying fewer and fewer down to
    // the 10 a read may take at most; a read still refused then takes more than 10 (counted as 11).
    const most = new Map<string, number>()
    let loading = 0
    const started = performance.now()
    try {
      for (let k = EMULATOR_ACCESSES; k >= EMULATOR_ACCESSES - QUERY_ACCESSES && most.size < all.length; k--) {
        const load = performance.now()
        await loadRules(rulesWithLookups(k))
        loading += performance.now() - load
        await eachAtOnce(
          all.filter((r) => !most.has(r.name)),
          16,
          async (r) => {
            if (await answered(() => r.run(true))) most.set(r.name, k)
          },
        )
      }
    } finally {
      await loadRules(RULES)
    }
    console.log(`counted in ${((performance.now() - started) / 1000).toFixed(1)} s, ${(loading / 1000).toFixed(1)} s of it loading rules`)
    // Each read itself, at its largest, as the rules stand.
    const refused: string[] = []
    await eachAtOnce(all, 16, async (r) => {
      if (!(await answered(() => r.run()))) refused.push(r.name)
    })
    expect(refused).toEqual([])
    const accesses = all.map((r) => ({
      name: r.name,
      accesses: EMULATOR_ACCESSES - (most.get(r.name) ?? EMULATOR_ACCESSES - QUERY_ACCESSES - 1),
    }))
    console.log(
      `document accesses per read, as the emulator counts them:\n  ${accesses.map((r) => `${r.accesses}: ${r.name}`).join('\n  ')}`,
    )
    expect(accesses.filter((r) => r.accesses > QUERY_ACCESSES).map((r) => `${r.name}: ${r.accesses}`)).toEqual([])
    // The counting counts: every read looks up who is asking (users_access), and a client's read of
    // findings by id counts its ids besides (the limit the scan comparison had run into).
    expect(accesses.filter((r) => r.accesses < 2).map((r) => r.name)).toEqual([])
    const byIds = accesses.find((r) => r.name.startsWith(`${demo[1].name}: reports-live.ts#readComparedFindings`))
    expect(byIds?.accesses).toBeGreaterThanOrEqual(FINDING_IDS_PER_READ)
  })
})
