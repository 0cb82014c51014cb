// A finding's identity (decision 0016): per service, the parts of what a scanner reports that make
// it the same issue in the next scan, normalised (case, trailing slashes, default ports) and hashed
// with SHA-256 through Web Crypto, so the browser, the edge, the functions and the seed agree. The
// hash is the finding's document id: a re-found issue lands on its own record.
import type { ServiceId } from './services.ts'

/** DAST: the rule (ZAP plugin id, Nuclei template id), where (origin and path), the parameter and method. */
export interface DastFingerprintParts {
  ruleId: string
  /** The affected URL; its query and fragment are ignored. */
  url: string
  parameter?: string
  method?: string
}

/** Network: the host, the port and the rule (NVT OID, CVE, Nmap script id). */
export interface NetworkFingerprintParts {
  ip: string
  protocol?: string
  /** Absent for host-level findings. */
  port?: number | null
  ruleId: string
}

/** Cloud: where (provider, account, region), the check (Prowler check id) and the resource. */
export interface CloudFingerprintParts {
  provider: string
  account: string
  region: string
  checkId: string
  resource: string
}

/** Attack surface: the asset (domain, IP:port, certificate) and the kind of exposure. */
export interface ProjectMarianaFingerprintParts {
  assetKey: string
  exposureType: string
}

/** Password audit: the account (DOMAIN\account) and the issue (cracked, reused, LM hash ...). */
export interface PasswordFingerprintParts {
  domain: string
  account: string
  issueType: string
}

export interface FingerprintParts {
  dast: DastFingerprintParts
  network: NetworkFingerprintParts
  cloud: CloudFingerprintParts
  projectmariana: ProjectMarianaFingerprintParts
  password_cracking: PasswordFingerprintParts
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' }

const lower = (value: string | undefined | null) => (value ?? '').trim().toLowerCase()

/** Scheme and host in lower case, without the scheme's default port. */
export function normaliseOrigin(url: URL): string {
  const port = url.port && url.port !== DEFAULT_PORTS[url.protocol] ? `:${url.port}` : ''
  return `${url.protocol.toLowerCase()}//${url.hostname.toLowerCase()}${port}`
}

/** A path without trailing slashes (the root stays "/"); its case is kept, as servers may tell cases apart. */
export function normalisePath(path: string): string {
  const trimmed = path.trim().replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/** A domain name as DNS compares it: lower case, without the root's trailing dot. */
export const normaliseHostName = (name: string) => lower(name).replace(/\.+$/, '')

function dastKey(parts: DastFingerprintParts): string[] {
  let origin: string
  let path: string
  try {
    const url = new URL(parts.url.trim())
    origin = normaliseOrigin(url)
    path = normalisePath(url.pathname)
  } catch {
    // Not a URL (a scanner's bare path): keep what it said, normalised alike.
    origin = ''
    path = normalisePath(parts.url)
  }
  return [lower(parts.ruleId), origin, path, (parts.parameter ?? '').trim(), (parts.method ?? 'GET').trim().toUpperCase()]
}

/** The identity key of a finding of `service`, as the list of its normalised parts. */
export function fingerprintKey<S extends ServiceId>(service: S, parts: FingerprintParts[S]): string[] {
  switch (service) {
    case 'dast':
      return dastKey(parts as DastFingerprintParts)
    case 'network': {
      const p = parts as NetworkFingerprintParts
      return [lower(p.ip), lower(p.protocol ?? 'tcp'), p.port === undefined || p.port === null ? '' : String(p.port), lower(p.ruleId)]
    }
    case 'cloud': {
      const p = parts as CloudFingerprintParts
      return [lower(p.provider), lower(p.account), lower(p.region), lower(p.checkId), p.resource.trim()]
    }
    case 'projectmariana': {
      const p = parts as ProjectMarianaFingerprintParts
      return [normaliseHostName(p.assetKey), lower(p.exposureType)]
    }
    case 'password_cracking': {
      const p = parts as PasswordFingerprintParts
      return [lower(p.domain), lower(p.account), lower(p.issueType)]
    }
  }
  throw new Error(`Unknown service ${String(service)}`)
}

/** SHA-256 of a text, as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

// Unit separator: no part can forge another part's boundary with it.
const SEPARATOR = '\u001f'

/** A finding's fingerprint (and document id): SHA-256 hex of the service and its identity key. */
export const findingFingerprint = <S extends ServiceId>(service: S, parts: FingerprintParts[S]): Promise<string> =>
  sha256Hex([service, ...fingerprintKey(service, parts)].join(SEPARATOR))

/** An asset's document id: SHA-256 hex of the service, the asset's type and its normalised value. */
export const assetId = (service: ServiceId, type: string, value: string): Promise<string> =>
  sha256Hex(['asset', service, lower(type), lower(value).replace(/\.+$/, '')].join(SEPARATOR))
