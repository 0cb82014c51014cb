// A parsed finding as a service sees it: the service's fingerprint parts (fingerprints.ts), the
// location the report shows and the asset it is filed under. The same parsed finding gets another
// identity in another service (a Nuclei hit is an endpoint in DAST and an exposure in attack surface).
import { findingFingerprint, type FingerprintParts } from '../fingerprints.ts'
import type { FindingLocation } from '../findings.ts'
import type { ServiceId } from '../services.ts'
import type { FindingTarget, ParsedFinding } from './parsed-scan.ts'

/** Host and port of a URL, or the URL as given when it is not one. */
function urlHost(url: string): { host: string; port?: number } {
  try {
    const parsed = new URL(url)
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : parsed.protocol === 'http:' ? 80 : undefined
    return { host: parsed.hostname, ...(port ? { port } : {}) }
  } catch {
    return { host: url }
  }
}

/** What the finding is filed under: a URL's origin and path, a host[:port], a cloud resource, an account. */
export function targetAsset(target: FindingTarget): string {
  switch (target.kind) {
    case 'url':
      return target.url
    case 'host':
      return target.port ? `${target.ip ?? target.host}:${target.port}` : (target.ip ?? target.host)
    case 'cloud':
      return target.resource
    case 'account':
      return target.domain ? `${target.domain}\\${target.account}` : target.account
  }
}

export function targetLocation(target: FindingTarget): FindingLocation {
  switch (target.kind) {
    case 'url':
      return {
        url: target.url,
        ...(target.method ? { method: target.method } : {}),
        ...(target.parameter ? { parameter: target.parameter } : {}),
      }
    case 'host':
      return {
        host: target.ip ?? target.host,
        ...(target.port ? { port: String(target.port) } : {}),
        ...(target.protocol ? { protocol: target.protocol } : {}),
      }
    case 'cloud':
      return { account: target.account, region: target.region, cloudService: target.cloudService, resource: target.resource }
    case 'account':
      return { domain: target.domain, account: target.account }
  }
}

/**
 * The parts of the service's fingerprint for a finding at `target` reported by `ruleId` (and, for a
 * rule that makes several checks, `check`).
 */
export function fingerprintParts<S extends ServiceId>(
  service: S,
  target: FindingTarget,
  ruleId: string,
  check?: string,
): FingerprintParts[S] {
  const parts = (): FingerprintParts[ServiceId] => {
    switch (service) {
      case 'dast':
        if (target.kind === 'url') return { ruleId, url: target.url, parameter: target.parameter, method: target.method }
        return { ruleId, url: targetAsset(target) }
      case 'network': {
        if (target.kind === 'host') return { ip: target.ip ?? target.host, protocol: target.protocol, port: target.port ?? null, ruleId }
        if (target.kind === 'url') {
          const { host, port } = urlHost(target.url)
          return { ip: host, protocol: 'tcp', port: port ?? null, ruleId }
        }
        return { ip: targetAsset(target), port: null, ruleId }
      }
      case 'cloud':
        if (target.kind === 'cloud')
          return { provider: target.provider, account: target.account, region: target.region, checkId: ruleId, resource: target.resource }
        return { provider: '', account: '', region: '', checkId: ruleId, resource: targetAsset(target) }
      case 'projectmariana': {
        // Only the host is kept of where: each check of a rule is an exposure of its own.
        const exposureType = check ? `${ruleId}:${check}` : ruleId
        if (target.kind === 'url') {
          const { host, port } = urlHost(target.url)
          return { assetKey: port ? `${host}:${port}` : host, exposureType }
        }
        return { assetKey: targetAsset(target), exposureType }
      }
      case 'password_cracking':
        if (target.kind === 'account') return { domain: target.domain, account: target.account, issueType: ruleId }
        return { domain: '', account: targetAsset(target), issueType: ruleId }
    }
    throw new Error(`Unknown service ${String(service)}`)
  }
  return parts() as FingerprintParts[S]
}

/** The finding's id in `service`: its fingerprint. */
export const parsedFingerprint = (service: ServiceId, finding: Pick<ParsedFinding, 'target' | 'ruleId' | 'check'>): Promise<string> =>
  findingFingerprint(service, fingerprintParts(service, finding.target, finding.ruleId, finding.check))
