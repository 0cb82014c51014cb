// The report collections under each company (scans and their members, findings with history,
// occurrences and comments, retests, assets, service figures, activity) and people's
// notifications: who reads them, per company, service and results or stats switch, against
// app/domain/access.ts. Nobody writes them but the functions.
import {
  collection,
  collectionGroup,
  deleteDoc,
  doc,
  getDoc,
  getDocs,
  limit,
  orderBy,
  query,
  serverTimestamp,
  setDoc,
  updateDoc,
  where,
} from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { canViewReport, canViewResults, findingRole, seesAllCompanies, type Access } from '#domain/access.ts'
import { mayImportScans } from '#domain/scan-import-calls.ts'
import { companyPath } from '#domain/companies.ts'
import { storedHistoryEntry } from '#domain/finding-history.ts'
import { services, type ServiceId } from '#domain/services.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import { findingDocument, retestDocument } from '../builders.ts'
import {
  at,
  companies,
  flagsOf,
  fresh,
  principals,
  ruleCase,
  rulesSuite,
  selects,
  stamp,
  twin,
  usable,
  type RuleCase,
} from './rules-harness.ts'

const suite = rulesSuite('reports')
suite.seedPrincipals(principals)
for (const company of DEMO_COMPANIES) suite.seed(companyPath(company.slug), { ...company })

const serviceIds = services.map((s) => s.id)
const T = at('2026-01-05T10:00:00Z')

const scan = (service: ServiceId, state: string) => ({
  service,
  state,
  title: `${service} scan`,
  tool: 'scanner',
  scopeKey: 'default',
  targets: [],
  startedAt: T,
  finishedAt: T,
  publishedAt: state === 'published' ? T : null,
  publishedBy: null,
  previousScanId: null,
  counts: { bySeverity: {}, total: 1, new: 1, persisting: 0, notDetected: 0, reopened: 0 },
  stats: { service },
  updatedAt: T,
  updatedBy: 'analyst@sectest.example',
})

// What each company holds per service: every report collection, once.
for (const slug of companies) {
  const base = companyPath(slug)
  for (const service of serviceIds) {
    suite.seed(`${base}/scans/published-${service}`, scan(service, 'published'))
    suite.seed(`${base}/scans/draft-${service}`, scan(service, 'draft'))
    suite.seed(`${base}/scans/published-${service}/members/0`, { findings: [{ id: `finding-${service}`, severity: 'high' }], assets: [] })
    suite.seed(`${base}/scans/draft-${service}/members/0`, { findings: [], assets: [] })
    suite.seed(`${base}/scans/draft-${service}/draft_findings/d1`, { ruleId: 'r', title: 'Draft', severity: 'high', updatedBy: 'x' })
    suite.seed(`${base}/scans/draft-${service}/draft_assets/a1`, { type: 'host', value: '10.0.0.1' })
    suite.seed(`${base}/findings/finding-${service}`, { ...findingDocument(service) })
    const history = storedHistoryEntry(slug, service, `finding-${service}`, {
      action: 'first_seen',
      from: 'open',
      to: 'open',
      at: T,
      byUid: 'system',
      byName: 'Bulwark',
      role: 'system',
      note: null,
    })
    suite.seed(`${base}/findings/finding-${service}/history/h1`, history)
    suite.seed(`${base}/findings/finding-${service}/occurrences/published-${service}`, { scanId: `published-${service}`, at: T })
    const comment = {
      authorUid: 'demo-analyst',
      authorName: 'Ana Analyst',
      authorRole: 'analyst',
      body: 'Hello',
      mentions: [],
      createdAt: T,
    }
    suite.seed(`${base}/findings/finding-${service}/comments/client-1`, { ...comment, visibility: 'client' })
    suite.seed(`${base}/findings/finding-${service}/comments/internal-1`, { ...comment, visibility: 'internal' })
    suite.seed(`${base}/retests/retest-${service}`, { ...retestDocument(service, [`finding-${service}`]) })
    suite.seed(`${base}/assets/asset-${service}`, {
      service,
      type: 'host',
      value: 'app.acme.example',
      status: 'active',
      firstSeenScanId: 's',
      firstSeenAt: T,
      lastSeenScanId: 's',
      lastSeenAt: T,
    })
    suite.seed(`${base}/service_stats/${service}`, { open: { high: 1 }, byStatus: { open: 1 } })
    suite.seed(`${base}/service_stats/${service}/months/2026-01`, { opened: { high: 1 } })
    suite.seed(`${base}/activity/activity-${service}`, { type: 'scan_published', service, summary: 'Scan published', at: T })
  }
}

suite.seed('template_mappings/m1', { service: 'network', ruleId: 'r', templateSlug: 't', updatedBy: 'x' })

// Revocation is the harness's own matrix (rules-users); here one revoked member is enough.
const readers = principals.filter((p) => !p.name.startsWith('platform admin, '))

const isAnalyst = (access: Access | null) => findingRole(access) === 'analyst'

interface Readable {
  what: string
  path: (slug: string, service: ServiceId) => string
  /** Who reads it, from access.ts. */
  reads: (access: Access | null, slug: string, service: ServiceId) => boolean
}

const report = (access: Access | null, slug: string, service: ServiceId) => canViewReport(access, flagsOf(slug), service)
const results = (access: Access | null, slug: string, service: ServiceId) => canViewResults(access, flagsOf(slug), service)

const READABLE: Readable[] = [
  { what: 'a published scan', path: (slug, s) => `companies/${slug}/scans/published-${s}`, reads: report },
  {
    what: 'a draft scan',
    path: (slug, s) => `companies/${slug}/scans/draft-${s}`,
    reads: (a, slug, s) => report(a, slug, s) && isAnalyst(a),
  },
  { what: "a published scan's members", path: (slug, s) => `companies/${slug}/scans/published-${s}/members/0`, reads: results },
  {
    what: "a draft scan's members",
    path: (slug, s) => `companies/${slug}/scans/draft-${s}/members/0`,
    reads: (a, slug, s) => results(a, slug, s) && isAnalyst(a),
  },
  {
    what: "a draft's finding",
    path: (slug, s) => `companies/${slug}/scans/draft-${s}/draft_findings/d1`,
    reads: (a, _, s) => mayImportScans(a, s),
  },
  {
    what: "a draft's asset",
    path: (slug, s) => `companies/${slug}/scans/draft-${s}/draft_assets/a1`,
    reads: (a, _, s) => mayImportScans(a, s),
  },
  { what: 'a finding', path: (slug, s) => `companies/${slug}/findings/finding-${s}`, reads: results },
  { what: "a finding's history", path: (slug, s) => `companies/${slug}/findings/finding-${s}/history/h1`, reads: results },
  {
    what: "a finding's occurrence",
    path: (slug, s) => `companies/${slug}/findings/finding-${s}/occurrences/published-${s}`,
    reads: results,
  },
  { what: 'a client comment', path: (slug, s) => `companies/${slug}/findings/finding-${s}/comments/client-1`, reads: results },
  {
    what: 'an internal comment',
    path: (slug, s) => `companies/${slug}/findings/finding-${s}/comments/internal-1`,
    reads: (a, slug, s) => results(a, slug, s) && isAnalyst(a),
  },
  { what: 'a retest', path: (slug, s) => `companies/${slug}/retests/retest-${s}`, reads: results },
  { what: 'an asset', path: (slug, s) => `companies/${slug}/assets/asset-${s}`, reads: results },
  { what: 'the service figures', path: (slug, s) => `companies/${slug}/service_stats/${s}`, reads: report },
  { what: "a month's figures", path: (slug, s) => `companies/${slug}/service_stats/${s}/months/2026-01`, reads: report },
  { what: 'an activity line', path: (slug, s) => `companies/${slug}/activity/activity-${s}`, reads: report },
]

function readCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of readers) {
    for (const slug of companies) {
      for (const service of serviceIds) {
        for (const readable of READABLE) {
          const allowed = selects(p, slug) && readable.reads(p.access, slug, service)
          const path = readable.path(slug, service)
          cases.push(ruleCase(p, `gets ${slug} ${service}: ${readable.what}`, allowed, (db) => getDoc(doc(db, path))))
        }
      }
    }
  }
  // Rule-to-template mappings are the analysts' own.
  for (const p of readers)
    cases.push(ruleCase(p, 'gets a template mapping', usable(p) && isAnalyst(p.access), (db) => getDoc(doc(db, 'template_mappings/m1'))))
  return cases
}

// The lists the pages make: each names the service (and what a client may see).
function listCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of readers) {
    for (const slug of companies) {
      for (const service of serviceIds) {
        const sees = selects(p, slug) && report(p.access, slug, service)
        const seesResults = selects(p, slug) && results(p.access, slug, service)
        const base = `companies/${slug}`
        const list = (what: string, allowed: boolean, path: string, ...filters: [string, string][]) =>
          cases.push(
            ruleCase(p, `lists ${slug} ${service} ${what}`, allowed, (db) =>
              getDocs(query(collection(db, path), ...filters.map(([field, value]) => where(field, '==', value)))),
            ),
          )
        list('published scans', sees, `${base}/scans`, ['service', service], ['state', 'published'])
        list('scans of any state', sees && isAnalyst(p.access), `${base}/scans`, ['service', service])
        list('findings', seesResults, `${base}/findings`, ['service', service])
        list('retests', seesResults, `${base}/retests`, ['service', service])
        list('assets', seesResults, `${base}/assets`, ['service', service])
        list('activity', sees, `${base}/activity`, ['service', service])
        list('months', sees, `${base}/service_stats/${service}/months`)
        list('client comments', seesResults, `${base}/findings/finding-${service}/comments`, ['visibility', 'client'])
        list('every comment', seesResults && isAnalyst(p.access), `${base}/findings/finding-${service}/comments`)
        list('history', seesResults, `${base}/findings/finding-${service}/history`)
        // The JSON export reads many findings' histories in one query, naming company and service.
        cases.push(
          ruleCase(p, `lists ${slug} ${service} histories across findings`, seesResults, (db) =>
            getDocs(
              query(
                collectionGroup(db, 'history'),
                where('company', '==', slug),
                where('service', '==', service),
                where('findingId', 'in', [`finding-${service}`, 'another']),
              ),
            ),
          ),
        )
      }
    }
    // Without the company and service, only those who see every company's results may list them.
    cases.push(
      ruleCase(p, 'lists every history across companies', usable(p) && seesAllCompanies(p.access), (db) =>
        getDocs(query(collectionGroup(db, 'history'), where('findingId', '==', 'finding-network'))),
      ),
    )
  }
  return cases
}

// The analyst desk's queries, as it sends them, for the services the analyst may import.
function deskCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of readers) {
    for (const slug of companies) {
      for (const service of serviceIds) {
        const sees = selects(p, slug) && report(p.access, slug, service)
        const seesResults = selects(p, slug) && results(p.access, slug, service)
        const base = `companies/${slug}`
        const desk = (what: string, allowed: boolean, path: string, state: [string, string] | null, order: string) =>
          cases.push(
            ruleCase(p, `desk ${slug} ${service}: ${what}`, allowed, (db) =>
              getDocs(
                query(
                  collection(db, path),
                  where('service', '==', service),
                  ...(state ? [where(state[0], '==', state[1])] : []),
                  orderBy(order, 'desc'),
                  limit(20),
                ),
              ),
            ),
          )
        desk('draft scans', sees && isAnalyst(p.access), `${base}/scans`, ['state', 'draft'], 'startedAt')
        desk('latest scans', sees && isAnalyst(p.access), `${base}/scans`, null, 'startedAt')
        desk('requested retests', seesResults, `${base}/retests`, ['state', 'requested'], 'requestedAt')
        desk('disputed findings', seesResults, `${base}/findings`, ['status', 'disputed'], 'lastSeenAt')
      }
    }
  }
  return cases
}

// No client writes anything here, whoever they are: the functions do.
function writeCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of ['acme', 'globex']) {
      const base = `companies/${slug}`
      const writes: [string, (db: Parameters<RuleCase['run']>[0]) => Promise<unknown>][] = [
        ['creates a scan', (db) => setDoc(doc(db, `${base}/scans/${fresh('scan')}`), { ...scan('network', 'published'), ...stamp(p) })],
        ['publishes a draft scan', (db) => updateDoc(doc(db, `${base}/scans/draft-network`), { state: 'published', ...stamp(p) })],
        ['writes scan members', (db) => setDoc(doc(db, `${base}/scans/published-network/members/1`), { findings: [] })],
        ['reviews a draft finding', (db) => updateDoc(doc(db, `${base}/scans/draft-network/draft_findings/d1`), { severity: 'low' })],
        [
          'adds a draft asset',
          (db) => setDoc(doc(db, `${base}/scans/draft-network/draft_assets/${fresh('a')}`), { type: 'host', value: 'x' }),
        ],
        [
          'maps a rule to a template',
          (db) => setDoc(doc(db, `template_mappings/${fresh('m')}`), { service: 'network', ruleId: 'r', templateSlug: 't' }),
        ],
        ['creates a finding', (db) => setDoc(doc(db, `${base}/findings/${fresh('finding')}`), { ...findingDocument('network') })],
        ['moves a finding', (db) => updateDoc(doc(db, `${base}/findings/finding-network`), { status: 'fixed', ...stamp(p) })],
        ['deletes a finding', (db) => deleteDoc(doc(db, `${base}/findings/finding-network`))],
        [
          'writes history',
          (db) =>
            setDoc(doc(db, `${base}/findings/finding-network/history/${fresh('h')}`), { action: 'reopen', from: 'fixed', to: 'open' }),
        ],
        [
          'writes a comment',
          (db) =>
            setDoc(doc(db, `${base}/findings/finding-network/comments/${fresh('c')}`), {
              authorUid: p.uid,
              body: 'Hi',
              visibility: 'client',
              createdAt: serverTimestamp(),
            }),
        ],
        ['writes an occurrence', (db) => setDoc(doc(db, `${base}/findings/finding-network/occurrences/${fresh('o')}`), { scanId: 'x' })],
        [
          'creates a retest',
          (db) => setDoc(doc(db, `${base}/retests/${fresh('r')}`), { ...retestDocument('network', ['finding-network']) }),
        ],
        ['completes a retest', (db) => updateDoc(doc(db, `${base}/retests/retest-network`), { state: 'completed' })],
        ['writes an asset', (db) => setDoc(doc(db, `${base}/assets/${fresh('a')}`), { service: 'network', value: 'x' })],
        ['changes the service figures', (db) => setDoc(doc(db, `${base}/service_stats/network`), { open: { high: 0 } })],
        ['changes a month', (db) => setDoc(doc(db, `${base}/service_stats/network/months/2026-01`), { opened: {} })],
        [
          'writes an activity line',
          (db) => setDoc(doc(db, `${base}/activity/${fresh('act')}`), { service: 'network', type: 'scan_published' }),
        ],
      ]
      for (const [what, run] of writes) cases.push(ruleCase(p, `${what} in ${slug}`, false, run))
    }
  }
  return cases
}

const notification = (uid: string, read = false) => ({
  uid,
  type: 'scan_published',
  company: 'acme',
  service: 'dast',
  title: 'A scan is published',
  body: '',
  link: '/reports/dast',
  read,
  createdAt: T,
})

function notificationCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    const mine = p.uid !== null && usable(p)
    const uid = p.uid ?? 'nobody'
    const own = `notifications/own-${uid}`
    suite.seed(own, notification(uid))
    const other = `notifications/other-${uid}`
    suite.seed(other, notification('someone-else'))
    cases.push(ruleCase(p, 'gets their own notification', mine, (db) => getDoc(doc(db, own))))
    cases.push(ruleCase(p, "gets someone else's notification", false, (db) => getDoc(doc(db, other))))
    cases.push(
      ruleCase(p, 'lists their notifications', mine, (db) => getDocs(query(collection(db, 'notifications'), where('uid', '==', uid)))),
    )
    cases.push(ruleCase(p, 'lists every notification', false, (db) => getDocs(collection(db, 'notifications'))))
    const toRead = `notifications/${fresh('read')}`
    suite.seed(toRead, notification(uid))
    cases.push(ruleCase(p, 'marks their notification read', mine, (db) => updateDoc(doc(db, toRead), { read: true })))
    const reread = `notifications/${fresh('unread')}`
    suite.seed(reread, notification(uid, true))
    cases.push(ruleCase(p, 'marks their notification unread', false, (db) => updateDoc(doc(db, reread), { read: false })))
    const retitled = `notifications/${fresh('retitle')}`
    suite.seed(retitled, notification(uid))
    cases.push(
      ruleCase(p, 'changes the title of their notification', false, (db) => updateDoc(doc(db, retitled), { read: true, title: 'Mine' })),
    )
    const moved = `notifications/${fresh('move')}`
    suite.seed(moved, notification(uid))
    cases.push(ruleCase(p, 'gives their notification to someone else', false, (db) => updateDoc(doc(db, moved), { uid: 'someone-else' })))
    const othersToRead = `notifications/${fresh('others-read')}`
    suite.seed(othersToRead, notification('someone-else'))
    cases.push(ruleCase(p, "marks someone else's notification read", false, (db) => updateDoc(doc(db, othersToRead), { read: true })))
    cases.push(ruleCase(p, 'creates a notification', false, (db) => setDoc(doc(db, `notifications/${fresh('new')}`), notification(uid))))
    const deleted = `notifications/${fresh('delete')}`
    suite.seed(deleted, notification(uid))
    cases.push(ruleCase(p, 'deletes their notification', false, (db) => deleteDoc(doc(db, deleted))))
  }
  return cases
}

// Preferences also hold notification choices and the last visit (for "since your last visit").
function preferenceCases(): RuleCase[] {
  const cases: RuleCase[] = []
  const variants: [string, (p: (typeof principals)[number]) => Record<string, unknown>, boolean][] = [
    ['notification choices', () => ({ notifications: { mention: { inApp: true, email: false } } }), true],
    ['notification choices that are not a map', () => ({ notifications: 'all' }), false],
    ['a choice for an unknown kind', () => ({ notifications: { gossip: { inApp: true } } }), false],
    ['the last visit at the request time', () => ({ lastVisitAt: serverTimestamp() }), true],
    ['a last visit in the past', () => ({ lastVisitAt: at('2025-01-01T00:00:00Z') }), false],
  ]
  for (const p of principals) {
    for (const [index, [what, data, valid]] of variants.entries()) {
      const self = twin(p, `prefs-${index}`)
      // Its own users_access too: a revocation recorded there holds for the twin as well.
      suite.seedPrincipals([self])
      cases.push(
        ruleCase(self, `saves their preferences with ${what}`, valid && self.uid !== null && usable(self), (db) =>
          setDoc(doc(db, `users_preferences/${self.uid ?? 'nobody'}`), { displayName: 'Me', ...data(self), ...stamp(self) }),
        ),
      )
    }
  }
  return cases
}

describe('firestore.rules: report reads', () => suite.run(readCases()))
describe('firestore.rules: report lists', () => suite.run(listCases()))
describe('firestore.rules: analyst desk lists', () => suite.run(deskCases()))
describe('firestore.rules: report writes', () => suite.run(writeCases()))
describe('firestore.rules: notifications', () => suite.run(notificationCases()))
describe('firestore.rules: notification preferences', () => suite.run(preferenceCases()))
