// The one way the server changes findings (decision 0016): inside the caller's transaction, each
// change writes the finding's patch, its history entry, the service's counters (the difference of
// the finding's contribution before and after), the month's figures and, where it is worth a line,
// the company's activity. Retest requests move their counter here too. Scans, callables, the sweep
// and the seed all come through here, so no path can forget a counter. Large writes (a publication,
// the sweep) put the counters and months in the ledger instead, folded at most once a second
// (stats-fold.ts, decision 0037).
import { FieldValue, Timestamp, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { companyActivityPath, type CompanyActivityType } from '#domain/company-activity.ts'
import { findingHistoryPath, storedHistoryEntry } from '#domain/finding-history.ts'
import { storedTimes } from '#domain/stored.ts'
import { findingPath, findingFromDocument, type Finding, type StoredFinding } from '#domain/findings.ts'
import {
  planFindingAction,
  type ActionInput,
  type Actor,
  type FindingAction,
  type FindingChange,
  type FindingState,
} from '#domain/finding-workflow.ts'
import type { StoredRetest } from '#domain/retests.ts'
import { readServiceMonth, serviceMonthPath, serviceStatsPath, type ServiceMonth } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { withSlaChangeAt } from '#domain/sla.ts'
import { addToMonth, isEmptyStatsDelta, pendingEntryDocument, statsDelta, statsPendingPath, type ScanStep } from '#domain/stats-ledger.ts'
import { findingChangeEvents } from '#domain/webhooks.ts'
import { queueWebhookDeliveries, readWebhookTargets, type WebhookEventInput } from '../webhooks/queue.ts'

/** A finding's change: its state before (null: first published) and what the plan changes. */
export interface FindingWrite {
  id: string
  before: StoredFinding | null
  /** For a new finding, the whole record; otherwise the plan's patch (and any other fields that move with it). */
  patch: Partial<StoredFinding> | Partial<FindingState>
  /** The history entry; null for changes that are not a move (an SLA state refreshed). */
  change: FindingChange | null
}

export interface PlannedMoves {
  writes: FindingWrite[]
  refused: { findingId: string; reason: string }[]
}

/** One move planned for each finding: the writes of those the workflow allows, the reasons of the others. */
export function planMoves(
  findings: readonly Finding[],
  action: FindingAction,
  actor: Actor,
  input: ActionInput,
  now: number,
): PlannedMoves {
  const planned: PlannedMoves = { writes: [], refused: [] }
  for (const finding of findings) {
    const plan = planFindingAction(finding, action, actor, input, now)
    if (plan.ok) planned.writes.push({ id: finding.id, before: finding, patch: plan.patch, change: plan.change })
    else planned.refused.push({ findingId: finding.id, reason: plan.reason })
  }
  return planned
}

/** A retest request's counter change: its state before and after (null: none). */
export interface RetestWrite {
  service: ServiceId
  before: Pick<StoredRetest, 'state'> | null
  after: Pick<StoredRetest, 'state'> | null
}

export interface ActivityLine {
  type: CompanyActivityType
  service: ServiceId
  summary: string
  count?: number
  scanId?: string | null
  findingId?: string | null
  retestId?: string | null
  at: number
  byName?: string
}

export interface StoreChanges {
  company: string
  /** Who made the change, as the records' updatedBy says it (an address, or 'system'). */
  updatedBy: string
  findings: readonly FindingWrite[]
  retests?: readonly RetestWrite[]
  /** Lines the caller adds (a retest requested, a scan published) besides those the moves give. */
  activity?: readonly ActivityLine[]
  /**
   * Large writes (a publication's steps, the sweep): the service figures and months go to the
   * ledger, with the scan's step when there is one, for a fold to add (decision 0037).
   */
  ledger?: true | { scan: ScanStep }
  /** Webhook events the caller adds (a retest completed) besides those the findings' changes give. */
  events?: readonly WebhookEventInput[]
}

/** The finding a transaction read, with epoch-ms times, or null when there is none. */
export async function readFinding(db: Firestore, tx: Transaction, company: string, id: string): Promise<Finding | null> {
  const snapshot = await tx.get(db.doc(findingPath(company, id)))
  return snapshot.exists ? findingFromDocument(id, snapshot.data()) : null
}

/** A record with epoch-ms times as the Admin SDK stores it. */
const stored = (record: object) => storedTimes(record, Timestamp.fromMillis) as Record<string, unknown>

/** Dotted counter paths as the nested increments a merge writes. */
export function increments(delta: Map<string, number>): Record<string, unknown> {
  const out: Record<string, Record<string, unknown> | unknown> = {}
  for (const [path, n] of delta) {
    const [head, tail] = path.split('.') as [string, string | undefined]
    if (tail === undefined) out[head] = FieldValue.increment(n)
    else out[head] = { ...((out[head] as Record<string, unknown> | undefined) ?? {}), [tail]: FieldValue.increment(n) }
  }
  return out
}

const MOVE_ACTIVITY: Partial<Record<string, CompanyActivityType>> = {
  request_acceptance: 'acceptance_requested',
  approve_acceptance: 'acceptance_decided',
  reject_acceptance: 'acceptance_decided',
}

const activitySummary = (type: CompanyActivityType, count: number) => {
  const findings = count === 1 ? '1 finding' : `${count} findings`
  switch (type) {
    case 'acceptance_requested':
      return `Risk acceptance requested for ${findings}`
    case 'acceptance_decided':
      return `Risk acceptance decided for ${findings}`
    case 'findings_fixed':
      return `${findings} fixed`
    default:
      return `${findings} changed`
  }
}

/**
 * Gives a finding the SLA moment of its clock as it stands, changing nothing else (not even who
 * changed it last): for findings stored before they kept one, or whose stored one was not exact.
 */
export function restampSlaChange(db: Firestore, tx: Transaction, company: string, id: string, slaChangeAt: number | null): void {
  tx.update(db.doc(findingPath(company, id)), { slaChangeAt: slaChangeAt === null ? null : Timestamp.fromMillis(slaChangeAt) })
}

/**
 * Writes every change of `changes` in `tx`. Reads the month documents it updates first (unless the
 * aggregates go to the ledger), so call it after the transaction's own reads and before (or
 * instead of) its other writes.
 */
export async function applyFindingChanges(db: Firestore, tx: Transaction, changes: StoreChanges): Promise<void> {
  const { company, updatedBy } = changes
  const afters: { write: FindingWrite; after: StoredFinding }[] = changes.findings.map((planned) => {
    const merged = { ...(planned.before ?? {}), ...planned.patch } as StoredFinding
    // The sweep's moment follows every change of the clock or of its state.
    const clockMoved = planned.before === null || 'sla' in planned.patch || 'slaState' in planned.patch
    if (!clockMoved) return { write: planned, after: merged }
    const after = withSlaChangeAt(merged)
    return { write: { ...planned, patch: { ...planned.patch, slaChangeAt: after.slaChangeAt } }, after }
  })
  const delta = statsDelta(
    afters.map(({ write, after }) => ({ before: write.before, after })),
    changes.retests ?? [],
  )

  // Reads: the months these changes add to (read-modify-write, so a number is counted once per change).
  const months = new Map<string, ServiceMonth>()
  if (!changes.ledger)
    for (const key of Object.keys(delta.months)) {
      const [service, month] = key.split('/') as [string, string]
      const snapshot = await tx.get(db.doc(serviceMonthPath(company, service, month)))
      months.set(key, readServiceMonth(month, snapshot.data()))
    }

  // Webhook events: the caller's and each finding's (new, status changed, reopened, SLA breached),
  // queued for the company's endpoints with the change itself (decision 0056).
  const events: WebhookEventInput[] = [...(changes.events ?? [])]
  for (const { write, after } of afters)
    for (const event of findingChangeEvents(write.before, after))
      events.push({
        type: event.type,
        at: write.change?.at ?? Date.now(),
        data: {
          service: after.service,
          findingId: write.id,
          ...(write.change?.scanId ? { scanId: write.change.scanId } : {}),
          ...(event.from ? { from: event.from, to: event.to } : {}),
        },
      })
  if (events.length > 0) queueWebhookDeliveries(db, tx, company, await readWebhookTargets(db, company), events)

  // Writes.
  const now = FieldValue.serverTimestamp()
  for (const { write, after } of afters) {
    const ref = db.doc(findingPath(company, write.id))
    if (write.before === null) tx.set(ref, { ...stored(after), updatedAt: now, updatedBy })
    else tx.update(ref, { ...stored(write.patch), updatedAt: now, updatedBy })
    if (write.change)
      tx.set(
        db.collection(findingHistoryPath(company, write.id)).doc(),
        stored(storedHistoryEntry(company, after.service, write.id, write.change)),
      )
  }

  if (changes.ledger) {
    // The aggregates are folded later, at most once a second (stats-fold.ts).
    const scan = changes.ledger === true ? null : changes.ledger.scan
    if (!isEmptyStatsDelta(delta) || scan) tx.set(db.collection(statsPendingPath(company)).doc(), pendingEntryDocument(delta, scan))
  } else {
    for (const [service, counters] of Object.entries(delta.services))
      tx.set(db.doc(serviceStatsPath(company, service)), increments(new Map(Object.entries(counters))), { merge: true })
    for (const [key, month] of months) {
      const [service] = key.split('/') as [string]
      const { month: id, ...figures } = addToMonth(month, delta.months[key]!)
      tx.set(db.doc(serviceMonthPath(company, service, id)), figures)
    }
  }

  // Activity: one line per kind of move and service, plus the caller's own.
  const lines: ActivityLine[] = [...(changes.activity ?? [])]
  const grouped = new Map<
    string,
    { type: CompanyActivityType; service: ServiceId; count: number; at: number; byName: string; findingId: string }
  >()
  for (const { write, after } of afters) {
    if (!write.change) continue
    const types: CompanyActivityType[] = []
    const moved = MOVE_ACTIVITY[write.change.action]
    if (moved) types.push(moved)
    if (after.status === 'fixed' && write.before?.status !== 'fixed') types.push('findings_fixed')
    for (const type of types) {
      const key = `${type}/${after.service}`
      const line = grouped.get(key)
      if (line) line.count += 1
      else
        grouped.set(key, { type, service: after.service, count: 1, at: write.change.at, byName: write.change.byName, findingId: write.id })
    }
  }
  for (const line of grouped.values())
    lines.push({
      type: line.type,
      service: line.service,
      summary: activitySummary(line.type, line.count),
      count: line.count,
      findingId: line.count === 1 ? line.findingId : null,
      at: line.at,
      byName: line.byName,
    })
  for (const line of lines)
    tx.set(
      db.collection(companyActivityPath(company)).doc(),
      stored({ count: 1, scanId: null, findingId: null, retestId: null, byName: '', ...line }),
    )
}
