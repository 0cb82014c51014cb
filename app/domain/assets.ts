// companies/{slug}/assets/{id}: what a service found to exist: attack-surface domains,
// subdomains, IPs, ports, certificates and technologies; network hosts and their services;
// password-audit accounts (masked); cloud resources. Results only (never stats-only readers).
// The id is a hash of the service and the asset's key, so each scan updates the same record.
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import { ServiceIdSchema } from './services.ts'
import { TimestampSchema } from './stored.ts'

export const ASSETS_COLLECTION = 'assets'

export const assetsPath = (company: string) => `${companyPath(company)}/${ASSETS_COLLECTION}`
export const assetPath = (company: string, id: string) => `${assetsPath(company)}/${id}`

export const ASSET_TYPES = ['domain', 'subdomain', 'ip', 'host', 'certificate', 'account', 'cloud_resource'] as const
export type AssetType = (typeof ASSET_TYPES)[number]

const PortSchema = v.object({
  port: v.number(),
  protocol: v.optional(v.string(), 'tcp'),
  service: v.optional(v.string(), ''),
  product: v.optional(v.string(), ''),
})

const StoredAssetSchema = v.object({
  service: ServiceIdSchema,
  type: v.picklist(ASSET_TYPES),
  /** The asset as people name it: a domain, an IP, a host, a masked account, a resource id. */
  value: v.string(),
  parent: v.optional(v.nullable(v.string()), null),
  status: v.picklist(['active', 'gone']),
  firstSeenScanId: v.string(),
  firstSeenAt: TimestampSchema,
  lastSeenScanId: v.string(),
  lastSeenAt: TimestampSchema,
  ports: v.optional(v.array(PortSchema), []),
  technologies: v.optional(v.array(v.string()), []),
  /** Certificates: when they stop being valid, and who issued them. */
  notAfter: v.optional(v.nullable(TimestampSchema), null),
  issuer: v.optional(v.string(), ''),
  /** Password audit: never the password; length, classes, pattern tags and the masked form. */
  account: v.optional(
    v.nullable(
      v.object({
        masked: v.string(),
        cracked: v.boolean(),
        length: v.optional(v.nullable(v.number()), null),
        classes: v.optional(v.array(v.string()), []),
        patterns: v.optional(v.array(v.string()), []),
        privileged: v.optional(v.boolean(), false),
        reuseCluster: v.optional(v.nullable(v.string()), null),
        reuseCount: v.optional(v.number(), 0),
      }),
    ),
    null,
  ),
  /** Cloud: where the resource lives. */
  cloud: v.optional(v.nullable(v.object({ account: v.string(), region: v.string(), cloudService: v.string() })), null),
  tags: v.optional(v.array(v.string()), []),
})

export type StoredAsset = v.InferOutput<typeof StoredAssetSchema>
export interface Asset extends StoredAsset {
  id: string
}

export function assetFromDocument(id: string, data: unknown): Asset | null {
  const parsed = v.safeParse(StoredAssetSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}
