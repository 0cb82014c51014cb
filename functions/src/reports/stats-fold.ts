// The fold of the stats ledger (#domain/stats-ledger.ts, decision 0037): one transaction takes the
// company's pending entries, adds them to the service figures (increments), the months and the
// scans' publication progress, writing each of those documents once, and deletes the entries.
// Writers call it at most once a second (an AggregatePacer), and a fold claims its company's second
// on the ledger's fold document (statsFoldPath) in the same transaction, so however large the
// publication or the sweep, and however many of them run at once, no aggregate is written more
// often than Firestore sustains for one document.
import { FieldValue, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { readServiceMonth, serviceMonthPath, serviceStatsPath } from '#domain/service-stats.ts'
import { scanFromDocument, scanPath, type ScanPublishing } from '#domain/scans.ts'
import {
  addToMonth,
  AGGREGATE_WRITE_INTERVAL_MS,
  FOLD_ENTRIES,
  foldEntries,
  pendingEntryFromDocument,
  statsFoldPath,
  statsPendingPath,
  type AggregatePacer,
  type PendingEntry,
  type ScanStep,
} from '#domain/stats-ledger.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { increments } from './finding-store.ts'

/** The scan's progress with a fold's steps added. */
export function withSteps(publishing: ScanPublishing, step: ScanStep): ScanPublishing {
  const counts = { ...publishing.counts, bySeverity: { ...publishing.counts.bySeverity } }
  for (const s of SEVERITIES) counts.bySeverity[s] += step.counts.bySeverity[s] ?? 0
  counts.total += step.counts.total
  counts.new += step.counts.new
  counts.persisting += step.counts.persisting
  counts.notDetected += step.counts.notDetected
  counts.reopened += step.counts.reopened
  const later = step.step >= publishing.step
  return {
    ...publishing,
    counts,
    done: publishing.done + step.done,
    newSevere: publishing.newSevere + step.newSevere,
    ...(later ? { step: step.step + 1, phase: step.phase as ScanPublishing['phase'], cursor: step.cursor, page: step.page } : {}),
  }
}

/** The publication's last write, in the fold that takes its last steps: what the scan becomes. */
export type FinishScan = (tx: Transaction, publishing: ScanPublishing) => void

export interface FoldOptions {
  finish?: { scanId: string; write: FinishScan }
  /** A publication's call that stops: its lease is let go with the fold, for the next call. */
  release?: { scanId: string; runner: string }
}

export interface FoldOutcome {
  /** False when another fold of the company wrote within the last second: this one wrote nothing. */
  claimed: boolean
  folded: number
  /** Entries were left for another fold (more than one fold takes). */
  more: boolean
  finished: boolean
  /** The scans' progress as the fold left it. */
  publishing: Map<string, ScanPublishing>
}

const storedProgress = (p: ScanPublishing) => ({
  'publishing.counts': p.counts,
  'publishing.done': p.done,
  'publishing.newSevere': p.newSevere,
  'publishing.step': p.step,
  'publishing.phase': p.phase,
  'publishing.cursor': p.cursor,
  'publishing.page': p.page,
})

/** Between the database's clock and ours. */
const CLOCK_MARGIN_MS = 100

/** Folds the company's pending entries once, unless another fold has its second (call it through `foldPaced`). */
export async function foldStats(db: Firestore, company: string, options: FoldOptions = {}): Promise<FoldOutcome> {
  return db.runTransaction(async (tx) => {
    // Read first: a fold that commits meanwhile makes this transaction run again and see it.
    const claim = db.doc(statsFoldPath(company))
    const last = (await tx.get(claim)).updateTime?.toMillis() ?? 0
    if (Date.now() < last + AGGREGATE_WRITE_INTERVAL_MS + CLOCK_MARGIN_MS)
      return { claimed: false, folded: 0, more: true, finished: false, publishing: new Map() }
    const pending = await tx.get(db.collection(statsPendingPath(company)).limit(FOLD_ENTRIES))
    const entries = pending.docs.map((d) => pendingEntryFromDocument(d.id, d.data())).filter((e): e is PendingEntry => e !== null)
    const more = pending.size === FOLD_ENTRIES
    const plan = foldEntries(entries)
    const monthKeys = Object.keys(plan.delta.months)
    const monthSnapshots = monthKeys.length
      ? await tx.getAll(...monthKeys.map((key) => db.doc(serviceMonthPath(company, ...(key.split('/') as [string, string])))))
      : []
    const finish = options.finish && !more ? options.finish : undefined
    const release = options.release && !more ? options.release : undefined
    const scanIds = [...new Set([...plan.scans.keys(), ...(finish ? [finish.scanId] : []), ...(release ? [release.scanId] : [])])]
    const scanSnapshots = scanIds.length ? await tx.getAll(...scanIds.map((id) => db.doc(scanPath(company, id)))) : []

    for (const [service, counters] of Object.entries(plan.delta.services))
      tx.set(db.doc(serviceStatsPath(company, service)), increments(new Map(Object.entries(counters))), { merge: true })
    monthKeys.forEach((key, n) => {
      const [service, month] = key.split('/') as [string, string]
      const { month: id, ...figures } = addToMonth(readServiceMonth(month, monthSnapshots[n]?.data()), plan.delta.months[key]!)
      tx.set(db.doc(serviceMonthPath(company, service, id)), figures)
    })
    const publishing = new Map<string, ScanPublishing>()
    let finished = false
    let released = false
    scanIds.forEach((id, n) => {
      const scan = scanFromDocument(id, scanSnapshots[n]?.data())
      if (!scan?.publishing || scan.state !== 'draft') return
      const step = plan.scans.get(id)
      const progress = step ? withSteps(scan.publishing, step) : scan.publishing
      publishing.set(id, progress)
      if (finish?.scanId === id) {
        finish.write(tx, progress)
        finished = true
      } else if (release?.scanId === id && progress.runner === release.runner) {
        tx.update(db.doc(scanPath(company, id)), {
          ...storedProgress(progress),
          'publishing.runner': null,
          'publishing.leaseExpiresAt': null,
        })
        released = true
      } else if (step) tx.update(db.doc(scanPath(company, id)), storedProgress(progress))
    })
    for (const doc of pending.docs) tx.delete(doc.ref)
    if (pending.size > 0 || finished || released) tx.set(claim, { at: FieldValue.serverTimestamp() })
    return { claimed: true, folded: pending.size, more, finished, publishing }
  })
}

/**
 * Folds until nothing is pending (or, with `finish`, until the scan is finished), each fold after
 * the pacer allows it. Returns the last fold's outcome.
 */
export async function foldPaced(db: Firestore, company: string, pacer: AggregatePacer, options: FoldOptions = {}): Promise<FoldOutcome> {
  for (;;) {
    await pacer.wait()
    const outcome = await foldStats(db, company, options)
    // Another writer's fold just wrote the aggregates: as good as this one's for the next second.
    if (outcome.folded > 0 || outcome.finished || options.release || !outcome.claimed) pacer.wrote()
    if (!outcome.more) return outcome
  }
}
