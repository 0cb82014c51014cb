// The hourly sweep over every company's findings: accepted risks whose expiry passed reopen, and
// SLA states move on with the clock (ok, due soon, breached), each through the finding store so
// the counters follow. People are told when findings enter due soon or breached. The counters go
// through the stats ledger, folded at most once a second per company (decision 0037): a sweep over
// a large service moves thousands of findings, which would otherwise write its figures per chunk.
import { Timestamp, type Firestore, type QueryDocumentSnapshot } from 'firebase-admin/firestore'
import { planAcceptanceExpiry, planSlaRefresh } from '#domain/finding-workflow.ts'
import type { SlaState } from '#domain/findings.ts'
import type { NotificationType } from '#domain/notifications.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { DAY_MS, DUE_SOON_SHARE } from '#domain/sla.ts'
import { aggregatePacer, type AggregatePacer } from '#domain/stats-ledger.ts'
import { applyFindingChanges, readFinding, type ActivityLine, type FindingWrite } from './finding-store.ts'
import { foldPaced } from './stats-fold.ts'
import { notifyCompany } from './notify.ts'

/** Findings one transaction moves. */
const CHUNK = 50

/** No SLA window is longer than this, so nothing further off can be due soon yet. */
const LONGEST_WINDOW_DAYS = 3 * 365

export interface SweepSummary {
  reopened: number
  refreshed: number
  notified: number
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

export async function sweepFindings(
  db: Firestore,
  now: number,
  pacerOf: () => AggregatePacer = () => aggregatePacer(),
): Promise<SweepSummary> {
  const findings = db.collectionGroup('findings')
  const [expired, ticking] = await Promise.all([
    findings.where('status', '==', 'risk_accepted').where('riskAcceptance.expiresAt', '<=', Timestamp.fromMillis(now)).get(),
    findings
      .where('slaState', 'in', ['ok', 'due_soon'])
      .where('sla.dueAt', '<=', Timestamp.fromMillis(now + LONGEST_WINDOW_DAYS * DUE_SOON_SHARE * DAY_MS))
      .get(),
  ])
  const candidates = byCompany([...expired.docs, ...ticking.docs])
  const summary: SweepSummary = { reopened: 0, refreshed: 0, notified: 0 }
  // company/service/type → how many findings entered that SLA state.
  const entered = new Map<string, number>()

  for (const [company, allIds] of candidates) {
    const ids = [...new Set(allIds)]
    const pacer = pacerOf()
    let unfolded = false
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK)
      const result = await db.runTransaction(async (tx) => {
        const writes: FindingWrite[] = []
        const states: { service: ServiceId; from: SlaState; to: SlaState }[] = []
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
          }
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
        return { reopened, states, wrote: writes.length > 0 }
      })
      unfolded ||= result.wrote
      if (unfolded && pacer.due()) {
        await foldPaced(db, company, pacer)
        unfolded = false
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
    if (unfolded) await foldPaced(db, company, pacer)
  }

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
      link: `/reports/${service}`,
    })
    summary.notified += notified.length
  }
  return summary
}
