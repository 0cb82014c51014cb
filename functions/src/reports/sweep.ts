// The hourly sweep over every company's findings: accepted risks whose expiry passed reopen, and
// SLA states move on with the clock (ok, due soon, breached), each through the finding store so
// the counters follow. People are told when findings enter due soon or breached. The counters go
// through the stats ledger, folded at most once a second per company (decision 0037): a sweep over
// a large service moves thousands of findings, which would otherwise write its figures per chunk.
import { FieldPath, Timestamp, type Firestore, type Query, type QueryDocumentSnapshot, type QuerySnapshot } from 'firebase-admin/firestore'
import { planAcceptanceExpiry, planSlaRefresh } from '#domain/finding-workflow.ts'
import type { SlaState } from '#domain/findings.ts'
import type { NotificationType } from '#domain/notifications.ts'
import { reportLink } from '#domain/report-links.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { slaStateChangesAt } from '#domain/sla.ts'
import { aggregatePacer, type AggregatePacer } from '#domain/stats-ledger.ts'
import { applyFindingChanges, readFinding, restampSlaChange, type ActivityLine, type FindingWrite } from './finding-store.ts'
import { foldPaced } from './stats-fold.ts'
import { notifyCompany } from './notify.ts'

/** Findings one transaction moves. */
const CHUNK = 50

/** Candidates read per page: a page is swept, its chunks written, before the next is read. */
export const SWEEP_PAGE = 500

/**
 * The sweep's own state: whether every running clock stored before findings kept `slaChangeAt`
 * has been given one (a query for `slaChangeAt` cannot find a finding that has none).
 */
export const SWEEP_STATE_PATH = 'sweep_state/findings'

export interface SweepSummary {
  reopened: number
  refreshed: number
  notified: number
}

export interface SweepOptions {
  pacerOf?: () => AggregatePacer
  /** Candidates per page (tests sweep more than one page with a small one). */
  pageSize?: number
}

const companyOf = (doc: QueryDocumentSnapshot) => doc.ref.parent.parent?.id ?? null

function byCompany(docs: readonly QueryDocumentSnapshot[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const doc of docs) {
    const company = companyOf(doc)
    if (!company) continue
    out.set(company, [...(out.get(company) ?? []), doc.id])
  }
  return out
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * Sweeps the candidates page by page, in the order of the field each query filters on and then the
 * path, so memory holds one page, whatever the number of findings. The candidates are the accepted
 * risks whose expiry passed and the findings whose SLA moment (`slaChangeAt`) has come: only what
 * moves is read, not every running clock. A moved finding leaves its query (its next moment is
 * later, a reopened risk is no longer accepted), so the cursor passes each candidate once. Every
 * write is planned from the finding as it is read in its transaction: a finding already moved plans
 * nothing, so a run that stops midway is taken up by the next hourly run without counting anything
 * twice.
 */
export async function sweepFindings(db: Firestore, now: number, options: SweepOptions = {}): Promise<SweepSummary> {
  const { pacerOf = () => aggregatePacer(), pageSize = SWEEP_PAGE } = options
  const findings = db.collectionGroup('findings')
  const candidates: { query: Query; unstamped?: true }[] = [
    {
      query: findings
        .where('status', '==', 'risk_accepted')
        .where('riskAcceptance.expiresAt', '<=', Timestamp.fromMillis(now))
        .orderBy('riskAcceptance.expiresAt')
        .orderBy(FieldPath.documentId()),
    },
    { query: findings.where('slaChangeAt', '<=', Timestamp.fromMillis(now)).orderBy('slaChangeAt').orderBy(FieldPath.documentId()) },
  ]
  // Until one sweep has gone through every running clock once (as each sweep did before
  // `slaChangeAt`), the findings stored without it are found by their state, and each is given its
  // moment on the way; those that have one are the query above's.
  const filled = (await db.doc(SWEEP_STATE_PATH).get()).get('slaChangeAtFilled') === true
  if (!filled)
    candidates.push({
      query: findings.where('slaState', 'in', ['ok', 'due_soon']).orderBy('sla.dueAt').orderBy(FieldPath.documentId()),
      unstamped: true,
    })
  const summary: SweepSummary = { reopened: 0, refreshed: 0, notified: 0 }
  // company/service/type → how many findings entered that SLA state.
  const entered = new Map<string, number>()
  // Per company (a company's candidates are spread over the pages): its pacer, and whether the
  // ledger holds entries of this sweep not folded yet.
  const ledgers = new Map<string, { pacer: AggregatePacer; unfolded: boolean }>()
  const ledgerOf = (company: string) => {
    let ledger = ledgers.get(company)
    if (!ledger) ledgers.set(company, (ledger = { pacer: pacerOf(), unfolded: false }))
    return ledger
  }

  const sweepChunk = (company: string, chunk: readonly string[]) =>
    db.runTransaction(async (tx) => {
      const writes: FindingWrite[] = []
      const states: { service: ServiceId; from: SlaState; to: SlaState }[] = []
      const restamps: { id: string; slaChangeAt: number | null }[] = []
      let reopened = 0
      for (const id of chunk) {
        const finding = await readFinding(db, tx, company, id)
        if (!finding) continue
        const expiry = planAcceptanceExpiry(finding, now)
        if (expiry?.ok) {
          writes.push({ id, before: finding, patch: expiry.patch, change: expiry.change })
          reopened += 1
          continue
        }
        const refresh = planSlaRefresh(finding, now)
        if (refresh) {
          writes.push({ id, before: finding, patch: refresh, change: null })
          states.push({ service: finding.service, from: finding.slaState, to: refresh.slaState ?? finding.slaState })
          continue
        }
        // Nothing moved, but its stored moment was missing or not this clock's.
        const slaChangeAt = slaStateChangesAt(finding.sla, finding.slaState)
        if (slaChangeAt !== finding.slaChangeAt) restamps.push({ id, slaChangeAt })
      }
      const breached = new Map<ServiceId, number>()
      for (const s of states) if (s.to === 'breached') breached.set(s.service, (breached.get(s.service) ?? 0) + 1)
      const activity: ActivityLine[] = [...breached].map(([service, count]) => ({
        type: 'sla_breached',
        service,
        summary: `SLA breached for ${plural(count, 'finding', 'findings')}`,
        count,
        at: now,
      }))
      if (writes.length > 0) await applyFindingChanges(db, tx, { company, updatedBy: 'system', findings: writes, activity, ledger: true })
      for (const { id, slaChangeAt } of restamps) restampSlaChange(db, tx, company, id, slaChangeAt)
      return { reopened, states, wrote: writes.length > 0 }
    })

  for (const { query, unstamped } of candidates) {
    let after: QueryDocumentSnapshot | null = null
    for (;;) {
      const page: QuerySnapshot = await (after ? query.startAfter(after) : query).limit(pageSize).get()
      const docs = unstamped ? page.docs.filter((doc) => doc.get('slaChangeAt') === undefined) : page.docs
      for (const [company, ids] of byCompany(docs)) {
        const ledger = ledgerOf(company)
        for (let i = 0; i < ids.length; i += CHUNK) {
          const result = await sweepChunk(company, ids.slice(i, i + CHUNK))
          ledger.unfolded ||= result.wrote
          if (ledger.unfolded && ledger.pacer.due()) {
            await foldPaced(db, company, ledger.pacer)
            ledger.unfolded = false
          }
          summary.reopened += result.reopened
          summary.refreshed += result.states.length
          for (const s of result.states) {
            const type: NotificationType | null = s.to === 'breached' ? 'sla_breached' : s.to === 'due_soon' ? 'sla_due_soon' : null
            if (!type) continue
            const key = `${company}/${s.service}/${type}`
            entered.set(key, (entered.get(key) ?? 0) + 1)
          }
        }
      }
      // What the page left unfolded, where its company's second has passed: the figures trail the
      // sweep by a page, not by the whole sweep.
      for (const [company, ledger] of ledgers)
        if (ledger.unfolded && ledger.pacer.due()) {
          await foldPaced(db, company, ledger.pacer)
          ledger.unfolded = false
        }
      if (page.size < pageSize) break
      after = page.docs.at(-1)!
    }
  }
  for (const [company, ledger] of ledgers) if (ledger.unfolded) await foldPaced(db, company, ledger.pacer)
  if (!filled) await db.doc(SWEEP_STATE_PATH).set({ slaChangeAtFilled: true }, { merge: true })

  for (const [key, count] of entered) {
    const [company, service, type] = key.split('/') as [string, ServiceId, 'sla_breached' | 'sla_due_soon']
    const label = serviceById(service)?.label ?? service
    const findingsText = plural(count, `${label} finding`, `${label} findings`)
    const { notified } = await notifyCompany(db, {
      company,
      service,
      type,
      title: type === 'sla_breached' ? `SLA breached: ${findingsText}` : `SLA due soon: ${findingsText}`,
      body:
        type === 'sla_breached'
          ? `${plural(count, 'finding has', 'findings have')} passed the due date.`
          : `${plural(count, 'finding has', 'findings have')} a fifth or less of the time to fix left.`,
      // The service's findings, the nearest their due date first: the breached and due soon lead.
      link: reportLink(service, { sort: 'sla' }),
    })
    summary.notified += notified.length
  }
  return summary
}
