// Two comparable scans side by side (decision 0016): which findings are new, still there, no
// longer seen or back after an absence, which changed severity, and for asset services which
// assets and ports came and went. Pure: reads the scans' members only, never the findings, except
// for when each finding was first seen (to tell a re-found issue from a new one).
import type { Scan, ScanMembers } from './scans.ts'
import type { Severity } from './template-vocabulary.ts'

export interface ComparedFinding {
  id: string
  severity: Severity
}

export interface SeverityChange {
  id: string
  from: Severity
  to: Severity
}

export interface ComparedAsset {
  id: string
  label: string
}

export interface PortChange {
  assetId: string
  label: string
  port: number
}

export interface ScanComparison {
  baseScanId: string
  targetScanId: string
  /** In the target, not in the base, and never seen before the base started. */
  new: ComparedFinding[]
  /** In both (with the target's severity). */
  persisting: ComparedFinding[]
  /** In the base, not in the target (with the base's severity). */
  notDetected: ComparedFinding[]
  /** In the target, not in the base, but first seen before the base started: back after an absence. */
  reopened: ComparedFinding[]
  /** In both, with another severity in the target. */
  severityChanged: SeverityChange[]
  assetsNew: ComparedAsset[]
  assetsGone: ComparedAsset[]
  /** Ports open in the target that the base did not see open on the same asset (new assets included). */
  portsOpened: PortChange[]
  /** Ports open in the base that the target did not see open (gone assets included). */
  portsClosed: PortChange[]
}

export interface ComparedScan {
  scan: Pick<Scan, 'id' | 'startedAt'>
  members: ScanMembers
}

/** Two scans compare when they ran the same service against the same scope. */
export const comparable = (a: Pick<Scan, 'service' | 'scopeKey'>, b: Pick<Scan, 'service' | 'scopeKey'>) =>
  a.service === b.service && a.scopeKey === b.scopeKey

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
const byAssetPort = (a: PortChange, b: PortChange) => (a.assetId === b.assetId ? a.port - b.port : a.assetId < b.assetId ? -1 : 1)

/**
 * The findings whose first-seen time decides between new and reopened: in the target, not in the
 * base. A reader of a comparison looks up these only, not every finding of either scan.
 */
export function reopenCandidates(base: Pick<ScanMembers, 'findings'>, target: Pick<ScanMembers, 'findings'>): string[] {
  const before = new Set(base.findings.map((f) => f.id))
  return [...new Set(target.findings.map((f) => f.id).filter((id) => !before.has(id)))].sort()
}

/**
 * What changed from `base` to `target` (usually the earlier and the later scan). `firstSeenAt`
 * maps finding ids to when they were first seen; without it nothing counts as reopened.
 */
export function compareScans(base: ComparedScan, target: ComparedScan, firstSeenAt?: ReadonlyMap<string, number>): ScanComparison {
  const baseFindings = new Map(base.members.findings.map((f) => [f.id, f.severity]))
  const targetFindings = new Map(target.members.findings.map((f) => [f.id, f.severity]))

  const fresh: ComparedFinding[] = []
  const persisting: ComparedFinding[] = []
  const reopened: ComparedFinding[] = []
  const severityChanged: SeverityChange[] = []
  for (const [id, severity] of targetFindings) {
    const before = baseFindings.get(id)
    if (before !== undefined) {
      persisting.push({ id, severity })
      if (before !== severity) severityChanged.push({ id, from: before, to: severity })
      continue
    }
    const first = firstSeenAt?.get(id)
    if (first !== undefined && first < base.scan.startedAt) reopened.push({ id, severity })
    else fresh.push({ id, severity })
  }
  const notDetected: ComparedFinding[] = []
  for (const [id, severity] of baseFindings) if (!targetFindings.has(id)) notDetected.push({ id, severity })

  const baseAssets = new Map(base.members.assets.map((a) => [a.id, a]))
  const targetAssets = new Map(target.members.assets.map((a) => [a.id, a]))
  const assetsNew: ComparedAsset[] = []
  const assetsGone: ComparedAsset[] = []
  const portsOpened: PortChange[] = []
  const portsClosed: PortChange[] = []
  for (const [id, asset] of targetAssets) {
    const before = baseAssets.get(id)
    if (!before) assetsNew.push({ id, label: asset.label })
    const known = new Set(before?.ports ?? [])
    for (const port of new Set(asset.ports)) if (!known.has(port)) portsOpened.push({ assetId: id, label: asset.label, port })
  }
  for (const [id, asset] of baseAssets) {
    const after = targetAssets.get(id)
    if (!after) assetsGone.push({ id, label: asset.label })
    const still = new Set(after?.ports ?? [])
    for (const port of new Set(asset.ports)) if (!still.has(port)) portsClosed.push({ assetId: id, label: asset.label, port })
  }

  return {
    baseScanId: base.scan.id,
    targetScanId: target.scan.id,
    new: fresh.sort(byId),
    persisting: persisting.sort(byId),
    notDetected: notDetected.sort(byId),
    reopened: reopened.sort(byId),
    severityChanged: severityChanged.sort(byId),
    assetsNew: assetsNew.sort(byId),
    assetsGone: assetsGone.sort(byId),
    portsOpened: portsOpened.sort(byAssetPort),
    portsClosed: portsClosed.sort(byAssetPort),
  }
}
