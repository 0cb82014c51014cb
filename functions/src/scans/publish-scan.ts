// publishScan: the reviewed draft becomes what the client sees, live. The publication goes page by
// page, never holding the draft or the service's findings whole: the draft's findings in id order
// (each page's findings read by id, planned by scan-publication.ts and written in transactions of
// STEP_FINDINGS through the finding store, with a members document per page), then the service's
// findings the scan missed, then the assets. Each transaction also writes its step to the stats
// ledger (counts, progress, position), folded into the service figures, months and the scan's
// progress at most once a second (decision 0037). A call works for a while and answers with its
// progress; the next call goes on from the last folded step, under a lease so two calls never write
// the same steps. When every phase is done, the last fold flips the scan to published.
import { randomUUID } from 'node:crypto'
import { FieldPath, FieldValue, Timestamp, type DocumentReference, type Firestore, type Transaction } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import * as logger from 'firebase-functions/logger'
import { assetFromDocument, assetPath, assetsPath } from '#domain/assets.ts'
import { companyActivityPath } from '#domain/company-activity.ts'
import { reportLink } from '#domain/report-links.ts'
import {
  emptySeverityCounts,
  findingFromDocument,
  findingPath,
  findingsPath,
  occurrencePath,
  type Finding,
  type StoredFinding,
} from '#domain/findings.ts'
import {
  draftAssetFromDocument,
  draftAssetsPath,
  draftFindingFromDocument,
  draftFindingsPath,
  type DraftFinding,
} from '#domain/scan-drafts.ts'
import { draftPublication, seenAsset, type TemplateText } from '#domain/scan-import/draft-publication.ts'
import { importStatsAccumulator, type StatsFinding } from '#domain/scan-import/import-stats.ts'
import { publicationScope } from '#domain/publication-scope.ts'
import { planScanPublication, type FindingWrite as PlannedWrite, type ObservedFinding } from '#domain/scan-publication.ts'
import {
  SCAN_MEMBERS_PER_DOCUMENT,
  scanFromDocument,
  scanMembersPath,
  scanPath,
  scansPath,
  type Scan,
  type ScanCounts,
  type ScanPublishing,
} from '#domain/scans.ts'
import { serviceById } from '#domain/services.ts'
import { catalogueEntryFromDocument, servicePath } from '#domain/service-catalogue.ts'
import { AGGREGATE_WRITE_INTERVAL_MS, aggregatePacer, type AggregatePacer, type ScanStep } from '#domain/stats-ledger.ts'
import { storedTimes } from '#domain/stored.ts'
import { templatePath } from '#domain/template-library.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, type FindingWrite } from '../reports/finding-store.ts'
import { queueWebhookDeliveries, readWebhookTargets } from '../webhooks/queue.ts'
import { notifyCompany } from '../reports/notify.ts'
import { foldPaced } from '../reports/stats-fold.ts'
import { scanImporter } from './import-caller.ts'

/** Findings written per transaction: each writes the finding, its history and its occurrence. */
const STEP_FINDINGS = 120
/** Draft findings (and assets) per page: one members document each. */
const DRAFT_PAGE = SCAN_MEMBERS_PER_DOCUMENT
/** The service's findings (and assets) looked through per page for those the scan missed. */
const CURRENT_PAGE = 1_000
/** Asset writes per transaction. */
const ASSET_WRITES = 450
/** Ids per getAll outside a transaction. */
const READ_IDS = 300

/** How long one call works before it answers with its progress (a browser's call waits 70 s). */
export const PUBLISH_CALL_BUDGET_MS = 40_000
/** A lease outlives its call's budget by this much: a call that died is taken over after it. */
const LEASE_MARGIN_MS = 30_000
/** A call that finds another at work waits this long before answering with the progress. */
const BUSY_WAIT_MS = 3_000
/** Between the database's clock and ours. */
const CLOCK_MARGIN_MS = 100

const stored = (record: object) => storedTimes(record, Timestamp.fromMillis) as Record<string, unknown>
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The service's published scans, each with its scope key and whether it was a side scan (few: a scan a month or so). */
export async function publishedScansOf(db: Firestore, company: string, service: Scan['service']): Promise<Scan[]> {
  const published = await db.collection(scansPath(company)).where('service', '==', service).where('state', '==', 'published').get()
  return published.docs.map((d) => scanFromDocument(d.id, d.data())).filter((s): s is Scan => s !== null)
}

/** Template texts by slug, read once per call. */
function templateReader(db: Firestore) {
  const texts = new Map<string, TemplateText | null>()
  return async (slugs: readonly string[]): Promise<Map<string, TemplateText>> => {
    const missing = [...new Set(slugs)].filter((slug) => !texts.has(slug))
    for (let start = 0; start < missing.length; start += READ_IDS)
      for (const snapshot of await db.getAll(...missing.slice(start, start + READ_IDS).map((slug) => db.doc(templatePath(slug))))) {
        const data = snapshot.data()
        const strings = (value: unknown) => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [])
        texts.set(
          snapshot.id,
          data
            ? {
                title: String(data.title ?? ''),
                description: String(data.description ?? ''),
                impact: String(data.impact ?? ''),
                remediation: String(data.remediation ?? ''),
                references: strings(data.references),
                cwe: strings(data.cwe),
              }
            : null,
        )
      }
    return new Map([...texts].filter((entry): entry is [string, TemplateText] => entry[1] !== null))
  }
}

/**
 * The draft's merges: which draft findings were merged into which, the instances each root gains,
 * and which roots are false positives. Merges are an analyst's review, so this stays small whatever
 * the size of the draft.
 */
export async function draftMerges(db: Firestore, company: string, scanId: string) {
  const merged = await db.collection(draftFindingsPath(company, scanId)).where('mergedInto', '!=', null).get()
  const drafts = new Map<string, DraftFinding>()
  for (const doc of merged.docs) {
    const draft = draftFindingFromDocument(doc.id, doc.data())
    if (draft) drafts.set(draft.id, draft)
  }
  // The drafts chains end at, when not merged themselves.
  const ends = [...new Set([...drafts.values()].map((d) => d.mergedInto!))].filter((id) => !drafts.has(id))
  const roots = new Map<string, DraftFinding>()
  for (let start = 0; start < ends.length; start += READ_IDS)
    for (const snapshot of await db.getAll(
      ...ends.slice(start, start + READ_IDS).map((id) => db.doc(`${draftFindingsPath(company, scanId)}/${id}`)),
    )) {
      const draft = snapshot.exists ? draftFindingFromDocument(snapshot.id, snapshot.data()) : null
      if (draft) roots.set(draft.id, draft)
    }
  type Merged = Pick<DraftFinding, 'id' | 'mergedInto' | 'falsePositive'>
  const rootOf = (draft: Merged): Merged => {
    let current = draft
    const seen = new Set<string>()
    while (current.mergedInto && !seen.has(current.id)) {
      seen.add(current.id)
      const next = drafts.get(current.mergedInto) ?? roots.get(current.mergedInto)
      if (!next) break
      current = next
    }
    return current
  }
  const extra = new Map<string, number>()
  for (const draft of drafts.values()) {
    const root = rootOf(draft)
    if (!root.falsePositive) extra.set(root.id, (extra.get(root.id) ?? 0) + draft.instances)
  }
  return {
    /** Marked false positive, itself or the finding it was merged into: neither published nor missed. */
    dismissed: (draft: Merged) => rootOf(drafts.get(draft.id) ?? draft).falsePositive,
    instances: (draft: DraftFinding) => draft.instances + (extra.get(draft.id) ?? 0),
  }
}

/** The store's form of a planned write: the whole record for a new finding, else the fields that changed. */
function storeWrite(write: PlannedWrite): FindingWrite[] {
  const patch = write.before
    ? Object.fromEntries(
        Object.entries(write.after).filter(
          ([key, value]) => JSON.stringify(value) !== JSON.stringify(write.before![key as keyof StoredFinding]),
        ),
      )
    : write.after
  // The first change carries the patch; further history entries (seen again after a severity change) carry none.
  const [first, ...rest] = write.changes.length ? write.changes : [null]
  return [
    { id: write.id, before: write.before, patch, change: first as FindingWrite['change'] },
    ...rest.map((change) => ({ id: write.id, before: write.after, patch: {}, change: change as FindingWrite['change'] })),
  ]
}

/** Who publishes: recorded on the findings and the scan; `exceptUid` is not told of it. */
export interface Publisher {
  by: string
  name: string
  exceptUid?: string
}

export interface PublishOutcome {
  /** True when this call published it; false when it was published before, or is still being written. */
  published: boolean
  previousScanId: string | null
  counts: { total: number; new: number; persisting: number; notDetected: number; reopened: number }
  /** While it is being written: how far (call again to go on); null once published. */
  progress: { done: number; total: number } | null
}

export const publishScan = defineCallable('publishScan', { timeoutSeconds: 120, memory: '1GiB' }, async (caller, request) => {
  const db = adminDb()
  const { importer, scan } = await scanImporter(db, caller, request.company, request.scanId)
  return publishDraftScan(
    db,
    request.company,
    scan,
    { by: importer.by, name: importer.actor.name, exceptUid: caller.uid },
    { budgetMs: PUBLISH_CALL_BUDGET_MS },
  )
})

const summary = (counts: ScanCounts) => ({
  total: counts.total,
  new: counts.new,
  persisting: counts.persisting,
  notDetected: counts.notDetected,
  reopened: counts.reopened,
})

const emptyCounts = (): ScanCounts => ({ bySeverity: emptySeverityCounts(), total: 0, new: 0, persisting: 0, notDetected: 0, reopened: 0 })

class LeaseLost extends Error {}

export interface PublishOptions {
  /** How long this call works before it answers with its progress (default: until it is done). */
  budgetMs?: number
  /** The pacer of the aggregates' writes (tests give their own clock). */
  pacer?: AggregatePacer
}

/**
 * Publishes a draft scan, or goes on with its publication (the callable's work, also done for CI
 * scans whose key publishes at once).
 */
export async function publishDraftScan(
  db: Firestore,
  company: string,
  scan: Scan,
  publisher: Publisher,
  options: PublishOptions = {},
): Promise<PublishOutcome> {
  const scanId = scan.id
  if (scan.state === 'published')
    return { published: false, previousScanId: scan.previousScanId, counts: summary(scan.counts), progress: null }
  if (scan.state !== 'draft') throw new HttpsError('failed-precondition', 'Only a draft scan can be published.')
  const budget = options.budgetMs ?? Number.POSITIVE_INFINITY
  const deadline = Date.now() + budget
  const runner = randomUUID()
  const pacer = options.pacer ?? aggregatePacer()
  const scanRef = db.doc(scanPath(company, scanId))
  const progressOf = (p: ScanPublishing) => ({ done: Math.min(p.done, p.total), total: p.total })

  // A first call counts what the publication will go through, for its progress.
  let total = scan.publishing?.total ?? 0
  if (!scan.publishing || scan.publishing.step === 0) {
    const [drafts, current] = await Promise.all([
      db.collection(draftFindingsPath(company, scanId)).count().get(),
      db.collection(findingsPath(company)).where('service', '==', scan.service).count().get(),
    ])
    total = drafts.data().count + current.data().count
  }
  // The scan is one of the aggregates: a call right after another's last write waits for its second.
  const written = (await scanRef.get()).updateTime?.toMillis() ?? 0
  const wait = written + AGGREGATE_WRITE_INTERVAL_MS + CLOCK_MARGIN_MS - Date.now()
  if (wait > 0) await sleep(wait)
  const lease = await db.runTransaction(async (tx) => {
    const fresh = scanFromDocument(scanId, (await tx.get(scanRef)).data())
    if (!fresh) throw new HttpsError('not-found', 'This scan does not exist.')
    if (fresh.state !== 'draft') return { kind: 'done' as const, scan: fresh }
    const now = Date.now()
    const held = fresh.publishing
    if (held?.runner && held.runner !== runner && (held.leaseExpiresAt ?? 0) > now) return { kind: 'busy' as const, publishing: held }
    // Nothing folded yet (a first call, or one that wrote no step): the counts start from nought.
    const publishing: ScanPublishing = {
      ...(held && held.step > 0
        ? held
        : {
            counts: emptyCounts(),
            startedAt: held?.startedAt ?? now,
            phase: 'seen',
            cursor: null,
            page: 0,
            step: 0,
            done: 0,
            total,
            newSevere: 0,
          }),
      runner,
      leaseExpiresAt: Number.isFinite(budget) ? now + budget + LEASE_MARGIN_MS : now + 24 * 3_600_000,
    }
    tx.update(scanRef, { publishing: stored(publishing) })
    return { kind: 'taken' as const, publishing }
  })
  if (lease.kind === 'done') {
    if (lease.scan.state !== 'published') throw new HttpsError('failed-precondition', 'Only a draft scan can be published.')
    return { published: false, previousScanId: lease.scan.previousScanId, counts: summary(lease.scan.counts), progress: null }
  }
  if (lease.kind === 'busy') {
    await sleep(BUSY_WAIT_MS)
    return { published: false, previousScanId: null, counts: summary(lease.publishing.counts), progress: progressOf(lease.publishing) }
  }
  pacer.wrote()

  // Steps an earlier call wrote and did not fold: folded first, so the position below is the last step's.
  let state = (await foldPaced(db, company, pacer)).publishing.get(scanId) ?? lease.publishing
  const now = state.startedAt
  const [published, catalogue, merges] = await Promise.all([
    publishedScansOf(db, company, scan.service),
    db.doc(servicePath(scan.service)).get(),
    draftMerges(db, company, scanId),
  ])
  // The service catalogue's remediation targets start each new finding's clock.
  const { sla } = catalogueEntryFromDocument(scan.service, catalogue.data())
  const templates = templateReader(db)
  // Only what a published scan of this scope saw last is this scan's to miss: a side scan of one host
  // closes nothing its scope's earlier scans did not see (decision 0045).
  const { previous, sameScope, side } = publicationScope(scan, published)
  const scopeScans = new Set(sameScope.map((s) => s.id))
  const inScope = (finding: Pick<StoredFinding, 'lastSeenScanId'>) => scopeScans.has(finding.lastSeenScanId)

  let step = state.step
  /** The step transaction's first read: this call still holds the publication. */
  const holdLease = async (tx: Transaction) => {
    const fresh = scanFromDocument(scanId, (await tx.get(scanRef)).data())
    if (fresh?.state !== 'draft' || fresh.publishing?.runner !== runner) throw new LeaseLost()
  }
  const scanStep = (position: Pick<ScanStep, 'phase' | 'cursor' | 'page'>, counts = emptyCounts(), done = 0, newSevere = 0): ScanStep => ({
    id: scanId,
    step: step++,
    counts,
    done,
    newSevere,
    ...position,
  })
  /** After each step: a fold, when the aggregates may be written again. */
  const stepped = async () => {
    if (pacer.due()) state = (await foldPaced(db, company, pacer)).publishing.get(scanId) ?? state
  }
  /** A step that only moves the position (and adds what it went through). */
  const move = async (position: Pick<ScanStep, 'phase' | 'cursor' | 'page'>, done = 0, writes: (tx: Transaction) => void = () => {}) => {
    await db.runTransaction(async (tx) => {
      await holdLease(tx)
      writes(tx)
      await applyFindingChanges(db, tx, {
        company,
        updatedBy: publisher.by,
        findings: [],
        ledger: { scan: scanStep(position, emptyCounts(), done) },
      })
    })
    await stepped()
  }
  let position = { phase: state.phase, cursor: state.cursor, page: state.page }

  try {
    while (position.phase !== 'finish' && Date.now() < deadline) {
      if (position.phase === 'seen') position = await seenPage()
      else if (position.phase === 'missed') position = await missedPage()
      else if (position.phase === 'assets') position = await assetsPage()
      else position = await gonePage()
    }
    if (position.phase === 'finish' && Date.now() < deadline) {
      const figures = await scanFigures()
      const label = serviceById(scan.service)?.label ?? scan.service
      let finalCounts: ScanCounts | null = null
      let newSevere = 0
      // Read before the fold's transaction, whose reads come first; a publication finishes once.
      const webhookTargets = await readWebhookTargets(db, company)
      const outcome = await foldPaced(db, company, pacer, {
        finish: {
          scanId,
          write: (tx, publishing) => {
            if (publishing.runner !== runner) throw new LeaseLost()
            finalCounts = publishing.counts
            newSevere = publishing.newSevere
            tx.set(
              db.collection(companyActivityPath(company)).doc(),
              stored({
                type: 'scan_published',
                service: scan.service,
                summary: `${scan.title} published: ${publishing.counts.new} new, ${publishing.counts.notDetected} not detected`,
                count: publishing.counts.total,
                scanId,
                findingId: null,
                retestId: null,
                at: Date.now(),
                byName: publisher.name,
              }),
            )
            queueWebhookDeliveries(db, tx, company, webhookTargets, [
              { type: 'scan.published', at: Date.now(), data: { service: scan.service, scanId } },
            ])
            tx.update(scanRef, {
              state: 'published',
              publishedAt: Timestamp.fromMillis(Date.now()),
              publishedBy: publisher.by,
              previousScanId: previous?.id ?? null,
              side,
              counts: publishing.counts,
              stats: figures,
              publishing: FieldValue.delete(),
              updatedAt: FieldValue.serverTimestamp(),
              updatedBy: publisher.by,
            })
          },
        },
      })
      if (outcome.finished && finalCounts) {
        await notifyPublished(db, company, scan, publisher, label, finalCounts, newSevere)
        return { published: true, previousScanId: previous?.id ?? null, counts: summary(finalCounts), progress: null }
      }
    }
    // Out of time: what this call wrote is folded, and the lease let go for the next call.
    state = (await foldPaced(db, company, pacer, { release: { scanId, runner } })).publishing.get(scanId) ?? state
    return { published: false, previousScanId: null, counts: summary(state.counts), progress: progressOf(state) }
  } catch (error) {
    if (!(error instanceof LeaseLost)) throw error
    const fresh = scanFromDocument(scanId, (await scanRef.get()).data())
    if (fresh?.state === 'published')
      return { published: false, previousScanId: fresh.previousScanId, counts: summary(fresh.counts), progress: null }
    const at = fresh?.publishing ?? state
    return { published: false, previousScanId: null, counts: summary(at.counts), progress: progressOf(at) }
  }

  /** The next page of the draft's findings: new ones and ones seen again, and the page's members. */
  async function seenPage(): Promise<typeof position> {
    let query = db.collection(draftFindingsPath(company, scanId)).orderBy(FieldPath.documentId()).limit(DRAFT_PAGE)
    if (position.cursor) query = query.startAfter(position.cursor)
    const page = (await query.get()).docs.map((d) => draftFindingFromDocument(d.id, d.data())).filter((d) => d !== null)
    if (page.length === 0) {
      const next = { phase: 'missed' as const, cursor: null, page: 0 }
      await move(next)
      return next
    }
    const texts = await templates(page.flatMap((d) => (d.templateSlug ? [d.templateSlug] : [])))
    const { observed } = draftPublication(page, texts)
    const drafted = new Map(page.map((d) => [d.id, d]))
    const next = { phase: 'seen' as const, cursor: page.at(-1)!.id, page: position.page + 1 }
    const slices: ObservedFinding[][] = []
    for (let start = 0; start < observed.length; start += STEP_FINDINGS) slices.push(observed.slice(start, start + STEP_FINDINGS))
    if (slices.length === 0) slices.push([])
    for (const [n, slice] of slices.entries()) {
      const last = n === slices.length - 1
      await db.runTransaction(async (tx) => {
        await holdLease(tx)
        const snapshots = slice.length ? await tx.getAll(...slice.map((o) => db.doc(findingPath(company, o.fingerprint)))) : []
        const current = new Map<string, StoredFinding>()
        const done = new Set<string>()
        for (const snapshot of snapshots) {
          const finding = snapshot.exists ? findingFromDocument(snapshot.id, snapshot.data()) : null
          if (!finding || finding.service !== scan.service) continue
          // Written by this publication already (a step whose call stopped before it moved on).
          if (finding.lastSeenScanId === scanId) done.add(finding.id)
          else current.set(finding.id, finding)
        }
        const plan = planScanPublication({
          scan: { id: scanId, service: scan.service, startedAt: scan.startedAt },
          observed: slice.filter((o) => !done.has(o.fingerprint)),
          current,
          policy: sla,
          now,
          by: publisher.by,
        })
        const newSevere = plan.writes.filter(
          (w) => w.before === null && (w.after.severity === 'critical' || w.after.severity === 'high'),
        ).length
        await applyFindingChanges(db, tx, {
          company,
          updatedBy: publisher.by,
          findings: plan.writes.flatMap(storeWrite),
          ledger: { scan: scanStep(last ? next : position, plan.counts, last ? page.length : 0, newSevere) },
        })
        for (const occurrence of plan.occurrences) {
          const draft = drafted.get(occurrence.findingId)
          tx.set(
            db.doc(occurrencePath(company, occurrence.findingId, scanId)),
            stored({
              ...occurrence,
              instances: draft ? merges.instances(draft) : 1,
              request: draft?.request ?? '',
              response: draft?.response ?? '',
              raw: draft?.raw ?? '{}',
            }),
          )
        }
        if (last)
          tx.set(db.doc(`${scanMembersPath(company, scanId)}/${position.page}`), {
            findings: observed.map((o) => ({ id: o.fingerprint, severity: o.severity })),
            assets: [],
          })
      })
      await stepped()
    }
    return next
  }

  /** The next page of the service's findings: those in the scan's scope it did not see become not detected. */
  async function missedPage(): Promise<typeof position> {
    let query = db
      .collection(findingsPath(company))
      .where('service', '==', scan.service)
      .orderBy(FieldPath.documentId())
      .limit(CURRENT_PAGE)
    if (position.cursor) query = query.startAfter(position.cursor)
    const docs = (await query.get()).docs
    if (docs.length === 0) {
      const next = { phase: 'assets' as const, cursor: null, page: 0 }
      await move(next)
      return next
    }
    const missed = (finding: Finding | null): finding is Finding =>
      finding !== null && finding.service === scan.service && finding.lastSeenScanId !== scanId && inScope(finding)
    let candidates = docs.map((d) => findingFromDocument(d.id, d.data())).filter(missed)
    // Dismissed in the draft (a false positive): not this scan's to miss.
    const dismissed = new Set<string>()
    for (let start = 0; start < candidates.length; start += READ_IDS)
      for (const snapshot of await db.getAll(
        ...candidates.slice(start, start + READ_IDS).map((f) => db.doc(`${draftFindingsPath(company, scanId)}/${f.id}`)),
      )) {
        const draft = snapshot.exists ? draftFindingFromDocument(snapshot.id, snapshot.data()) : null
        if (draft && merges.dismissed(draft)) dismissed.add(draft.id)
      }
    candidates = candidates.filter((f) => !dismissed.has(f.id))
    const end = { phase: 'missed' as const, cursor: docs.at(-1)!.id, page: 0 }
    // Progress: the findings this publication made are not among those it set out to go through.
    const through = docs.filter((d) => d.get('firstSeenScanId') !== scanId).length
    if (candidates.length === 0) {
      await move(end, through)
      return end
    }
    for (let start = 0; start < candidates.length; start += STEP_FINDINGS) {
      const slice = candidates.slice(start, start + STEP_FINDINGS)
      const last = start + STEP_FINDINGS >= candidates.length
      const at = last ? end : { phase: 'missed' as const, cursor: slice.at(-1)!.id, page: 0 }
      await db.runTransaction(async (tx) => {
        await holdLease(tx)
        const snapshots = await tx.getAll(...slice.map((f) => db.doc(findingPath(company, f.id))))
        const current = new Map<string, StoredFinding>()
        for (const snapshot of snapshots) {
          const finding = snapshot.exists ? findingFromDocument(snapshot.id, snapshot.data()) : null
          if (missed(finding)) current.set(finding.id, finding)
        }
        const plan = planScanPublication({
          scan: { id: scanId, service: scan.service, startedAt: scan.startedAt },
          observed: [],
          current,
          policy: sla,
          now,
          by: publisher.by,
        })
        await applyFindingChanges(db, tx, {
          company,
          updatedBy: publisher.by,
          findings: plan.writes.flatMap(storeWrite),
          ledger: { scan: scanStep(at, plan.counts, last ? through : 0) },
        })
      })
      await stepped()
    }
    return end
  }

  /** The next page of the draft's assets: kept up to date, and the page's members. */
  async function assetsPage(): Promise<typeof position> {
    let query = db.collection(draftAssetsPath(company, scanId)).orderBy(FieldPath.documentId()).limit(DRAFT_PAGE)
    if (position.cursor) query = query.startAfter(position.cursor)
    const page = (await query.get()).docs.map((d) => draftAssetFromDocument(d.id, d.data())).filter((a) => a !== null)
    if (page.length === 0) {
      const next = { phase: 'gone' as const, cursor: null, page: 0 }
      await move(next)
      return next
    }
    const current = new Map<string, ReturnType<typeof assetFromDocument>>()
    for (let start = 0; start < page.length; start += READ_IDS)
      for (const snapshot of await db.getAll(...page.slice(start, start + READ_IDS).map((a) => db.doc(assetPath(company, a.id)))))
        current.set(snapshot.id, snapshot.exists ? assetFromDocument(snapshot.id, snapshot.data()) : null)
    // Set whole, so writing them again (a call that stopped mid-page) changes nothing.
    const writes: [DocumentReference, Record<string, unknown>][] = page.map((a) => [
      db.doc(assetPath(company, a.id)),
      stored(seenAsset(scan.service, a, current.get(a.id) ?? null, scanId, scan.startedAt)),
    ])
    for (let start = 0; start + ASSET_WRITES < writes.length; start += ASSET_WRITES) {
      const batch = db.batch()
      for (const [ref, data] of writes.slice(start, start + ASSET_WRITES)) batch.set(ref, data)
      await batch.commit()
    }
    const next = { phase: 'assets' as const, cursor: page.at(-1)!.id, page: position.page + 1 }
    const rest = writes.slice(Math.max(0, Math.ceil(writes.length / ASSET_WRITES) - 1) * ASSET_WRITES)
    await move(next, 0, (tx) => {
      for (const [ref, data] of rest) tx.set(ref, data)
      tx.set(db.doc(`${scanMembersPath(company, scanId)}/assets-${String(position.page).padStart(5, '0')}`), {
        findings: [],
        assets: page.map((a) => ({ id: a.id, label: a.value, ports: a.ports.map((p) => p.port) })),
      })
    })
    return next
  }

  /** The next page of the service's assets: active ones in scope the scan did not see are gone. */
  async function gonePage(): Promise<typeof position> {
    const sawAssets = !(await db.collection(draftAssetsPath(company, scanId)).limit(1).get()).empty
    let query = db.collection(assetsPath(company)).where('service', '==', scan.service).orderBy(FieldPath.documentId()).limit(CURRENT_PAGE)
    if (position.cursor) query = query.startAfter(position.cursor)
    const docs = sawAssets ? (await query.get()).docs : []
    if (docs.length === 0) {
      const next = { phase: 'finish' as const, cursor: null, page: 0 }
      await move(next)
      return next
    }
    const gone = docs
      .map((d) => assetFromDocument(d.id, d.data()))
      .filter((a) => a !== null && a.status === 'active' && a.lastSeenScanId !== scanId && inScope(a))
      .map((a) => db.doc(assetPath(company, a!.id)))
    for (let start = 0; start < gone.length; start += ASSET_WRITES) {
      const batch = db.batch()
      for (const ref of gone.slice(start, start + ASSET_WRITES)) batch.set(ref, { status: 'gone' }, { merge: true })
      await batch.commit()
    }
    const next = { phase: 'gone' as const, cursor: docs.at(-1)!.id, page: 0 }
    await move(next)
    return next
  }

  /**
   * The scan's figures, folded from the draft read page by page (only the fields they need): the
   * call keeps the figures, never the draft's findings or assets.
   */
  async function scanFigures() {
    const figures = importStatsAccumulator(scan.service, scan.startedAt)
    let cursor: string | null = null
    for (;;) {
      let query = db
        .collection(draftFindingsPath(company, scanId))
        .select('severity', 'asset', 'cwe', 'tags', 'location', 'mergedInto', 'falsePositive', 'templateSlug')
        .orderBy(FieldPath.documentId())
        .limit(DRAFT_PAGE * 5)
      if (cursor) query = query.startAfter(cursor)
      const docs = (await query.get()).docs
      if (docs.length === 0) break
      cursor = docs.at(-1)!.id
      const texts = await templates(
        docs.flatMap((d) => (typeof d.get('templateSlug') === 'string' ? [d.get('templateSlug') as string] : [])),
      )
      const strings = (value: unknown) => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [])
      figures.add(
        docs.flatMap((doc): StatsFinding[] => {
          const data = doc.data()
          if (data.mergedInto || data.falsePositive) return []
          const template = typeof data.templateSlug === 'string' ? texts.get(data.templateSlug) : undefined
          return [
            {
              severity: data.severity,
              asset: String(data.asset ?? ''),
              cwe: [...new Set([...strings(data.cwe), ...(template?.cwe ?? [])])],
              tags: strings(data.tags),
              location: typeof data.location === 'object' && data.location ? data.location : {},
            },
          ]
        }),
      )
    }
    cursor = null
    for (;;) {
      let query = db.collection(draftAssetsPath(company, scanId)).orderBy(FieldPath.documentId()).limit(DRAFT_PAGE)
      if (cursor) query = query.startAfter(cursor)
      const docs = (await query.get()).docs
      if (docs.length === 0) break
      cursor = docs.at(-1)!.id
      figures.addAssets(
        docs.flatMap((doc) => {
          const asset = draftAssetFromDocument(doc.id, doc.data())
          return asset
            ? [{ ...asset, parent: asset.parent ?? undefined, cloud: asset.cloud ?? undefined, account: asset.account ?? undefined }]
            : []
        }),
      )
    }
    return figures.result(scan.stats.service === 'cloud' || scan.stats.service === 'password_cracking' ? scan.stats : undefined)
  }
}

async function notifyPublished(
  db: Firestore,
  company: string,
  scan: Scan,
  publisher: Publisher,
  label: string,
  counts: ScanCounts,
  newSevere: number,
) {
  try {
    await notifyCompany(db, {
      company,
      service: scan.service,
      type: 'scan_published',
      title: `${label}: ${scan.title} published`,
      body: `${counts.total} findings: ${counts.new} new, ${counts.persisting} persisting, ${counts.notDetected} not detected, ${counts.reopened} reopened.`,
      link: reportLink(scan.service, { scan: scan.id }),
      exceptUid: publisher.exceptUid,
    })
    if (newSevere > 0)
      await notifyCompany(db, {
        company,
        service: scan.service,
        type: 'new_critical_or_high',
        title: `${label}: ${newSevere} new critical or high ${newSevere === 1 ? 'finding' : 'findings'}`,
        body: `${scan.title} found ${newSevere} new critical or high ${newSevere === 1 ? 'finding' : 'findings'}.`,
        // The scan, its open critical and high findings listed.
        link: reportLink(scan.service, { scan: scan.id, severity: ['critical', 'high'] }),
        exceptUid: publisher.exceptUid,
      })
  } catch (error) {
    logger.error('publishScan: notifying failed', { error: error instanceof Error ? error.message : String(error) })
  }
}
