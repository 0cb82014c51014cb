// Each demo scan's figures (ServiceScanStats of scans.ts), from what the scan saw that month.
import type { NetworkFingerprintParts } from '#domain/fingerprints.ts'
import { PASSWORD_PATTERNS } from '#domain/password-audit.ts'
import type { ServiceScanStats } from '#domain/scans.ts'
import { DAY_MS } from '#domain/sla.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import type { CompanyProfile, IssueSpec, ServiceUniverse } from './universe.ts'

const top = (counts: Map<string, number>, limit: number) =>
  [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, limit)
    .map(([name, count]) => ({ name, count }))

const tally = (values: Iterable<string>) => {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

const activeIn = <T extends { months: number[] }>(list: readonly T[], month: number) => list.filter((x) => x.months.includes(month))

/** The figures of the universe's scan in `month`, as of `at` (its start). */
export function scanStats(universe: ServiceUniverse, profile: CompanyProfile, month: number, at: number): ServiceScanStats {
  const issues = activeIn(universe.issues, month)
  const assets = activeIn(universe.assets, month)
  const before = month > 0 ? activeIn(universe.assets, month - 1) : []
  switch (universe.service) {
    case 'dast':
      return {
        service: 'dast',
        targets: universe.targets.length,
        instances: issues.length,
        owaspTop10: top(tally(issues.map((i) => i.meta.owasp!)), 10),
        topEndpoints: top(tally(issues.map((i) => i.meta.endpoint!)), 10),
      }
    case 'network': {
      const portsNow = new Set(assets.flatMap((a) => a.ports!(month).map((p) => `${a.value}:${p.port}`)))
      const portsBefore = new Set(before.flatMap((a) => a.ports!(month - 1).map((p) => `${a.value}:${p.port}`)))
      const perHost = new Map<string, Record<Severity, number>>()
      for (const issue of issues) {
        const host = (issue.parts as NetworkFingerprintParts).ip
        const row = perHost.get(host) ?? { critical: 0, high: 0, medium: 0, low: 0, info: 0 }
        row[issue.rule.severity]++
        perHost.set(host, row)
      }
      const weight = (r: Record<Severity, number>) => r.critical * 1000 + r.high * 100 + r.medium * 10 + r.low
      return {
        service: 'network',
        hostsUp: assets.length,
        openPorts: portsNow.size,
        vulnerableHosts: new Set(issues.filter((i) => i.rule.severity !== 'info').map((i) => (i.parts as NetworkFingerprintParts).ip)).size,
        newOpenPorts: month === 0 ? 0 : [...portsNow].filter((p) => !portsBefore.has(p)).length,
        services: top(tally(assets.flatMap((a) => a.ports!(month).map((p) => p.service))), 12),
        hostSeverity: [...perHost]
          .sort(([a, x], [b, y]) => weight(y) - weight(x) || a.localeCompare(b))
          .slice(0, 15)
          .map(([host, row]) => ({ host, ...row })),
      }
    }
    case 'cloud': {
      const totals = universe.cloudTotals![month]!
      const failedBy = tally(issues.map((i) => i.meta.cloudService!))
      const byAccountRegion = tally(issues.map((i) => `${i.meta.account}|${i.meta.region}`))
      const failed = issues.length
      const all = failed + totals.passed
      return {
        service: 'cloud',
        accounts: profile.cloudAccounts.length,
        regions: new Set(profile.cloudAccounts.flatMap((a) => a.regions)).size,
        checksRun: all + totals.manual,
        passed: totals.passed,
        failed,
        manual: totals.manual,
        byCloudService: [...failedBy]
          .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
          .map(([name, count]) => ({ name, failed: count, passed: Math.round((totals.passed * count) / Math.max(1, failed)) })),
        byAccountRegion: [...byAccountRegion]
          .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
          .map(([key, count]) => {
            const [account, region] = key.split('|') as [string, string]
            return { account, region, failed: count }
          }),
        frameworks: [
          ['CIS AWS Foundations Benchmark 3.0', 0.92],
          ['ISO/IEC 27001:2022', 0.71],
          ['NIS2', 0.55],
          ['PCI DSS 4.0', 0.38],
        ].map(([name, share]) => {
          const total = Math.round(all * (share as number))
          return { name: name as string, total, passed: Math.round((total * totals.passed) / all) }
        }),
      }
    }
    case 'projectmariana': {
      const ofType = (type: string, list = assets) => list.filter((a) => a.type === type)
      const certificates = ofType('certificate')
      const key = (list: typeof assets) => new Set(list.filter((a) => a.type !== 'certificate').map((a) => a.key))
      const now = key(assets)
      const then = key(before)
      const ipPorts = ofType('ip').flatMap((a) => a.ports!(month))
      return {
        service: 'projectmariana',
        domains: ofType('domain').length,
        subdomains: ofType('subdomain').length,
        ips: ofType('ip').length,
        openPorts: ipPorts.length,
        certificates: certificates.length,
        certificatesExpiringSoon: certificates.filter((c) => c.notAfter! > at && c.notAfter! <= at + 30 * DAY_MS).length,
        certificatesExpired: certificates.filter((c) => c.notAfter! <= at).length,
        riskyExposures: issues.filter(
          (i: IssueSpec) => i.meta.place === 'port' || i.rule.severity === 'critical' || i.rule.severity === 'high',
        ).length,
        assetsNew: month === 0 ? now.size : [...now].filter((k) => !then.has(k)).length,
        assetsGone: [...then].filter((k) => !now.has(k)).length,
        technologies: top(tally(ofType('subdomain').flatMap((a) => a.technologies ?? [])), 12),
        portsByService: top(tally(ipPorts.map((p) => p.service)), 12),
      }
    }
    case 'password_cracking': {
      const audit = universe.audits![month]!
      const cracked = [...audit.accounts.values()].filter((a) => a.description !== null)
      // The domain's minimum went from 8 to 12 characters in the ninth month.
      const policyMinLength = month < 8 ? 8 : 12
      const lengthHistogram = Array.from({ length: 33 }, () => 0)
      const classCounts = [0, 0, 0, 0]
      for (const account of cracked) {
        lengthHistogram[Math.min(32, account.description!.length)]!++
        classCounts[Math.max(1, account.description!.classes.length) - 1]!++
      }
      return {
        service: 'password_cracking',
        accountsAudited: audit.audited,
        cracked: cracked.length,
        privilegedCracked: cracked.filter((a) => a.privileged).length,
        policyMinLength,
        belowPolicy: cracked.filter((a) => a.description!.length < policyMinLength).length,
        usernameAsPassword: cracked.filter((a) => a.description!.patterns.includes('username')).length,
        lmHashes: [...audit.accounts.values()].filter((a) => a.lm).length,
        reuseClusters: audit.clusters.length,
        largestReuseCluster: Math.max(0, ...audit.clusters),
        lengthHistogram,
        classCounts,
        patterns: PASSWORD_PATTERNS.map((name) => ({ name, count: cracked.filter((a) => a.description!.patterns.includes(name)).length })),
      }
    }
  }
}

export { SEVERITIES }
