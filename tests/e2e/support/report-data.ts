// Report figures for the e2e tests, written through the Admin SDK when the demo data has none yet:
// two published scans of each service and the service's live figures. Documents follow the
// domain readers (each is checked with them before it is written).
import { scanFromDocument, scanPath, scansPath, type ServiceScanStats } from '#domain/scans.ts'
import { readServiceStats, serviceStatsPath } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { sharedAdmin } from '../../../emulators/firebase/admin.ts'

const DAY = 86_400_000

const statsOf = (service: ServiceId, step: number): ServiceScanStats => {
  switch (service) {
    case 'projectmariana':
      return {
        service,
        domains: 4,
        subdomains: 120 + step * 6,
        ips: 48 + step,
        openPorts: 210 + step * 4,
        certificates: 64,
        certificatesExpiringSoon: 3,
        certificatesExpired: 1,
        riskyExposures: 7,
        assetsNew: 6,
        assetsGone: 2,
        technologies: [
          { name: 'nginx', count: 40 },
          { name: 'WordPress', count: 9 },
        ],
        portsByService: [
          { name: 'https', count: 120 },
          { name: 'ssh', count: 22 },
        ],
      }
    case 'password_cracking':
      return {
        service,
        accountsAudited: 1843,
        cracked: 512 - step * 40,
        privilegedCracked: 9,
        policyMinLength: 10,
        belowPolicy: 211,
        usernameAsPassword: 14,
        lmHashes: 0,
        reuseClusters: 31,
        largestReuseCluster: 27,
        lengthHistogram: [0, 0, 0, 0, 2, 8, 40, 90, 120, 101, 70, 44, 20, 9, 4, 2, 1, ...Array(16).fill(0)],
        classCounts: [60, 210, 190, 52],
        patterns: [
          { name: 'Season and year', count: 88 },
          { name: 'Company name', count: 41 },
        ],
      }
    case 'dast':
      return {
        service,
        targets: 3,
        instances: 214 + step,
        owaspTop10: [
          { name: 'A03 Injection', count: 12 },
          { name: 'A05 Security Misconfiguration', count: 30 },
        ],
        topEndpoints: [
          { name: 'POST /api/login', count: 18 },
          { name: 'GET /search', count: 11 },
        ],
      }
    case 'network':
      return {
        service,
        hostsUp: 86,
        openPorts: 402 + step * 3,
        vulnerableHosts: 17,
        newOpenPorts: 5,
        services: [
          { name: 'ssh', count: 80 },
          { name: 'rdp', count: 12 },
        ],
        hostSeverity: [{ host: '10.0.0.5', critical: 1, high: 3, medium: 4, low: 2, info: 9 }],
      }
    case 'cloud':
      return {
        service,
        accounts: 3,
        regions: 4,
        checksRun: 1260,
        passed: 1011 + step * 10,
        failed: 219 - step * 10,
        manual: 30,
        byCloudService: [
          { name: 'IAM', passed: 200, failed: 60 },
          { name: 'S3', passed: 150, failed: 20 },
        ],
        byAccountRegion: [
          { account: 'prod', region: 'eu-west-1', failed: 44 },
          { account: 'dev', region: 'us-east-1', failed: 12 },
        ],
        frameworks: [{ name: 'CIS 3.0', passed: 180, total: 240 }],
      }
  }
}

/** Ensures `company` has published scans and figures for each of `serviceIds`. */
export async function ensureReportData(company: string, serviceIds: readonly ServiceId[]): Promise<void> {
  const { db } = sharedAdmin()
  const now = Date.now()
  for (const service of serviceIds) {
    const existing = await db
      .collection(scansPath(company))
      .where('service', '==', service)
      .where('state', '==', 'published')
      .limit(1)
      .get()
    if (!existing.empty) continue
    for (const step of [0, 1]) {
      const at = now - (2 - step) * 30 * DAY
      const id = `e2e-${service}-${step}`
      const scan = {
        service,
        state: 'published',
        title: step ? 'Monthly scan (March)' : 'Monthly scan (February)',
        tool: 'e2e',
        scopeKey: `${service}-main`,
        targets: ['example.com'],
        startedAt: at,
        finishedAt: at,
        publishedAt: at,
        publishedBy: 'analyst@sectest.example',
        previousScanId: step ? `e2e-${service}-0` : null,
        counts: {
          bySeverity: { critical: 1, high: 4 + step, medium: 9, low: 6, info: 3 },
          total: 23 + step,
          new: step ? 3 : 23,
          persisting: step ? 20 : 0,
          notDetected: step ? 2 : 0,
          reopened: 0,
        },
        stats: statsOf(service, step),
        updatedAt: at,
        updatedBy: 'analyst@sectest.example',
      }
      if (!scanFromDocument(id, scan)) throw new Error(`The e2e scan of ${service} is not a valid scan`)
      await db.doc(scanPath(company, id)).set(scan)
    }
    const stats = {
      open: { critical: 1, high: 5, medium: 9, low: 6, info: 3 },
      dueSoon: { high: 2 },
      breached: { critical: 1 },
      retestsWaitingOnUs: 2,
      retestsWaitingOnYou: 1,
      lastScanId: `e2e-${service}-1`,
    }
    readServiceStats(stats)
    await db.doc(serviceStatsPath(company, service)).set(stats)
  }
}
