// What an import put in a draft scan, for the analysts to review before the client sees anything:
// companies/{slug}/scans/{id}/draft_findings/{fingerprint} and .../draft_assets/{assetId}.
// Analysts who may import read them; only the import callables write them. Publishing turns the
// reviewed draft findings into the company's findings (scan-publication.ts).
import * as v from 'valibot'
import { scanPath } from './scans.ts'
import { TimestampSchema } from './stored.ts'
import { SEVERITIES } from './template-vocabulary.ts'
import { ASSET_TYPES } from './assets.ts'
import { FINDING_LOCATION_KEYS } from './findings.ts'
import { sha256Hex } from './fingerprints.ts'
import type { ServiceId } from './services.ts'
import { targetAsset, targetLocation } from './scan-import/observed.ts'
import type { ParsedAsset, ParsedFinding } from './scan-import/parsed-scan.ts'

export const DRAFT_FINDINGS_COLLECTION = 'draft_findings'
export const DRAFT_ASSETS_COLLECTION = 'draft_assets'

export const draftFindingsPath = (company: string, scanId: string) => `${scanPath(company, scanId)}/${DRAFT_FINDINGS_COLLECTION}`
export const draftFindingPath = (company: string, scanId: string, id: string) => `${draftFindingsPath(company, scanId)}/${id}`
export const draftAssetsPath = (company: string, scanId: string) => `${scanPath(company, scanId)}/${DRAFT_ASSETS_COLLECTION}`

/**
 * A draft scan's id: a hash of its service and the SHA-256 of each file it came from, so importing
 * the same files again finds the same draft and changes nothing.
 */
export async function draftScanId(service: ServiceId, fileHashes: readonly string[]): Promise<string> {
  const key = ['import', service, ...[...new Set(fileHashes.map((h) => h.toLowerCase()))].sort()].join('\u001f')
  return `imp-${(await sha256Hex(key)).slice(0, 24)}`
}

/** How the draft finding got its template: a rule mapping, an analyst's choice on this finding, or none yet. */
export const TEMPLATE_SOURCES = ['mapping', 'analyst', 'none'] as const

/** The text of a draft finding an analyst may rewrite; what they wrote is published over a template's. */
export const DRAFT_TEXT_FIELDS = ['title', 'description', 'remediation'] as const
export type DraftTextField = (typeof DRAFT_TEXT_FIELDS)[number]

const LocationSchema = v.partial(
  v.object(
    Object.fromEntries(FINDING_LOCATION_KEYS.map((key) => [key, v.string()])) as Record<
      (typeof FINDING_LOCATION_KEYS)[number],
      v.StringSchema<undefined>
    >,
  ),
)

export const StoredDraftFindingSchema = v.object({
  ruleId: v.string(),
  title: v.string(),
  severity: v.picklist(SEVERITIES),
  /** What the scanner said, kept when an analyst changes the severity. */
  scannerSeverity: v.picklist(SEVERITIES),
  /** An analyst chose the severity: a CVSS score set afterwards leaves it as it is. */
  severityByHand: v.optional(v.boolean(), false),
  asset: v.string(),
  location: LocationSchema,
  cvss: v.optional(v.nullable(v.object({ version: v.string(), vector: v.string(), score: v.number() })), null),
  cwe: v.optional(v.array(v.string()), []),
  cve: v.optional(v.array(v.string()), []),
  tags: v.optional(v.array(v.string()), []),
  description: v.optional(v.string(), ''),
  remediation: v.optional(v.string(), ''),
  references: v.optional(v.array(v.string()), []),
  evidence: v.optional(v.string(), ''),
  request: v.optional(v.string(), ''),
  response: v.optional(v.string(), ''),
  /** The format's other fields, as JSON. */
  raw: v.optional(v.string(), '{}'),
  templateSlug: v.optional(v.nullable(v.string()), null),
  templateSource: v.optional(v.picklist(TEMPLATE_SOURCES), 'none'),
  falsePositive: v.optional(v.boolean(), false),
  /** Merged into another draft finding of the scan: published as that one. */
  mergedInto: v.optional(v.nullable(v.string()), null),
  /** The text fields an analyst wrote: neither a template nor an import of the file again replaces them. */
  edited: v.optional(v.array(v.picklist(DRAFT_TEXT_FIELDS)), []),
  /** How many instances the import folded into this finding (the same fingerprint seen again). */
  instances: v.optional(v.number(), 1),
  sourceFile: v.optional(v.string(), ''),
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})
export type StoredDraftFinding = v.InferOutput<typeof StoredDraftFindingSchema>
export interface DraftFinding extends StoredDraftFinding {
  id: string
}

export function draftFindingFromDocument(id: string, data: unknown): DraftFinding | null {
  const parsed = v.safeParse(StoredDraftFindingSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

export const StoredDraftAssetSchema = v.object({
  type: v.picklist(ASSET_TYPES),
  value: v.string(),
  parent: v.optional(v.nullable(v.string()), null),
  ports: v.optional(
    v.array(v.object({ port: v.number(), protocol: v.string(), service: v.optional(v.string(), ''), product: v.optional(v.string(), '') })),
    [],
  ),
  technologies: v.optional(v.array(v.string()), []),
  notAfter: v.optional(v.nullable(TimestampSchema), null),
  issuer: v.optional(v.string(), ''),
  cloud: v.optional(v.nullable(v.object({ account: v.string(), region: v.string(), cloudService: v.string() })), null),
  account: v.optional(
    v.nullable(
      v.object({
        masked: v.string(),
        cracked: v.boolean(),
        length: v.nullable(v.number()),
        classes: v.array(v.string()),
        patterns: v.array(v.string()),
        privileged: v.boolean(),
        reuseCluster: v.nullable(v.string()),
        reuseCount: v.number(),
      }),
    ),
    null,
  ),
})
export type StoredDraftAsset = v.InferOutput<typeof StoredDraftAssetSchema>

export function draftAssetFromDocument(id: string, data: unknown): (StoredDraftAsset & { id: string }) | null {
  const parsed = v.safeParse(StoredDraftAssetSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

/** A draft finding as an import first writes it: the scanner's word, no review yet. */
export function draftFindingDocument(finding: ParsedFinding, sourceFile: string, by: string, now: number): StoredDraftFinding {
  return {
    ruleId: finding.ruleId,
    title: finding.title,
    severity: finding.severity,
    scannerSeverity: finding.severity,
    severityByHand: false,
    asset: targetAsset(finding.target),
    location: targetLocation(finding.target),
    cvss: finding.cvss ?? null,
    cwe: finding.cwe ?? [],
    cve: finding.cve ?? [],
    tags: finding.tags ?? [],
    description: finding.description ?? '',
    remediation: finding.remediation ?? '',
    references: finding.references ?? [],
    evidence: finding.evidence ?? '',
    request: finding.request ?? '',
    response: finding.response ?? '',
    raw: JSON.stringify(finding.raw),
    templateSlug: null,
    templateSource: 'none',
    falsePositive: false,
    mergedInto: null,
    edited: [],
    instances: 1,
    sourceFile,
    updatedAt: now,
    updatedBy: by,
  }
}

/** A draft asset as an import writes it. */
export const draftAssetDocument = (asset: ParsedAsset): StoredDraftAsset => ({
  type: asset.type,
  value: asset.value,
  parent: asset.parent ?? null,
  ports: (asset.ports ?? []).map((p) => ({ port: p.port, protocol: p.protocol, service: p.service ?? '', product: p.product ?? '' })),
  technologies: asset.technologies ?? [],
  notAfter: asset.notAfter ?? null,
  issuer: asset.issuer ?? '',
  cloud: asset.cloud ?? null,
  account: asset.account ?? null,
})
