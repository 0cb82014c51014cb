// A draft scan's figures (ServiceScanStats of scans.ts) from what its files held: what the
// findings and assets give, and for cloud checks passed and password audits the figures the
// parser computed itself (ParsedScan.serviceStats), which the findings alone cannot give.
import type { ServiceScanStats } from '../scans.ts'
import type { ServiceId } from '../services.ts'
import { SEVERITIES, type Severity } from '../template-vocabulary.ts'
import type { ParsedAsset } from './parsed-scan.ts'

/** What the figures read of a finding. */
export interface StatsFinding {
  severity: Severity
  asset: string
  cwe: readonly string[]
  tags: readonly string[]
  location: { url?: string; host?: string }
}

// OWASP Top 10 (2021) categories of the CWEs scanners report most.
const OWASP_BY_CWE: Record<string, string> = {
  '22': 'A01 Broken Access Control',
  '200': 'A01 Broken Access Control',
  '284': 'A01 Broken Access Control',
  '352': 'A01 Broken Access Control',
  '639': 'A01 Broken Access Control',
  '311': 'A02 Cryptographic Failures',
  '319': 'A02 Cryptographic Failures',
  '326': 'A02 Cryptographic Failures',
  '327': 'A02 Cryptographic Failures',
  '614': 'A02 Cryptographic Failures',
  '20': 'A03 Injection',
  '74': 'A03 Injection',
  '78': 'A03 Injection',
  '79': 'A03 Injection',
  '89': 'A03 Injection',
  '94': 'A03 Injection',
  '16': 'A05 Security Misconfiguration',
  '693': 'A05 Security Misconfiguration',
  '1021': 'A05 Security Misconfiguration',
  '1004': 'A05 Security Misconfiguration',
  '611': 'A05 Security Misconfiguration',
  '1104': 'A06 Vulnerable and Outdated Components',
  '287': 'A07 Identification and Authentication Failures',
  '384': 'A07 Identification and Authentication Failures',
  '521': 'A07 Identification and Authentication Failures',
  '345': 'A08 Software and Data Integrity Failures',
  '829': 'A08 Software and Data Integrity Failures',
  '778': 'A09 Security Logging and Monitoring Failures',
  '918': 'A10 Server-Side Request Forgery',
}

export const owaspCategory = (cwe: string): string | undefined => OWASP_BY_CWE[cwe.replace(/^CWE-/i, '')]

/** Names a top list counts one by one: exact while this many or fewer distinct names come. */
export const TALLY_NAMES = 10_000

export interface Tally {
  add(name: string): void
  top(limit: number): { name: string; count: number }[]
}

/**
 * Counts per name for a top list, in memory bounded by `names` counters whatever the number of
 * findings: exact up to `names` distinct names; beyond them a new name costs every counter one
 * (Misra-Gries), so a name more frequent than one in `names` of all stays listed, its count short
 * by at most that share. A scan's endpoints, services and technologies are seldom that many.
 */
export function tally(names = TALLY_NAMES): Tally {
  const counts = new Map<string, number>()
  return {
    add(name) {
      const known = counts.get(name)
      if (known !== undefined) counts.set(name, known + 1)
      else if (counts.size < names) counts.set(name, 1)
      else
        for (const [other, count] of counts)
          if (count > 1) counts.set(other, count - 1)
          else counts.delete(other)
    },
    top: (limit) =>
      [...counts]
        .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
        .slice(0, limit)
        .map(([name, count]) => ({ name, count })),
  }
}

function endpoint(url: string | undefined, fallback: string): string {
  if (!url) return fallback
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname}`
  } catch {
    return url
  }
}

const DAY_MS = 86_400_000

/** A scan's figures folded page by page: only the figures are kept, never the findings or the assets. */
export interface ImportStatsAccumulator {
  /** A page of the scan's findings (the published ones: neither merged nor false positives). */
  add(findings: readonly StatsFinding[]): void
  /** A page of the scan's assets. */
  addAssets(assets: readonly ParsedAsset[]): void
  /** The figures of every page added; the parser's own for cloud checks and password audits. */
  result(parsed?: ServiceScanStats): ServiceScanStats
}

const noSeverities = () => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>

/** The figures of a `service` scan run at `at` (certificates expire relative to it), folded page by page. */
export function importStatsAccumulator(service: ServiceId, at: number): ImportStatsAccumulator {
  let findingCount = 0
  let severe = 0
  const types = new Map<ParsedAsset['type'], number>()
  let openPorts = 0
  let certificatesExpiringSoon = 0
  let certificatesExpired = 0
  let cracked = 0
  let privilegedCracked = 0
  const owasp = tally()
  const endpoints = tally()
  const portServices = tally()
  const technologies = tally()
  // Distinct names need every name seen: these hold names only (a scan's hosts, cloud accounts and
  // regions), a few bytes each, however many findings name them.
  const targets = new Set<string>()
  const accounts = new Set<string>()
  const regions = new Set<string>()
  // The hosts by severity: the top list weighs every host's row, so each host keeps one (5 numbers).
  const perHost = new Map<string, Record<Severity, number>>()

  return {
    add(findings) {
      findingCount += findings.length
      for (const f of findings) {
        if (f.severity === 'critical' || f.severity === 'high') severe += 1
        if (service === 'dast') {
          const place = endpoint(f.location.url, f.asset)
          targets.add(place.split('/')[0]!)
          endpoints.add(place)
          const category = f.cwe.map(owaspCategory).find(Boolean)
          if (category) owasp.add(category)
        } else if (service === 'network') {
          const host = f.location.host ?? f.asset
          const row = perHost.get(host) ?? noSeverities()
          row[f.severity]++
          perHost.set(host, row)
        }
      }
    },
    addAssets(assets) {
      for (const a of assets) {
        types.set(a.type, (types.get(a.type) ?? 0) + 1)
        for (const p of a.ports ?? []) {
          openPorts += 1
          if (service === 'network') portServices.add(p.service || `${p.port}/${p.protocol}`)
          else if (service === 'projectmariana') portServices.add(p.service || String(p.port))
        }
        if (service === 'projectmariana') for (const t of a.technologies ?? []) technologies.add(t)
        if (a.type === 'certificate' && a.notAfter) {
          if (a.notAfter <= at) certificatesExpired += 1
          else if (a.notAfter <= at + 30 * DAY_MS) certificatesExpiringSoon += 1
        }
        if (a.cloud) {
          accounts.add(a.cloud.account)
          regions.add(a.cloud.region)
        }
        if (a.account?.cracked) {
          cracked += 1
          if (a.account.privileged) privilegedCracked += 1
        }
      }
    },
    result(parsed) {
      if (parsed && parsed.service === service && (service === 'cloud' || service === 'password_cracking')) return parsed
      const typed = (type: ParsedAsset['type']) => types.get(type) ?? 0
      switch (service) {
        case 'dast':
          return { service, targets: targets.size, instances: findingCount, owaspTop10: owasp.top(10), topEndpoints: endpoints.top(10) }
        case 'network': {
          const weight = (r: Record<Severity, number>) => r.critical * 1e6 + r.high * 1e4 + r.medium * 100 + r.low
          return {
            service,
            hostsUp: typed('host') + typed('ip'),
            openPorts,
            vulnerableHosts: [...perHost.values()].filter((row) => SEVERITIES.some((s) => s !== 'info' && row[s] > 0)).length,
            newOpenPorts: 0,
            services: portServices.top(12),
            hostSeverity: [...perHost]
              .sort(([a, x], [b, y]) => weight(y) - weight(x) || a.localeCompare(b))
              .slice(0, 15)
              .map(([host, row]) => ({ host, ...row })),
          }
        }
        case 'projectmariana':
          return {
            service,
            domains: typed('domain'),
            subdomains: typed('subdomain'),
            ips: typed('ip'),
            openPorts,
            certificates: typed('certificate'),
            certificatesExpiringSoon,
            certificatesExpired,
            riskyExposures: severe,
            assetsNew: 0,
            assetsGone: 0,
            technologies: technologies.top(12),
            portsByService: portServices.top(12),
          }
        case 'cloud':
          return {
            service,
            accounts: accounts.size,
            regions: regions.size,
            checksRun: findingCount,
            passed: 0,
            failed: findingCount,
            manual: 0,
            byCloudService: [],
            byAccountRegion: [],
            frameworks: [],
          }
        case 'password_cracking':
          return {
            service,
            accountsAudited: typed('account'),
            cracked,
            privilegedCracked,
            policyMinLength: 0,
            belowPolicy: 0,
            usernameAsPassword: 0,
            lmHashes: 0,
            reuseClusters: 0,
            largestReuseCluster: 0,
            lengthHistogram: [],
            classCounts: [],
            patterns: [],
          }
      }
    },
  }
}

/** The figures of findings and assets at hand whole (a draft's first figures). */
export function importStats(
  service: ServiceId,
  findings: readonly StatsFinding[],
  assets: readonly ParsedAsset[],
  at: number,
  parsed?: ServiceScanStats,
): ServiceScanStats {
  const accumulator = importStatsAccumulator(service, at)
  accumulator.add(findings)
  accumulator.addAssets(assets)
  return accumulator.result(parsed)
}
