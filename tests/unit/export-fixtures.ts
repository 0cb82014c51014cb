// Findings, figures and scans for the export writers' tests and benchmark: valid documents of the
// domain model, built in memory.
import type { Finding, FindingStatus } from '#domain/findings.ts'
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import { scanFromDocument, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { readServiceMonth, readServiceStats, type ServiceMonth, type ServiceStats } from '#domain/service-stats.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import { findingDocument } from '../builders.ts'

export const T0 = Date.UTC(2026, 0, 5)
const DAY = 86_400_000

const scores: Record<Severity, number> = { critical: 9.8, high: 7.5, medium: 5.3, low: 3.1, info: 0 }

export function exportFinding(service: ServiceId, n: number, overrides: Partial<Finding> = {}): Finding {
  const severity = SEVERITIES[n % SEVERITIES.length]!
  const host = `10.0.${Math.floor(n / 250)}.${n % 250}`
  const location =
    service === 'dast'
      ? { url: `https://app.acme.example/api/items/${n}?q=1`, method: 'GET', parameter: 'q' }
      : service === 'network'
        ? { host, port: String(443 + (n % 3)), protocol: 'tcp' }
        : service === 'password_cracking'
          ? { account: `ACME\\u*****${n}` }
          : { domain: `h${n}.acme.example` }
  const asset =
    service === 'dast'
      ? location.url!
      : service === 'network'
        ? `${host}:${location.port}`
        : service === 'password_cracking'
          ? location.account!
          : location.domain!
  // The builder's open finding, with what the exports show varied by n.
  return {
    id: `f${String(n).padStart(5, '0')}`,
    ...findingDocument(service, {}, T0),
    fingerprint: `${n.toString(16).padStart(8, '0')}${'a'.repeat(56)}`,
    title: `Finding ${n}: ${['SQL injection', 'Outdated TLS', 'Weak password', 'Missing header', 'Open port'][n % 5]}`,
    templateSlug: `template-${n % 7}`,
    severity,
    cvss: severity === 'info' ? null : { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: scores[severity] },
    cwe: ['CWE-89'],
    tags: ['external', `group-${n % 4}`],
    asset,
    location,
    description: `**Description** of finding ${n}, with [a link](https://example.org) and \`code\`. `.repeat(3),
    impact: 'An attacker could read data.',
    remediation: 'Upgrade the component.',
    references: ['https://owasp.org/Top10/A03_2021-Injection/', 'not a url'],
    evidence: 'GET /api/items?q=1 HTTP/1.1',
    status: (['open', 'in_remediation', 'fixed', 'retest_requested', 'risk_accepted'] as FindingStatus[])[n % 5]!,
    firstSeenScanId: 's1',
    firstSeenAt: T0 + (n % 30) * DAY,
    lastSeenScanId: 's2',
    lastSeenAt: T0 + 40 * DAY,
    seenCount: 2,
    publishedAt: T0 + (n % 30) * DAY,
    sla: { startedAt: T0, dueAt: severity === 'info' ? null : T0 + 30 * DAY, pausedAt: null },
    slaState: severity === 'info' ? 'none' : n % 3 === 0 ? 'breached' : 'ok',
    fixedAt: n % 5 === 2 ? T0 + (n % 30) * DAY + (3 + (n % 11)) * DAY : null,
    updatedBy: 'system',
    ...overrides,
  }
}

export const exportFindings = (service: ServiceId, count: number) => Array.from({ length: count }, (_, n) => exportFinding(service, n))

export const exportHistory = (finding: Finding): FindingHistoryEntry[] => [
  {
    id: 'h1',
    action: 'published',
    from: 'open',
    to: 'open',
    at: finding.publishedAt,
    byUid: 'system',
    byName: 'Bulwark',
    role: 'system',
    note: null,
  },
  {
    id: 'h2',
    action: 'start_remediation',
    from: 'open',
    to: 'in_remediation',
    at: finding.publishedAt + DAY,
    byUid: 'u1',
    byName: 'Mia Manager',
    role: 'manager',
    note: 'On it',
  },
]

export const exportStats = (): ServiceStats =>
  readServiceStats({
    open: { critical: 12, high: 40, medium: 88, low: 30, info: 9 },
    breached: { critical: 3, high: 5 },
    dueSoon: { high: 4, medium: 2 },
    byStatus: { open: 120, in_remediation: 40, fixed: 300 },
    retestsWaitingOnUs: 2,
    retestsWaitingOnYou: 1,
    lastScanId: 's2',
    lastPublishedAt: T0 + 40 * DAY,
  })

export const exportMonths = (): ServiceMonth[] => [
  readServiceMonth('2026-01', { fixed: { high: 2 }, remediationDays: { critical: [3, 5], high: [10, 20] } }),
  readServiceMonth('2026-02', { fixed: { medium: 1 }, remediationDays: { medium: [40] } }),
]

export function exportScan(service: ServiceId): Scan {
  const stats =
    service === 'dast'
      ? {
          service,
          targets: 4,
          instances: 210,
          owaspTop10: [
            { name: 'A03 Injection', count: 40 },
            { name: 'A05 Security Misconfiguration', count: 25 },
          ],
          topEndpoints: [{ name: '/api/items', count: 30 }],
        }
      : service === 'network'
        ? {
            service,
            hostsUp: 120,
            openPorts: 340,
            vulnerableHosts: 33,
            newOpenPorts: 5,
            services: [{ name: 'https', count: 90 }],
            hostSeverity: [],
          }
        : service === 'password_cracking'
          ? {
              service,
              accountsAudited: 500,
              cracked: 120,
              privilegedCracked: 4,
              policyMinLength: 12,
              belowPolicy: 60,
              usernameAsPassword: 3,
              lmHashes: 0,
              reuseClusters: 7,
              largestReuseCluster: 12,
              lengthHistogram: [],
              classCounts: [0, 10, 50, 40, 20],
              patterns: [{ name: 'season_year', count: 30 }],
            }
          : service === 'cloud'
            ? {
                service,
                accounts: 3,
                regions: 4,
                checksRun: 900,
                passed: 700,
                failed: 180,
                manual: 20,
                byCloudService: [],
                byAccountRegion: [],
                frameworks: [],
              }
            : {
                service,
                domains: 4,
                subdomains: 120,
                ips: 60,
                openPorts: 200,
                certificates: 80,
                certificatesExpiringSoon: 3,
                certificatesExpired: 1,
                riskyExposures: 9,
                assetsNew: 5,
                assetsGone: 2,
                technologies: [],
                portsByService: [],
              }
  const scan = scanFromDocument('s2', {
    service,
    state: 'published',
    title: 'November scan',
    tool: '',
    scopeKey: 'scope',
    startedAt: T0 + 39 * DAY,
    finishedAt: T0 + 40 * DAY,
    publishedAt: T0 + 40 * DAY,
    publishedBy: 'analyst',
    previousScanId: 's1',
    counts: {
      bySeverity: { critical: 12, high: 40, medium: 88, low: 30, info: 9 },
      total: 179,
      new: 14,
      persisting: 160,
      notDetected: 6,
      reopened: 2,
    },
    stats,
    updatedAt: T0,
    updatedBy: 'analyst',
  })
  if (!scan) throw new Error('The fixture scan does not parse')
  return scan
}
