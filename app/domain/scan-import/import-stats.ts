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

const top = (values: Iterable<string>, limit: number) => {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, limit)
    .map(([name, count]) => ({ name, count }))
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

export function importStats(
  service: ServiceId,
  findings: readonly StatsFinding[],
  assets: readonly ParsedAsset[],
  at: number,
  parsed?: ServiceScanStats,
): ServiceScanStats {
  if (parsed && parsed.service === service && (service === 'cloud' || service === 'password_cracking')) return parsed
  const ports = assets.flatMap((a) => (a.ports ?? []).map((p) => ({ ...p, host: a.value })))
  switch (service) {
    case 'dast':
      return {
        service,
        targets: new Set(findings.map((f) => endpoint(f.location.url, f.asset).split('/')[0])).size,
        instances: findings.length,
        owaspTop10: top(
          findings.flatMap((f) => {
            const category = f.cwe.map(owaspCategory).find(Boolean)
            return category ? [category] : []
          }),
          10,
        ),
        topEndpoints: top(
          findings.map((f) => endpoint(f.location.url, f.asset)),
          10,
        ),
      }
    case 'network': {
      const perHost = new Map<string, Record<Severity, number>>()
      for (const f of findings) {
        const host = f.location.host ?? f.asset
        const row = perHost.get(host) ?? (Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>)
        row[f.severity]++
        perHost.set(host, row)
      }
      const weight = (r: Record<Severity, number>) => r.critical * 1e6 + r.high * 1e4 + r.medium * 100 + r.low
      return {
        service,
        hostsUp: assets.filter((a) => a.type === 'host' || a.type === 'ip').length,
        openPorts: ports.length,
        vulnerableHosts: new Set(findings.filter((f) => f.severity !== 'info').map((f) => f.location.host ?? f.asset)).size,
        newOpenPorts: 0,
        services: top(
          ports.map((p) => p.service || `${p.port}/${p.protocol}`),
          12,
        ),
        hostSeverity: [...perHost]
          .sort(([a, x], [b, y]) => weight(y) - weight(x) || a.localeCompare(b))
          .slice(0, 15)
          .map(([host, row]) => ({ host, ...row })),
      }
    }
    case 'projectmariana': {
      const certificates = assets.filter((a) => a.type === 'certificate')
      return {
        service,
        domains: assets.filter((a) => a.type === 'domain').length,
        subdomains: assets.filter((a) => a.type === 'subdomain').length,
        ips: assets.filter((a) => a.type === 'ip').length,
        openPorts: ports.length,
        certificates: certificates.length,
        certificatesExpiringSoon: certificates.filter((c) => c.notAfter && c.notAfter > at && c.notAfter <= at + 30 * DAY_MS).length,
        certificatesExpired: certificates.filter((c) => c.notAfter && c.notAfter <= at).length,
        riskyExposures: findings.filter((f) => f.severity === 'critical' || f.severity === 'high').length,
        assetsNew: 0,
        assetsGone: 0,
        technologies: top(
          assets.flatMap((a) => a.technologies ?? []),
          12,
        ),
        portsByService: top(
          ports.map((p) => p.service || String(p.port)),
          12,
        ),
      }
    }
    case 'cloud':
      return {
        service,
        accounts: new Set(assets.flatMap((a) => (a.cloud ? [a.cloud.account] : []))).size,
        regions: new Set(assets.flatMap((a) => (a.cloud ? [a.cloud.region] : []))).size,
        checksRun: findings.length,
        passed: 0,
        failed: findings.length,
        manual: 0,
        byCloudService: [],
        byAccountRegion: [],
        frameworks: [],
      }
    case 'password_cracking':
      return {
        service,
        accountsAudited: assets.filter((a) => a.type === 'account').length,
        cracked: assets.filter((a) => a.account?.cracked).length,
        privilegedCracked: assets.filter((a) => a.account?.cracked && a.account.privileged).length,
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
}
