// The demo year of one company's service, played through the product's own rules: each month's
// scan is applied with planScanPublication, and people's moves between scans (remediation,
// retests, disputes, risk acceptances, analysts' decisions) with planFindingAction, so every
// finding, its history and the service's counters are what the live product would have written.
import type { StoredAsset } from '#domain/assets.ts'
import type { StoredFinding, FindingStatus } from '#domain/findings.ts'
import { assetId, findingFingerprint } from '#domain/fingerprints.ts'
import {
  planAcceptanceExpiry,
  planFindingAction,
  planSlaRefresh,
  type ActionInput,
  type Actor,
  type FindingAction,
  type Plan,
} from '#domain/finding-workflow.ts'
import type { StoredRetest } from '#domain/retests.ts'
import { planScanPublication, type ObservedFinding, type PublicationChange } from '#domain/scan-publication.ts'
import type { ScanMembers, StoredScan } from '#domain/scans.ts'
import {
  findingContribution,
  monthlyChanges,
  retestContribution,
  sumContributions,
  type MonthlyChange,
  type ServiceStats,
} from '#domain/service-stats.ts'
import { countRemediationDays, DAY_MS, DEFAULT_RETEST_TURNAROUND_DAYS, slaPolicyFor } from '#domain/sla.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import type { CompanyActivityType } from '#domain/company-activity.ts'
import { RETEST_MAX_FINDINGS } from '#domain/retests.ts'
import { draftStartedAt, monthId, monthLabel, MONTHS, scanFinishedAt, scanPublishedAt, scanStartedAt, SEED_NOW } from './calendar.ts'
import { seededRandom, type Random } from './random.ts'
import { draftMaterial, type DraftIssue, type DraftMaterial } from './drafts.ts'
import { scanStats } from './stats.ts'
import type { CompanyProfile, IssueSpec, ServiceUniverse } from './universe.ts'
import { demoCves } from './vuln-intel.ts'

export interface Person extends Actor {
  role: 'viewer' | 'manager' | 'company-admin' | 'analyst'
}

export interface CompanyPeople {
  analyst: Person
  manager: Person
  admin: Person
  viewer: Person | null
}

export type HistoryEntry = PublicationChange & { note: string | null }

export interface Comment {
  authorUid: string
  authorName: string
  authorRole: string
  body: string
  visibility: 'client' | 'internal'
  mentions: string[]
  createdAt: number
}

export interface MonthFigures {
  opened: Record<Severity, number>
  fixed: Record<Severity, number>
  fixedWithinSla: Record<Severity, number>
  /** Days to remediate, counted per tenth of a day, as the months store them. */
  remediationTenths: Record<Severity, Record<string, number>>
}

export interface Activity {
  type: CompanyActivityType
  service: string
  summary: string
  count: number
  scanId: string | null
  findingId: string | null
  retestId: string | null
  at: number
  byName: string
}

export interface OccurrenceDoc {
  scanId: string
  at: number
  severity: Severity
  asset: string
  evidence: string
}

export interface ServiceSeed {
  findings: Map<string, StoredFinding>
  history: Map<string, HistoryEntry[]>
  occurrences: Map<string, Map<string, OccurrenceDoc>>
  comments: Map<string, Comment[]>
  scans: Map<string, StoredScan>
  members: Map<string, ScanMembers[]>
  retests: Map<string, StoredRetest>
  assets: Map<string, StoredAsset>
  activity: Activity[]
  months: Map<string, MonthFigures>
  stats: ServiceStats
  /** The draft scan's id and what its import wrote for review. */
  draft: DraftMaterial & { id: string }
}

/** Adds a finding's monthly change (monthlyChanges) to the figures of its month. */
export function addMonthlyChange(months: Map<string, MonthFigures>, change: MonthlyChange): void {
  let figures = months.get(change.month)
  if (!figures) {
    figures = {
      opened: emptyBySeverity(),
      fixed: emptyBySeverity(),
      fixedWithinSla: emptyBySeverity(),
      remediationTenths: Object.fromEntries(SEVERITIES.map((s) => [s, {}])) as Record<Severity, Record<string, number>>,
    }
    months.set(change.month, figures)
  }
  if (change.opened) figures.opened[change.opened]++
  if (change.fixed) {
    figures.fixed[change.fixed.severity]++
    if (change.fixed.withinSla) figures.fixedWithinSla[change.fixed.severity]++
    countRemediationDays(figures.remediationTenths[change.fixed.severity], change.fixed.days)
  }
}

/** The months whose scans keep per-finding occurrences (the last ones). */
export const OCCURRENCE_MONTHS = 3

const SYSTEM: Actor = { uid: 'system', name: 'Bulwark', role: 'system' }

const emptyBySeverity = () => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>

/** Scan ids read as the service and month, so the demo data is easy to find. */
export const demoScanId = (service: string, month: number) => `${service}-${monthId(month)}`

/** What the month's scan reports of an issue (the template's text where it has one). */
export function observedOf(issue: IssueSpec, fingerprint: string, month: number): ObservedFinding {
  const template = issue.rule.template
  return {
    fingerprint,
    title: issue.rule.title,
    severity: issue.rule.severity,
    asset: issue.asset,
    location: issue.location,
    evidence: `${issue.evidence} (${monthLabel(month)})`,
    cve: demoCves(issue.rule.ruleId, template?.slug),
    ...(template
      ? {
          templateSlug: template.slug,
          cvss: template.cvss ? { version: template.cvss.version, vector: template.cvss.vector, score: template.cvss.score } : null,
          cwe: [...template.cwe],
          tags: [...template.tags],
          description: template.description,
          impact: template.impact,
          remediation: template.remediation,
          references: [...template.references],
        }
      : { tags: [issue.rule.ruleId.split(':')[0] ?? 'scanner'] }),
  }
}

export async function simulateService(profile: CompanyProfile, universe: ServiceUniverse, people: CompanyPeople): Promise<ServiceSeed> {
  const service = universe.service
  const random: Random = seededRandom(`${profile.slug}/${service}/moves`)
  const policy = slaPolicyFor(null)
  const fingerprints = await Promise.all(universe.issues.map((issue) => findingFingerprint(service, issue.parts as never)))
  const issueOf = new Map(universe.issues.map((issue, i) => [fingerprints[i]!, issue]))
  const assetIds = await Promise.all(universe.assets.map((asset) => assetId(service, asset.type, asset.value)))

  const seed: Omit<ServiceSeed, 'draft'> = {
    findings: new Map(),
    history: new Map(),
    occurrences: new Map(),
    comments: new Map(),
    scans: new Map(),
    members: new Map(),
    retests: new Map(),
    assets: new Map(),
    activity: [],
    months: new Map(),
    stats: sumContributions([]),
  }
  const { findings } = seed

  const record = (id: string, before: StoredFinding | null, after: StoredFinding, changes: readonly HistoryEntry[]) => {
    findings.set(id, after)
    if (changes.length > 0) seed.history.set(id, [...(seed.history.get(id) ?? []), ...changes])
    for (const change of monthlyChanges(before, after)) addMonthlyChange(seed.months, change)
  }

  const applyPlan = (id: string, plan: Plan | null, by: Actor, at: number) => {
    if (!plan?.ok) return false
    const before = findings.get(id)!
    const after: StoredFinding = { ...before, ...plan.patch, updatedAt: at, updatedBy: by.uid } as StoredFinding
    record(id, before, after, [{ ...plan.change }])
    return true
  }

  const act = (id: string, action: FindingAction, actor: Person, at: number, input: ActionInput = {}) => {
    const finding = findings.get(id)
    if (!finding) return false
    return applyPlan(id, planFindingAction(finding, action, actor, input, at), actor, at)
  }

  const activity = (type: CompanyActivityType, summary: string, at: number, extra: Partial<Activity> = {}) =>
    seed.activity.push({ type, service, summary, count: 1, scanId: null, findingId: null, retestId: null, at, byName: '', ...extra })

  /** A completed retest of these findings: requested by the manager, each finding's outcome given by the analyst. */
  const retest = (
    id: string,
    entries: readonly { findingId: string; outcome: 'fixed' | 'partially_fixed' | 'not_fixed' }[],
    requestedAt: number,
    completedAt: number | null,
    note: string,
  ) => {
    const requested = entries.filter((e) => act(e.findingId, 'request_retest', people.manager, requestedAt, { note, retestId: id }))
    if (requested.length === 0) return
    const results: StoredRetest['results'] = []
    if (completedAt !== null)
      for (const entry of requested) {
        const action =
          entry.outcome === 'fixed' ? 'retest_fixed' : entry.outcome === 'partially_fixed' ? 'retest_partially_fixed' : 'retest_not_fixed'
        const resultNote =
          entry.outcome === 'fixed'
            ? 'No longer reproducible.'
            : entry.outcome === 'partially_fixed'
              ? 'Fixed on the main endpoint; the legacy path still answers the same way.'
              : 'Still reproducible with the original request.'
        if (act(entry.findingId, action, people.analyst, completedAt, { note: resultNote }))
          results.push({
            findingId: entry.findingId,
            outcome: entry.outcome,
            note: resultNote,
            at: completedAt,
            byUid: people.analyst.uid,
            byName: people.analyst.name,
          })
      }
    const stored: StoredRetest = {
      service,
      findingIds: requested.map((e) => e.findingId),
      findingTitles: requested.map((e) => findings.get(e.findingId)!.title),
      state: completedAt === null ? 'requested' : 'completed',
      note,
      requestedByUid: people.manager.uid,
      requestedByName: people.manager.name,
      requestedAt,
      dueAt: requestedAt + DEFAULT_RETEST_TURNAROUND_DAYS * DAY_MS,
      results,
      completedAt,
      completedByName: completedAt === null ? null : people.analyst.name,
      updatedAt: completedAt ?? requestedAt,
      updatedBy: completedAt === null ? people.manager.uid : people.analyst.uid,
    }
    seed.retests.set(id, stored)
    activity('retest_requested', `Retest requested for ${requested.length} finding${requested.length === 1 ? '' : 's'}`, requestedAt, {
      retestId: id,
      count: requested.length,
      byName: people.manager.name,
    })
    if (completedAt !== null) {
      const fixed = results.filter((r) => r.outcome === 'fixed').length
      activity('retest_completed', `Retest completed: ${fixed} of ${results.length} fixed`, completedAt, {
        retestId: id,
        count: results.length,
        byName: people.analyst.name,
      })
    }
  }

  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const openIds = (statuses: readonly FindingStatus[]) =>
    [...findings]
      .filter(([, f]) => statuses.includes(f.status))
      .map(([id]) => id)
      .sort(byId)

  let previousScanId: string | null = null
  for (let month = 0; month < MONTHS; month++) {
    const scanId = demoScanId(service, month)
    const startedAt = scanStartedAt(service, month)
    const publishedAt = scanPublishedAt(service, month)
    const nextStart = month + 1 < MONTHS ? scanStartedAt(service, month + 1) : SEED_NOW

    // Accepted risks whose time is up are open again before the scan.
    for (const id of openIds(['risk_accepted'])) applyPlan(id, planAcceptanceExpiry(findings.get(id)!, startedAt), SYSTEM, startedAt)

    const observed: ObservedFinding[] = []
    for (let i = 0; i < universe.issues.length; i++) {
      const issue = universe.issues[i]!
      if (issue.months.includes(month)) observed.push(observedOf(issue, fingerprints[i]!, month))
    }
    const assets = universe.assets.flatMap((asset, i) =>
      asset.months.includes(month) ? [{ id: assetIds[i]!, label: asset.value, ports: asset.ports?.(month).map((p) => p.port) ?? [] }] : [],
    )
    const publication = planScanPublication({
      scan: { id: scanId, service, startedAt },
      observed,
      current: findings,
      assets,
      policy,
      now: publishedAt,
      by: people.analyst.uid,
    })
    const missed: string[] = []
    for (const write of publication.writes) {
      record(write.id, write.before, write.after, write.changes)
      if (write.changes.some((c) => c.action === 'not_seen')) missed.push(write.id)
    }
    // Occurrences of the last scans only: enough for a finding's page, and a quarter of the writes.
    if (month >= MONTHS - OCCURRENCE_MONTHS)
      for (const occurrence of publication.occurrences) {
        const byScan = seed.occurrences.get(occurrence.findingId) ?? new Map<string, OccurrenceDoc>()
        byScan.set(scanId, {
          scanId,
          at: occurrence.at,
          severity: occurrence.severity,
          asset: occurrence.asset,
          evidence: occurrence.evidence,
        })
        seed.occurrences.set(occurrence.findingId, byScan)
      }
    const title = universe.title(monthLabel(month))
    seed.scans.set(scanId, {
      service,
      state: 'published',
      title,
      tool: universe.tool,
      files: [],
      importReport: null,
      importedBy: null,
      publishing: null,
      scopeKey: universe.scopeKey,
      side: false,
      targets: universe.targets,
      startedAt,
      finishedAt: scanFinishedAt(service, month),
      publishedAt,
      publishedBy: people.analyst.name,
      previousScanId,
      counts: publication.counts,
      stats: scanStats(universe, profile, month, startedAt),
      updatedAt: publishedAt,
      updatedBy: people.analyst.uid,
    })
    seed.members.set(scanId, publication.members)
    const { counts } = publication
    activity(
      'scan_published',
      `${title} published: ${counts.new} new, ${counts.reopened} seen again, ${counts.notDetected} no longer detected`,
      publishedAt,
      {
        scanId,
        count: counts.total,
        byName: people.analyst.name,
      },
    )
    const serious = publication.writes.filter((w) => w.before === null && (w.after.severity === 'critical' || w.after.severity === 'high'))
    if (serious.length > 0)
      activity('findings_new', `${serious.length} new critical or high finding${serious.length === 1 ? '' : 's'}`, publishedAt, {
        scanId,
        count: serious.length,
        findingId: serious.length === 1 ? serious[0]!.id : null,
      })
    previousScanId = scanId

    const comesBack = (id: string) => issueOf.get(id)!.months.some((m) => m > month)
    const seenNext = (id: string) => issueOf.get(id)!.months.includes(month + 1)
    const last = month === MONTHS - 1

    // Analysts confirm most findings the scan no longer saw (always those that come back later: regressions).
    let confirmed = 0
    for (const id of missed) {
      if (comesBack(id) || random.chance(last ? 0.5 : 0.88)) {
        if (act(id, 'confirm_fixed', people.analyst, publishedAt + random.int(1, 6) * DAY_MS + random.int(1, 8) * 3_600_000)) confirmed++
      }
    }
    if (confirmed > 0)
      activity('findings_fixed', `${confirmed} finding${confirmed === 1 ? '' : 's'} confirmed fixed`, publishedAt + 7 * DAY_MS, {
        count: confirmed,
        byName: people.analyst.name,
      })
    if (last) break

    // Between scans: remediation starts, retests, disputes, acceptances and analysts' decisions.
    const open = openIds(['open', 'reopened', 'partially_fixed', 'in_remediation'])
    const toRetest: { findingId: string; outcome: 'fixed' | 'partially_fixed' | 'not_fixed' }[] = []
    for (const id of open) {
      const finding = findings.get(id)!
      if (!seenNext(id)) {
        if (random.chance(0.4)) toRetest.push({ findingId: id, outcome: 'fixed' })
        else if (finding.status !== 'in_remediation' && random.chance(0.3))
          act(id, 'start_remediation', people.manager, publishedAt + random.int(2, 5) * DAY_MS)
        continue
      }
      const roll = random.next()
      if (roll < 0.1 && finding.status !== 'in_remediation')
        act(id, 'start_remediation', people.manager, publishedAt + random.int(2, 9) * DAY_MS)
      else if (roll < 0.115 && finding.severity !== 'info')
        toRetest.push({ findingId: id, outcome: random.chance(0.5) ? 'not_fixed' : 'partially_fixed' })
      else if (roll < 0.122 && (finding.severity === 'info' || finding.severity === 'low'))
        act(id, 'mark_false_positive', people.analyst, publishedAt + random.int(2, 9) * DAY_MS, {
          note: 'Scanner matched a generic error page, not the application.',
        })
      else if (roll < 0.126) {
        const at = publishedAt + random.int(3, 8) * DAY_MS
        if (act(id, 'dispute', people.manager, at, { note: 'This endpoint is behind the VPN and not reachable from the internet.' }))
          act(id, 'uphold', people.analyst, at + 2 * DAY_MS, {
            note: 'Reachable from the internet through the partner gateway: the finding stands.',
          })
      } else if (roll < 0.13 && finding.severity !== 'critical') {
        const at = publishedAt + random.int(3, 8) * DAY_MS
        if (
          act(id, 'request_acceptance', people.manager, at, {
            note: 'Legacy system, replaced next quarter.',
            expiresAt: at + random.int(45, 120) * DAY_MS,
          })
        )
          act(id, 'approve_acceptance', people.admin, at + DAY_MS, { note: 'Accepted until the replacement goes live.' })
      }
    }
    const requestBase = publishedAt + 8 * DAY_MS
    for (let start = 0, n = 1; start < toRetest.length; start += RETEST_MAX_FINDINGS, n++) {
      const batch = toRetest.slice(start, start + RETEST_MAX_FINDINGS)
      const requestedAt = requestBase + n * 3_600_000
      const completedAt = Math.min(requestedAt + random.int(2, 6) * DAY_MS, nextStart - DAY_MS)
      retest(`${service}-${monthId(month)}-${n}`, batch, requestedAt, completedAt, 'Fixes deployed in the last release: please test again.')
    }
  }

  // The days before "now": every status a finding can be in, as clients find them today.
  const lastMonth = MONTHS - 1
  const lastPublished = scanPublishedAt(service, lastMonth)
  const fresh = random.shuffle(openIds(['open']).filter((id) => findings.get(id)!.lastSeenScanId === demoScanId(service, lastMonth)))
  const take = (n: number) => fresh.splice(0, Math.min(n, fresh.length))
  const day = (n: number) => lastPublished + n * DAY_MS
  for (const id of take(Math.max(3, Math.round(fresh.length * 0.12)))) act(id, 'start_remediation', people.manager, day(random.int(1, 8)))
  retest(
    `${service}-${monthId(lastMonth)}-pending`,
    take(6).map((findingId) => ({ findingId, outcome: 'fixed' as const })),
    SEED_NOW - 3 * DAY_MS,
    null,
    'Patched during the maintenance window on Saturday.',
  )
  retest(
    `${service}-${monthId(lastMonth)}-partial`,
    take(3).map((findingId) => ({ findingId, outcome: 'partially_fixed' as const })),
    day(2),
    day(5),
    'Configuration changed on the load balancers.',
  )
  for (const id of take(3))
    act(id, 'dispute', people.manager, day(random.int(3, 9)), { note: 'Compensating control in place: the WAF blocks this request.' })
  for (const id of take(3)) {
    const at = day(random.int(3, 9))
    if (
      act(id, 'request_acceptance', people.manager, at, {
        note: 'Vendor appliance: no patch before the next release.',
        expiresAt: SEED_NOW + 180 * DAY_MS,
      })
    )
      activity('acceptance_requested', 'Risk acceptance requested', at, { findingId: id, byName: people.manager.name })
  }
  take(4).forEach((id, i) => {
    const at = day(1 + i)
    // The first accepted risk ends within a week: "expires soon".
    const expiresAt = i === 0 ? SEED_NOW + 6 * DAY_MS : SEED_NOW + (90 + i * 60) * DAY_MS
    if (
      act(id, 'request_acceptance', people.manager, at, {
        note: 'Business-critical system; isolated in its own network segment.',
        expiresAt,
      })
    ) {
      act(id, 'approve_acceptance', people.admin, at + DAY_MS, { note: 'Approved by the CISO.' })
      activity('acceptance_decided', 'Risk acceptance approved', at + DAY_MS, { findingId: id, byName: people.admin.name })
    }
  })
  for (const id of take(4))
    act(id, 'mark_false_positive', people.analyst, day(random.int(2, 9)), {
      note: 'The version banner is patched by the distribution (backported fix).',
    })
  for (const id of take(2))
    act(id, 'mark_duplicate', people.analyst, day(random.int(2, 9)), { note: 'Same issue as the finding on the load balancer address.' })
  for (const id of take(2))
    act(id, 'mark_out_of_scope', people.analyst, day(random.int(2, 9)), { note: 'Host belongs to a tenant outside the contract.' })

  // Accepted risks that ended before "now" are open again, and SLA states are as of "now".
  for (const id of openIds(['risk_accepted'])) applyPlan(id, planAcceptanceExpiry(findings.get(id)!, SEED_NOW), SYSTEM, SEED_NOW)
  for (const [id, finding] of findings) {
    const patch = planSlaRefresh(finding, SEED_NOW)
    if (patch) findings.set(id, { ...finding, ...patch })
  }
  const breached = [...findings.values()].filter((f) => f.slaState === 'breached').length
  if (breached > 0)
    activity('sla_breached', `${breached} open finding${breached === 1 ? ' is' : 's are'} past the SLA deadline`, SEED_NOW - 3_600_000, {
      count: breached,
    })

  // A conversation on the findings people act on.
  const talked = [...findings]
    .filter(([, f]) =>
      ['disputed', 'acceptance_requested', 'retest_requested', 'risk_accepted', 'partially_fixed', 'reopened'].includes(f.status),
    )
    .map(([id]) => id)
    .sort(byId)
    .slice(0, 14)
  for (const id of talked) {
    const finding = findings.get(id)!
    const at = finding.updatedAt
    const comments: Comment[] = [
      {
        authorUid: people.manager.uid,
        authorName: people.manager.name,
        authorRole: 'manager',
        body: `@${people.analyst.name} we changed the configuration on ${finding.asset}. Can you confirm it looks right from your side?`,
        visibility: 'client',
        mentions: [people.analyst.uid],
        createdAt: at + 3_600_000,
      },
      {
        authorUid: people.analyst.uid,
        authorName: people.analyst.name,
        authorRole: 'analyst',
        body: 'Checked the raw scanner output: the evidence is from before the change. Will verify in the retest.',
        visibility: 'internal',
        mentions: [],
        createdAt: at + 5 * 3_600_000,
      },
      {
        authorUid: people.analyst.uid,
        authorName: people.analyst.name,
        authorRole: 'analyst',
        body: `Thanks @${people.manager.name}: we will test it again within ${DEFAULT_RETEST_TURNAROUND_DAYS} days.`,
        visibility: 'client',
        mentions: [people.manager.uid],
        createdAt: at + 6 * 3_600_000,
      },
    ]
    if (people.viewer)
      comments.push({
        authorUid: people.viewer.uid,
        authorName: people.viewer.name,
        authorRole: 'viewer',
        body: 'Ticket SEC-' + (1000 + talked.indexOf(id)) + ' tracks this on our side.',
        visibility: 'client',
        mentions: [],
        createdAt: at + 2 * 3_600_000,
      })
    comments.sort((a, b) => a.createdAt - b.createdAt)
    seed.comments.set(id, comments)
    findings.set(id, { ...finding, commentCount: comments.length })
  }

  // The draft analysts are still reviewing: next month's scan, not applied to any finding.
  const draftId = `${service}-draft-${monthId(lastMonth)}`
  const draftStart = draftStartedAt(service)
  const draftObserved: ObservedFinding[] = []
  const draftIssues: DraftIssue[] = []
  universe.issues.forEach((issue, i) => {
    if (issue.months.includes(lastMonth) && random.chance(0.93)) {
      const observed = observedOf(issue, fingerprints[i]!, lastMonth)
      draftObserved.push(observed)
      draftIssues.push({ issue, fingerprint: fingerprints[i]!, evidence: observed.evidence ?? issue.evidence })
    }
  })
  const draftAssetSpecs = universe.assets.flatMap((spec, i) =>
    spec.months.includes(lastMonth) ? [{ id: assetIds[i]!, spec, month: lastMonth }] : [],
  )
  const draftAssets = draftAssetSpecs.map(({ id, spec }) => ({
    id,
    label: spec.value,
    ports: spec.ports?.(lastMonth).map((p) => p.port) ?? [],
  }))
  const material = await draftMaterial({
    company: profile.slug,
    service,
    draftId,
    issues: draftIssues,
    assets: draftAssetSpecs,
    by: people.analyst.uid,
    at: draftStart + 6 * 3_600_000,
  })
  const draft = planScanPublication({
    scan: { id: draftId, service, startedAt: draftStart },
    observed: draftObserved,
    current: findings,
    assets: draftAssets,
    policy,
    now: SEED_NOW,
    by: people.analyst.uid,
  })
  seed.scans.set(draftId, {
    service,
    state: 'draft',
    title: `${universe.title('November 2026')} (second run)`,
    tool: universe.tool,
    files: [material.file],
    importReport: material.report,
    importedBy: people.analyst.uid,
    publishing: null,
    scopeKey: universe.scopeKey,
    side: false,
    targets: universe.targets,
    startedAt: draftStart,
    finishedAt: draftStart + 5 * 3_600_000,
    publishedAt: null,
    publishedBy: null,
    previousScanId,
    counts: draft.counts,
    stats: scanStats(universe, profile, lastMonth, draftStart),
    updatedAt: draftStart + 6 * 3_600_000,
    updatedBy: people.analyst.uid,
  })
  seed.members.set(draftId, draft.members)

  // Assets as the last scan that saw each left them.
  universe.assets.forEach((asset, i) => {
    const first = asset.months[0]!
    const lastSeen = asset.months.at(-1)!
    seed.assets.set(assetIds[i]!, {
      service,
      type: asset.type,
      value: asset.value,
      parent: asset.parent,
      status: lastSeen === lastMonth ? 'active' : 'gone',
      firstSeenScanId: demoScanId(service, first),
      firstSeenAt: scanStartedAt(service, first),
      lastSeenScanId: demoScanId(service, lastSeen),
      lastSeenAt: scanStartedAt(service, lastSeen),
      ports: asset.ports?.(lastSeen) ?? [],
      technologies: asset.technologies ?? [],
      notAfter: asset.notAfter ?? null,
      issuer: asset.issuer ?? '',
      account: asset.account ?? null,
      cloud: asset.cloud ?? null,
      tags: asset.tags ?? [],
    })
  })

  seed.stats = {
    ...sumContributions([...[...findings.values()].map(findingContribution), ...[...seed.retests.values()].map(retestContribution)]),
    lastScanId: demoScanId(service, lastMonth),
    lastPublishedAt: lastPublished,
  }
  return { ...seed, draft: { id: draftId, ...material } }
}
