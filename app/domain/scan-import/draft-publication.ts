// From a reviewed draft to what planScanPublication takes (scan-publication.ts): the findings to
// publish (false positives left out, merged ones folded into the finding they were merged into,
// a template's text where one is chosen, unless the analyst wrote their own) and the assets to
// keep up to date.
import type { Asset, StoredAsset } from '../assets.ts'
import type { ObservedFinding } from '../scan-publication.ts'
import type { DraftFinding, StoredDraftAsset } from '../scan-drafts.ts'
import type { ServiceId } from '../services.ts'

/** What a template gives a published finding. */
export interface TemplateText {
  title: string
  description: string
  impact: string
  remediation: string
  references: readonly string[]
  cwe: readonly string[]
}

export interface DraftPublication {
  observed: ObservedFinding[]
  /** Marked false positive: neither published nor counted as missed. */
  dismissed: Set<string>
  /** Each published finding's instances, merged ones included. */
  instances: Map<string, number>
}

/** The finding a draft finding is published as: itself, or the end of its merge chain. */
function rootOf(draft: DraftFinding, byId: ReadonlyMap<string, DraftFinding>): DraftFinding {
  let current = draft
  const seen = new Set<string>()
  while (current.mergedInto && !seen.has(current.id)) {
    seen.add(current.id)
    const next = byId.get(current.mergedInto)
    if (!next) break
    current = next
  }
  return current
}

export function draftPublication(drafts: readonly DraftFinding[], templates: ReadonlyMap<string, TemplateText>): DraftPublication {
  const byId = new Map(drafts.map((d) => [d.id, d]))
  const dismissed = new Set<string>()
  const instances = new Map<string, number>()
  for (const draft of drafts) {
    const root = rootOf(draft, byId)
    if (root.falsePositive) dismissed.add(draft.id)
    else instances.set(root.id, (instances.get(root.id) ?? 0) + draft.instances)
  }
  const observed: ObservedFinding[] = []
  for (const draft of drafts) {
    if (draft.mergedInto || draft.falsePositive) continue
    const template = draft.templateSlug ? templates.get(draft.templateSlug) : undefined
    // What the analyst wrote stands over the template's text; the template fills the rest.
    const own = new Set(draft.edited)
    const text = (field: 'description' | 'remediation') => (own.has(field) ? draft[field] : template?.[field] || draft[field])
    observed.push({
      fingerprint: draft.id,
      title: draft.title,
      severity: draft.severity,
      asset: draft.asset,
      location: draft.location,
      ...(draft.templateSlug && template ? { templateSlug: draft.templateSlug } : {}),
      ...(draft.cvss ? { cvss: draft.cvss } : {}),
      cwe: [...new Set([...draft.cwe, ...(template?.cwe ?? [])])],
      cve: draft.cve,
      tags: draft.tags,
      description: text('description'),
      impact: template?.impact ?? '',
      remediation: text('remediation'),
      references: [...new Set([...draft.references, ...(template?.references ?? [])])],
      evidence: draft.evidence,
      ...(own.size ? { rewritten: Object.fromEntries([...own].map((field) => [field, draft[field]])) } : {}),
    })
  }
  return { observed, dismissed, instances }
}

/** An asset's record after a scan that saw it (`before` null: first seen). */
export function seenAsset(service: ServiceId, draft: StoredDraftAsset, before: Asset | null, scanId: string, at: number): StoredAsset {
  return {
    service,
    type: draft.type,
    value: draft.value,
    parent: draft.parent,
    status: 'active',
    firstSeenScanId: before?.firstSeenScanId ?? scanId,
    firstSeenAt: before?.firstSeenAt ?? at,
    lastSeenScanId: scanId,
    lastSeenAt: at,
    ports: draft.ports,
    technologies: draft.technologies,
    notAfter: draft.notAfter,
    issuer: draft.issuer,
    account: draft.account,
    cloud: draft.cloud,
    tags: before?.tags ?? [],
  }
}
