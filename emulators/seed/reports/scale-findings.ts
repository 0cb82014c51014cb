// Acme's DAST at the size of a large client (`SEED_FINDINGS=100000 npm run seed`): that many open
// findings more, and a twentieth as many closed ones, across a thousand web applications, played
// through the product's publication and workflow plans as the demo year is (simulate.ts). Drawn
// chunk by chunk from a seed per chunk, so a chunk is the same whatever the total, only one chunk is
// ever in memory, and the ids (fingerprints) of a smaller total are a prefix of a larger one's.
import * as v from 'valibot'
import { findingPath, isOpenStatus, type FindingStatus, type StoredFinding } from '#domain/findings.ts'
import { findingFingerprint, type DastFingerprintParts } from '#domain/fingerprints.ts'
import { planFindingAction, planSlaRefresh, type ActionInput, type FindingAction } from '#domain/finding-workflow.ts'
import { RETEST_MAX_FINDINGS, retestPath, type StoredRetest } from '#domain/retests.ts'
import { planScanPublication, type PublishedScan } from '#domain/scan-publication.ts'
import { findingContribution, monthlyChanges, retestContribution, type MonthlyChange } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { DAY_MS, DEFAULT_RETEST_TURNAROUND_DAYS, slaPolicyFor } from '#domain/sla.ts'
import { DAST_RAW_RULES, fromTemplate, templatesFor, ZAP_RULE_IDS } from './catalogue.ts'
import { MONTHS, scanPublishedAt, scanStartedAt, SEED_NOW } from './calendar.ts'
import { seededRandom, type Random } from './random.ts'
import { addMonthlyChange, demoScanId, observedOf, type CompanyPeople, type MonthFigures, type Person } from './simulate.ts'
import { DAST_PARAMETERS, PARAMETRISED, severityWeighted, type IssueSpec } from './universe.ts'

export const SCALE_COMPANY = 'acme'
export const SCALE_SERVICE = 'dast' satisfies ServiceId
/** Findings generated, written and indexed at a time. */
export const SCALE_CHUNK = 5_000
/** One closed finding per this many open ones. */
const OPEN_PER_CLOSED = 20
const CLOSED_PER_CHUNK = SCALE_CHUNK / OPEN_PER_CLOSED
export const SCALE_MAX = 1_000_000

const CountSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d{1,7}$/, 'a whole number'),
  v.transform(Number),
  v.maxValue(SCALE_MAX, `at most ${SCALE_MAX.toLocaleString('en-GB')}`),
)

/** SEED_FINDINGS: the open findings to add to Acme's DAST (0 when unset). */
export function scaleFindingsFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SEED_FINDINGS
  if (raw === undefined || raw.trim() === '') return 0
  const parsed = v.safeParse(CountSchema, raw)
  if (!parsed.success) throw new Error(`SEED_FINDINGS must be ${parsed.issues[0].message} of open findings, not "${raw}"`)
  return parsed.output
}

export const scaleChunkCount = (open: number) => Math.ceil(open / SCALE_CHUNK)

// A large estate: thirty kinds of application, many instances of each, a hundred pages per host.
const APPS = [
  'shop',
  'api',
  'portal',
  'billing',
  'crm',
  'hr',
  'intranet',
  'partners',
  'support',
  'docs',
  'status',
  'auth',
  'pay',
  'store',
  'admin',
  'booking',
  'events',
  'careers',
  'media',
  'search',
  'reports',
  'tickets',
  'wiki',
  'forms',
  'loyalty',
  'catalog',
  'claims',
  'fleet',
  'warehouse',
  'survey',
]
const SECTIONS = [
  '/',
  '/login',
  '/account',
  '/cart',
  '/checkout',
  '/search',
  '/orders',
  '/invoices',
  '/customers',
  '/products',
  '/api/v1/orders',
  '/api/v1/users',
  '/api/v2/search',
  '/graphql',
  '/admin',
  '/admin/users',
  '/reports',
  '/upload',
  '/export',
  '/tickets',
  '/kb/articles',
  '/settings',
  '/reset-password',
  '/downloads',
  '/newsletter',
]
const PATHS = SECTIONS.flatMap((section) => {
  const base = section === '/' ? '' : section
  return [section, `${base}/list`, `${base}/new`, `${base}/1042`]
})

const hostOf = (n: number) => `${APPS[n % APPS.length]}-${String(Math.floor(n / APPS.length) + 1).padStart(2, '0')}.apps.acme.example`

const RULES = severityWeighted([
  ...templatesFor('dast').map((t) => fromTemplate(t, ZAP_RULE_IDS[t.slug] ?? `nuclei:${t.slug}`)),
  ...DAST_RAW_RULES,
])

const OPEN_KINDS = [
  ['open', 56],
  ['in_remediation', 20],
  ['retest_requested', 5],
  ['partially_fixed', 3],
  ['reopened', 5],
  ['disputed', 5],
  ['acceptance_requested', 6],
] as const satisfies readonly (readonly [FindingStatus, number])[]

const CLOSED_KINDS = [
  ['fixed', 45],
  ['not_detected', 20],
  ['false_positive', 12],
  ['risk_accepted', 13],
  ['duplicate', 5],
  ['out_of_scope', 5],
] as const satisfies readonly (readonly [FindingStatus, number])[]

/** A backlog in the first scan, then fewer new findings each month. */
const firstMonth = (random: Random) =>
  random.weighted([[0, 30], ...Array.from({ length: MONTHS - 1 }, (_, i) => [i + 1, 10 - i * 0.7] as const)] as const)

export interface ScaleChunk {
  findings: [string, StoredFinding][]
  retests: [string, StoredRetest][]
  /** What the findings' moves add to the monthly figures. */
  months: MonthlyChange[]
}

const scanOf = (month: number): PublishedScan => ({
  id: demoScanId(SCALE_SERVICE, month),
  service: SCALE_SERVICE,
  startedAt: scanStartedAt(SCALE_SERVICE, month),
})

/** Chunk `index` of `open` open findings: its open findings, a twentieth as many closed ones, and their retests. */
export async function scaleChunk(open: number, index: number, people: CompanyPeople): Promise<ScaleChunk> {
  const openHere = Math.max(0, Math.min(SCALE_CHUNK, open - index * SCALE_CHUNK))
  const closedHere = Math.ceil(openHere / OPEN_PER_CLOSED)
  const random = seededRandom(`${SCALE_COMPANY}/${SCALE_SERVICE}/scale/${index}`)
  const policy = slaPolicyFor(null)
  const months: MonthlyChange[] = []
  const findings = new Map<string, StoredFinding>()

  const record = (before: StoredFinding | null, after: StoredFinding) => months.push(...monthlyChanges(before, after))
  const act = (id: string, action: FindingAction, actor: Person, at: number, input: ActionInput = {}) => {
    const before = findings.get(id)!
    const plan = planFindingAction(before, action, actor, input, at)
    // The moves below are chosen to be allowed: a refusal is a mistake in this file.
    if (!plan.ok) throw new Error(`Scale seed: ${action} refused on ${id}: ${plan.reason}`)
    const after = { ...before, ...plan.patch, updatedAt: at, updatedBy: actor.uid } as StoredFinding
    record(before, after)
    findings.set(id, after)
  }
  /** After the finding's last scan, before "now". */
  const afterScan = (month: number, days: [number, number]) =>
    Math.min(scanPublishedAt(SCALE_SERVICE, month) + random.int(...days) * DAY_MS + random.int(0, 8) * 3_600_000, SEED_NOW - 2 * DAY_MS)

  const pendingRetest: string[] = []
  const partialRetest: string[] = []
  for (let n = 0; n < openHere + closedHere; n++) {
    const position = index * (SCALE_CHUNK + CLOSED_PER_CHUNK) + n
    const host = hostOf(Math.floor(position / PATHS.length))
    const path = PATHS[position % PATHS.length]!
    const rule = random.weighted(RULES)
    const parametrised = PARAMETRISED.test(`${rule.template?.slug ?? ''} ${rule.title.toLowerCase()}`)
    const parameter = parametrised ? random.pick(DAST_PARAMETERS) : ''
    const method = parametrised && random.chance(0.35) ? 'POST' : 'GET'
    const url = `https://${host}${path}`
    const parts: DastFingerprintParts = { ruleId: rule.ruleId, url, parameter, method }
    const id = await findingFingerprint(SCALE_SERVICE, parts)
    const issue: IssueSpec<'dast'> = {
      parts,
      rule,
      asset: url,
      location: { url, method, ...(parameter ? { parameter } : {}), host },
      evidence: parametrised
        ? `\`${method} ${url}\`, parameter \`${parameter}\`: the test payload came back unencoded in the response (${rule.ruleId}).`
        : `\`${method} ${url}\` answered \`200 OK\`; ${rule.ruleId} matched the response.`,
      months: [],
      meta: {},
    }
    /** The month's scan, seeing the finding or not: what the publication makes of it. */
    const publish = (month: number, seen: boolean) => {
      const before = findings.get(id) ?? null
      const { writes } = planScanPublication({
        scan: scanOf(month),
        observed: seen ? [observedOf(issue, id, month)] : [],
        current: before ? new Map([[id, before]]) : new Map(),
        policy,
        now: scanPublishedAt(SCALE_SERVICE, month),
        by: people.analyst.uid,
      })
      for (const write of writes) {
        record(write.before, write.after)
        findings.set(id, write.after)
      }
    }

    const kind: FindingStatus = n < openHere ? random.weighted(OPEN_KINDS) : random.weighted(CLOSED_KINDS)
    let first = firstMonth(random)
    // Findings still open were mostly seen by the latest scan; closed ones the scan stopped seeing were not.
    const scanMissed = kind === 'fixed' || kind === 'not_detected'
    if (scanMissed) first = Math.min(first, MONTHS - 2)
    const last =
      kind === 'reopened'
        ? MONTHS - 1
        : random.chance(scanMissed ? 0 : 0.55)
          ? MONTHS - 1
          : random.int(first, scanMissed ? MONTHS - 2 : MONTHS - 1)

    if (kind === 'reopened') {
      // Seen, no longer seen, confirmed fixed, and seen again by the latest scan: a regression.
      first = Math.min(first, MONTHS - 3)
      const missed = random.int(first + 1, MONTHS - 2)
      publish(first, true)
      publish(missed, false)
      act(id, 'confirm_fixed', people.analyst, afterScan(missed, [1, 6]))
      publish(MONTHS - 1, true)
    } else {
      publish(first, true)
      if (last > first) publish(last, true)
    }
    const at = afterScan(last, [1, 20])
    switch (kind) {
      case 'in_remediation':
        act(id, 'start_remediation', people.manager, at)
        break
      case 'disputed':
        act(id, 'dispute', people.manager, at, { note: 'This application is only reachable through the VPN.' })
        break
      case 'acceptance_requested':
        // Asked within the last months, so the acceptance asked for still lies ahead (and within a year of asking).
        act(id, 'request_acceptance', people.manager, Math.max(at, SEED_NOW - 150 * DAY_MS), {
          note: 'Legacy application, retired next quarter.',
          expiresAt: SEED_NOW + random.int(30, 180) * DAY_MS,
        })
        break
      case 'retest_requested':
        pendingRetest.push(id)
        break
      case 'partially_fixed':
        partialRetest.push(id)
        break
      case 'fixed':
        publish(last + 1, false)
        act(id, 'confirm_fixed', people.analyst, afterScan(last + 1, [1, 6]))
        break
      case 'not_detected':
        publish(last + 1, false)
        break
      case 'false_positive':
        act(id, 'mark_false_positive', people.analyst, at, { note: 'The scanner matched a generic error page.' })
        break
      case 'duplicate':
        act(id, 'mark_duplicate', people.analyst, at)
        break
      case 'out_of_scope':
        act(id, 'mark_out_of_scope', people.analyst, at)
        break
      case 'risk_accepted': {
        const asked = Math.max(at, SEED_NOW - 150 * DAY_MS)
        act(id, 'request_acceptance', people.manager, asked, {
          note: 'Internal tool behind single sign-on.',
          expiresAt: SEED_NOW + random.int(30, 180) * DAY_MS,
        })
        act(id, 'approve_acceptance', people.admin, asked + DAY_MS, { note: 'Accepted until the replacement goes live.' })
        break
      }
      default:
        break
    }
  }

  // Retest requests of at most RETEST_MAX_FINDINGS findings each: some waiting on the analysts,
  // some answered "partly fixed".
  const retests: [string, StoredRetest][] = []
  const retest = (ids: string[], n: number, completed: boolean) => {
    const id = `${SCALE_SERVICE}-scale-${index}-${completed ? 'partial' : 'pending'}-${n}`
    const requestedAt = completed ? SEED_NOW - 12 * DAY_MS : SEED_NOW - random.int(1, 5) * DAY_MS
    const completedAt = completed ? requestedAt + 3 * DAY_MS : null
    const note = 'Fixes deployed in the last release: please test again.'
    const resultNote = 'Fixed on the main endpoint; the legacy path still answers the same way.'
    for (const findingId of ids) {
      act(findingId, 'request_retest', people.manager, requestedAt, { note, retestId: id })
      if (completedAt !== null) act(findingId, 'retest_partially_fixed', people.analyst, completedAt, { note: resultNote })
    }
    retests.push([
      id,
      {
        service: SCALE_SERVICE,
        findingIds: ids,
        findingTitles: ids.map((f) => findings.get(f)!.title),
        state: completed ? 'completed' : 'requested',
        note,
        requestedByUid: people.manager.uid,
        requestedByName: people.manager.name,
        requestedAt,
        dueAt: requestedAt + DEFAULT_RETEST_TURNAROUND_DAYS * DAY_MS,
        results:
          completedAt === null
            ? []
            : ids.map((findingId) => ({
                findingId,
                outcome: 'partially_fixed' as const,
                note: resultNote,
                at: completedAt,
                byUid: people.analyst.uid,
                byName: people.analyst.name,
              })),
        completedAt,
        completedByName: completedAt === null ? null : people.analyst.name,
        updatedAt: completedAt ?? requestedAt,
        updatedBy: completedAt === null ? people.manager.uid : people.analyst.uid,
      },
    ])
  }
  for (let start = 0, n = 1; start < pendingRetest.length; start += RETEST_MAX_FINDINGS, n++)
    retest(pendingRetest.slice(start, start + RETEST_MAX_FINDINGS), n, false)
  for (let start = 0, n = 1; start < partialRetest.length; start += RETEST_MAX_FINDINGS, n++)
    retest(partialRetest.slice(start, start + RETEST_MAX_FINDINGS), n, true)

  // SLA states as of "now".
  for (const [id, finding] of findings) {
    const patch = planSlaRefresh(finding, SEED_NOW)
    if (patch) findings.set(id, { ...finding, ...patch })
  }
  return { findings: [...findings], retests, months }
}

export interface ScaleTally {
  /** Every document path the scale seed writes (findings and retests). */
  paths: Set<string>
  open: number
  closed: number
  retests: number
  /** The findings' and retests' part of the service's counters (findingContribution's form). */
  contribution: Map<string, number>
  /** Their part of the monthly figures, by month (YYYY-MM). */
  months: Map<string, MonthFigures>
}

/** What `open` scale findings come to, chunk by chunk, without keeping the findings. */
export async function tallyScaleFindings(open: number, people: CompanyPeople): Promise<ScaleTally> {
  const tally: ScaleTally = { paths: new Set(), open: 0, closed: 0, retests: 0, contribution: new Map(), months: new Map() }
  const add = (contribution: Map<string, number>) => {
    for (const [key, n] of contribution) tally.contribution.set(key, (tally.contribution.get(key) ?? 0) + n)
  }
  for (let index = 0; index < scaleChunkCount(open); index++) {
    const chunk = await scaleChunk(open, index, people)
    for (const [id, finding] of chunk.findings) {
      tally.paths.add(findingPath(SCALE_COMPANY, id))
      if (isOpenStatus(finding.status)) tally.open++
      else tally.closed++
      add(findingContribution(finding))
    }
    for (const [id, retest] of chunk.retests) {
      tally.paths.add(retestPath(SCALE_COMPANY, id))
      tally.retests++
      add(retestContribution(retest))
    }
    for (const change of chunk.months) addMonthlyChange(tally.months, change)
  }
  return tally
}
