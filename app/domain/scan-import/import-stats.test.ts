import { describe, expect, it } from 'vitest'
import type { ServiceId } from '../services.ts'
import { SEVERITIES } from '../template-vocabulary.ts'
import { importStats, importStatsAccumulator, tally, type StatsFinding } from './import-stats.ts'
import type { ParsedAsset } from './parsed-scan.ts'

const AT = Date.UTC(2026, 0, 5)
const DAY = 86_400_000

// A mixed scan, the same every run: endpoints, hosts and CWEs repeating at different rates.
const findings: StatsFinding[] = Array.from({ length: 240 }, (_, i) => ({
  severity: SEVERITIES[i % SEVERITIES.length]!,
  asset: `h${i % 7}.acme.example:443`,
  cwe: i % 3 === 0 ? ['CWE-79'] : i % 5 === 0 ? ['CWE-89', 'CWE-22'] : [],
  tags: [],
  location: i % 4 === 0 ? { host: `10.0.0.${i % 9}` } : { url: `https://h${i % 6}.acme.example/p${i % 13}?q=${i}` },
}))
const assets: ParsedAsset[] = Array.from({ length: 90 }, (_, i) => ({
  type: (['host', 'ip', 'domain', 'subdomain', 'certificate', 'account'] as const)[i % 6]!,
  value: `asset-${i}`,
  ports:
    i % 2
      ? [
          { port: 443, protocol: 'tcp', service: 'https' },
          { port: 8000 + (i % 5), protocol: 'tcp' },
        ]
      : [],
  technologies: i % 3 ? [`tech-${i % 4}`] : [],
  notAfter: i % 6 === 4 ? AT + ((i % 4) - 1) * 20 * DAY : null,
  cloud: i % 5 === 0 ? { account: `acct-${i % 3}`, region: `region-${i % 4}`, cloudService: 's3' } : undefined,
  account:
    i % 6 === 5
      ? {
          masked: 'b**',
          cracked: i % 12 === 11,
          length: 8,
          classes: [],
          patterns: [],
          privileged: i % 24 === 11,
          reuseCluster: null,
          reuseCount: 0,
        }
      : undefined,
}))

const SERVICES: ServiceId[] = ['dast', 'network', 'projectmariana', 'cloud', 'password_cracking']

function inPages<T>(items: readonly T[], size: number): T[][] {
  const pages: T[][] = []
  for (let start = 0; start < items.length; start += size) pages.push(items.slice(start, start + size))
  return pages
}

describe("a scan's figures", () => {
  it('folded page by page are the figures of the whole scan, for every service and page size', () => {
    for (const service of SERVICES) {
      const whole = importStats(service, findings, assets, AT)
      for (const size of [1, 7, 50, 1_000]) {
        const accumulator = importStatsAccumulator(service, AT)
        // The publication adds the findings' pages, then the assets'.
        for (const page of inPages(findings, size)) accumulator.add(page)
        for (const page of inPages(assets, size)) accumulator.addAssets(page)
        expect(accumulator.result(), `${service} in pages of ${size}`).toEqual(whole)
      }
    }
  })

  it('count what the findings and assets hold', () => {
    const dast = importStats('dast', findings, assets, AT)
    expect(dast).toMatchObject({ service: 'dast', instances: 240, targets: 6 + 7 })
    if (dast.service !== 'dast') throw new Error('dast')
    // CWE-79 on every third, CWE-89 (listed before CWE-22) on the other fifths: their first category.
    expect(dast.owaspTop10).toEqual([{ name: 'A03 Injection', count: 80 + 32 }])
    // A finding without a URL counts under its asset: h0, h1, h4 and h5 nine times each, more than any URL.
    expect(dast.topEndpoints[0]).toEqual({ name: 'h0.acme.example:443', count: 9 })
    expect(importStats('network', findings, assets, AT)).toMatchObject({ hostsUp: 30, openPorts: 90, vulnerableHosts: 7 + 9 })
    expect(importStats('projectmariana', findings, assets, AT)).toMatchObject({
      domains: 15,
      subdomains: 15,
      certificates: 15,
      certificatesExpired: 8,
      certificatesExpiringSoon: 7,
      riskyExposures: 96,
    })
    expect(importStats('cloud', findings, assets, AT)).toMatchObject({ accounts: 3, regions: 4, checksRun: 240 })
    expect(importStats('password_cracking', findings, assets, AT)).toMatchObject({ accountsAudited: 15, cracked: 7, privilegedCracked: 4 })
  })

  it("of cloud checks and password audits are the parser's own when it gives them", () => {
    const parsed = importStats('cloud', [], [], AT)
    const own = { ...parsed, passed: 12 } as typeof parsed
    const accumulator = importStatsAccumulator('cloud', AT)
    accumulator.add(findings)
    expect(accumulator.result(own)).toBe(own)
  })
})

describe('a top list', () => {
  it('counts exactly while no more names come than it keeps', () => {
    const counts = tally(3)
    for (const name of ['b', 'a', 'c', 'a', 'b', 'a']) counts.add(name)
    expect(counts.top(2)).toEqual([
      { name: 'a', count: 3 },
      { name: 'b', count: 2 },
    ])
  })

  it('keeps no more names than it may, and the frequent ones, however many names come', () => {
    const counts = tally(4)
    for (let i = 0; i < 10_000; i += 1) counts.add(i % 2 === 0 ? 'login' : `rare-${i}`)
    const top = counts.top(100)
    expect(top.length).toBeLessThanOrEqual(4)
    expect(top[0]!.name).toBe('login')
    // Short by at most one in (names + 1) of everything counted.
    expect(top[0]!.count).toBeGreaterThanOrEqual(5_000 - 10_000 / 5)
  })
})
