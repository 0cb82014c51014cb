// publishScan: the reviewed draft becomes what the client sees, live. The plan (scan-publication.ts)
// compares the draft with the company's findings of the service; it is written in batches, each
// one transaction through the finding store (findings, history, counters, months), then the scan
// flips to published with its counts and figures, and the company is told. Publishing again, or
// after a batch failed, replans from what is stored: findings already carrying this scan are done.
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import * as logger from 'firebase-functions/logger'
import { assetFromDocument, assetPath, assetsPath, type Asset } from '#domain/assets.ts'
import { findingFromDocument, findingsPath, occurrencePath, type StoredFinding } from '#domain/findings.ts'
import { draftAssetFromDocument, draftAssetsPath, draftFindingFromDocument, draftFindingsPath } from '#domain/scan-drafts.ts'
import { draftPublication, seenAsset, type TemplateText } from '#domain/scan-import/draft-publication.ts'
import { importStats } from '#domain/scan-import/import-stats.ts'
import { planScanPublication, type FindingWrite as PlannedWrite } from '#domain/scan-publication.ts'
import { scanFromDocument, scanMembersPath, scanPath, scansPath, type Scan, type ScanCounts } from '#domain/scans.ts'
import { serviceById } from '#domain/services.ts'
import { catalogueEntryFromDocument, servicePath } from '#domain/service-catalogue.ts'
import { storedTimes } from '#domain/stored.ts'
import { templatePath } from '#domain/template-library.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { applyFindingChanges, type FindingWrite } from '../reports/finding-store.ts'
import { notifyCompany } from '../reports/notify.ts'
import { scanImporter } from './import-caller.ts'

/** Findings written per transaction: each writes the finding, its history and its occurrence. */
const FINDINGS_PER_TRANSACTION = 120
const BATCH_WRITES = 450

const stored = (record: object) => storedTimes(record, Timestamp.fromMillis) as Record<string, unknown>

/** The service's published scans: the previous comparable one, and the scope each scan covered. */
async function publishedScans(db: Firestore, company: string, scan: Scan): Promise<{ previous: Scan | null; scopes: Map<string, string> }> {
  const published = await db.collection(scansPath(company)).where('service', '==', scan.service).where('state', '==', 'published').get()
  const scans = published.docs.map((d) => scanFromDocument(d.id, d.data())).filter((s): s is Scan => s !== null && s.id !== scan.id)
  const previous =
    scans.filter((s) => s.scopeKey === scan.scopeKey && s.startedAt <= scan.startedAt).sort((a, b) => b.startedAt - a.startedAt)[0] ?? null
  return { previous, scopes: new Map(scans.map((s) => [s.id, s.scopeKey])) }
}

async function templateTexts(db: Firestore, slugs: readonly string[]): Promise<Map<string, TemplateText>> {
  const texts = new Map<string, TemplateText>()
  const unique = [...new Set(slugs)]
  if (unique.length === 0) return texts
  for (const snapshot of await db.getAll(...unique.map((slug) => db.doc(templatePath(slug))))) {
    const data = snapshot.data()
    if (!data) continue
    const strings = (value: unknown) => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [])
    texts.set(snapshot.id, {
      title: String(data.title ?? ''),
      description: String(data.description ?? ''),
      impact: String(data.impact ?? ''),
      remediation: String(data.remediation ?? ''),
      references: strings(data.references),
      cwe: strings(data.cwe),
    })
  }
  return texts
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

export const publishScan = defineCallable('publishScan', { timeoutSeconds: 540, memory: '1GiB' }, async (caller, request) => {
  const db = adminDb()
  const { importer, scan } = await scanImporter(db, caller, request.company, request.scanId)
  return publishDraftScan(db, request.company, scan, { by: importer.by, name: importer.actor.name, exceptUid: caller.uid })
})

/** Publishes a draft scan (the callable's work, also done for CI scans whose key publishes at once). */
export async function publishDraftScan(db: Firestore, company: string, scan: Scan, publisher: Publisher) {
  const scanId = scan.id
  const summary = (counts: ScanCounts) => ({
    total: counts.total,
    new: counts.new,
    persisting: counts.persisting,
    notDetected: counts.notDetected,
    reopened: counts.reopened,
  })
  if (scan.state === 'published') return { published: false, previousScanId: scan.previousScanId, counts: summary(scan.counts) }
  if (scan.state !== 'draft') throw new HttpsError('failed-precondition', 'Only a draft scan can be published.')

  const [draftSnapshots, assetSnapshots, currentSnapshots, currentAssetSnapshots, { previous, scopes }] = await Promise.all([
    db.collection(draftFindingsPath(company, scanId)).get(),
    db.collection(draftAssetsPath(company, scanId)).get(),
    db.collection(findingsPath(company)).where('service', '==', scan.service).get(),
    db.collection(assetsPath(company)).where('service', '==', scan.service).get(),
    publishedScans(db, company, scan),
  ])
  const drafts = draftSnapshots.docs.map((d) => draftFindingFromDocument(d.id, d.data())).filter((d) => d !== null)
  const draftAssets = assetSnapshots.docs.map((d) => draftAssetFromDocument(d.id, d.data())).filter((d) => d !== null)
  const templates = await templateTexts(
    db,
    drafts.flatMap((d) => (d.templateSlug ? [d.templateSlug] : [])),
  )
  const { observed, dismissed, instances } = draftPublication(drafts, templates)

  // Findings this scan already wrote (an earlier attempt) and those it dismissed are left alone.
  const current = new Map<string, StoredFinding>()
  const done = new Set<string>()
  for (const snapshot of currentSnapshots.docs) {
    const finding = findingFromDocument(snapshot.id, snapshot.data())
    if (!finding) continue
    if (finding.lastSeenScanId === scanId) done.add(finding.id)
    else if (!dismissed.has(finding.id)) current.set(finding.id, finding)
  }

  const now = Date.now()
  // The service catalogue's remediation targets start each new finding's clock.
  const { sla } = catalogueEntryFromDocument(scan.service, (await db.doc(servicePath(scan.service)).get()).data())
  const plan = planScanPublication({
    scan: { id: scanId, service: scan.service, startedAt: scan.startedAt },
    observed: observed.filter((o) => !done.has(o.fingerprint)),
    current,
    // A finding another scope's scan saw last is not this scan's to miss.
    inScope: (finding) => (scopes.get(finding.lastSeenScanId) ?? scan.scopeKey) === scan.scopeKey,
    assets: draftAssets.map((a) => ({ id: a.id, label: a.value, ports: a.ports.map((p) => p.port) })),
    policy: sla,
    now,
    by: publisher.by,
  })
  // A retry keeps the counts of the first attempt, which saw every finding before any was written.
  const counts = scan.publishing?.counts ?? plan.counts
  if (!scan.publishing) await db.doc(scanPath(company, scanId)).update({ publishing: { counts, startedAt: Timestamp.fromMillis(now) } })

  const occurrences = new Map(plan.occurrences.map((o) => [o.findingId, o]))
  const drafted = new Map(drafts.map((d) => [d.id, d]))
  for (let start = 0; start < plan.writes.length; start += FINDINGS_PER_TRANSACTION) {
    const slice = plan.writes.slice(start, start + FINDINGS_PER_TRANSACTION)
    await db.runTransaction(async (tx) => {
      await applyFindingChanges(db, tx, { company, updatedBy: publisher.by, findings: slice.flatMap(storeWrite) })
      for (const write of slice) {
        const occurrence = occurrences.get(write.id)
        if (!occurrence) continue
        const draft = drafted.get(write.id)
        tx.set(
          db.doc(occurrencePath(company, write.id, scanId)),
          stored({
            ...occurrence,
            instances: instances.get(write.id) ?? 1,
            request: draft?.request ?? '',
            response: draft?.response ?? '',
            raw: draft?.raw ?? '{}',
          }),
        )
      }
    })
  }

  // Assets and the scan's members: set whole, so writing them again changes nothing.
  const currentAssets = new Map<string, Asset>()
  for (const snapshot of currentAssetSnapshots.docs) {
    const asset = assetFromDocument(snapshot.id, snapshot.data())
    if (asset) currentAssets.set(asset.id, asset)
  }
  const seen = new Set(draftAssets.map((a) => a.id))
  const writes: [string, Record<string, unknown>, boolean][] = [
    ...draftAssets.map((a): [string, Record<string, unknown>, boolean] => [
      assetPath(company, a.id),
      stored(seenAsset(scan.service, a, currentAssets.get(a.id) ?? null, scanId, scan.startedAt)),
      false,
    ]),
    ...[...currentAssets.values()]
      .filter(
        (a) =>
          a.status === 'active' &&
          !seen.has(a.id) &&
          draftAssets.length > 0 &&
          (scopes.get(a.lastSeenScanId) ?? scan.scopeKey) === scan.scopeKey,
      )
      .map((a): [string, Record<string, unknown>, boolean] => [assetPath(company, a.id), { status: 'gone' }, true]),
    ...plan.members.map((members, n): [string, Record<string, unknown>, boolean] => [
      `${scanMembersPath(company, scanId)}/${n}`,
      members,
      false,
    ]),
  ]
  for (let start = 0; start < writes.length; start += BATCH_WRITES) {
    const batch = db.batch()
    for (const [path, data, merge] of writes.slice(start, start + BATCH_WRITES)) batch.set(db.doc(path), data, { merge })
    await batch.commit()
  }

  const published = observed.map((o) => ({
    severity: o.severity,
    asset: o.asset,
    cwe: o.cwe ?? [],
    tags: o.tags ?? [],
    location: o.location ?? {},
  }))
  const parsedStats = scan.stats.service === 'cloud' || scan.stats.service === 'password_cracking' ? scan.stats : undefined
  const newSevere = plan.writes.filter((w) => w.before === null && (w.after.severity === 'critical' || w.after.severity === 'high')).length
  const label = serviceById(scan.service)?.label ?? scan.service
  const flipped = await db.runTransaction(async (tx) => {
    const ref = db.doc(scanPath(company, scanId))
    const fresh = scanFromDocument(scanId, (await tx.get(ref)).data())
    if (!fresh || fresh.state !== 'draft') return false
    await applyFindingChanges(db, tx, {
      company,
      updatedBy: publisher.by,
      findings: [],
      activity: [
        {
          type: 'scan_published',
          service: scan.service,
          summary: `${scan.title} published: ${counts.new} new, ${counts.notDetected} not detected`,
          count: counts.total,
          scanId,
          at: now,
          byName: publisher.name,
        },
      ],
    })
    tx.update(ref, {
      state: 'published',
      publishedAt: Timestamp.fromMillis(now),
      publishedBy: publisher.by,
      previousScanId: previous?.id ?? null,
      counts,
      stats: importStats(
        scan.service,
        published,
        draftAssets.map((a) => ({
          ...a,
          parent: a.parent ?? undefined,
          cloud: a.cloud ?? undefined,
          account: a.account ?? undefined,
          notAfter: a.notAfter,
        })),
        scan.startedAt,
        parsedStats,
      ),
      publishing: FieldValue.delete(),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: publisher.by,
    })
    return true
  })

  if (flipped) {
    try {
      await notifyCompany(db, {
        company,
        service: scan.service,
        type: 'scan_published',
        title: `${label}: ${scan.title} published`,
        body: `${counts.total} findings: ${counts.new} new, ${counts.persisting} persisting, ${counts.notDetected} not detected, ${counts.reopened} reopened.`,
        link: `/reports/${scan.service}`,
        exceptUid: publisher.exceptUid,
      })
      if (newSevere > 0)
        await notifyCompany(db, {
          company,
          service: scan.service,
          type: 'new_critical_or_high',
          title: `${label}: ${newSevere} new critical or high ${newSevere === 1 ? 'finding' : 'findings'}`,
          body: `${scan.title} found ${newSevere} new critical or high ${newSevere === 1 ? 'finding' : 'findings'}.`,
          link: `/reports/${scan.service}`,
          exceptUid: publisher.exceptUid,
        })
    } catch (error) {
      logger.error('publishScan: notifying failed', { error: error instanceof Error ? error.message : String(error) })
    }
  }
  return { published: flipped, previousScanId: previous?.id ?? null, counts: summary(counts) }
}
