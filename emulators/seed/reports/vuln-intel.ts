// Demo vulnerability intelligence: what the KEV catalogue and the EPSS scores say of the CVEs the
// demo findings name, as the daily refresh would have stored it on SEED_NOW. A fixed table, not a
// download: the seed stays offline and fast. The figures follow the public feeds' formats; they
// are samples, not a copy of a real day's feed.
import { CVE_ID_PATTERN, findingIntel, vulnIntelPath, type CveIntel, type StoredVulnIntel } from '#domain/vuln-intel.ts'
import type { StoredFinding } from '#domain/findings.ts'
import { SEED_NOW } from './calendar.ts'

const kev = (dateAdded: string, dueDate: string, ransomware: boolean) => ({ dateAdded, dueDate, ransomware })

const DEMO_INTEL: readonly CveIntel[] = [
  { cve: 'CVE-2017-0144', kev: kev('2022-02-10', '2022-08-10', true), epss: 0.9437, percentile: 0.9996 },
  { cve: 'CVE-2019-0708', kev: kev('2021-11-03', '2022-05-03', true), epss: 0.9446, percentile: 0.9998 },
  { cve: 'CVE-2020-1472', kev: kev('2021-11-03', '2021-11-17', true), epss: 0.9441, percentile: 0.9997 },
  { cve: 'CVE-2020-1938', kev: kev('2022-03-03', '2022-03-17', false), epss: 0.9447, percentile: 0.9998 },
  { cve: 'CVE-2021-36942', kev: kev('2021-11-03', '2022-05-03', true), epss: 0.9093, percentile: 0.9952 },
  { cve: 'CVE-2021-44228', kev: kev('2021-12-10', '2021-12-24', true), epss: 0.9436, percentile: 0.9996 },
  { cve: 'CVE-2023-46604', kev: kev('2023-11-02', '2023-11-23', true), epss: 0.9426, percentile: 0.9993 },
  { cve: 'CVE-2023-48795', kev: null, epss: 0.6534, percentile: 0.9836 },
  { cve: 'CVE-2024-6387', kev: null, epss: 0.3773, percentile: 0.9712 },
]
const BY_CVE = new Map(DEMO_INTEL.map((intel) => [intel.cve, intel]))

/** Templates whose issue is one CVE, though their rule ids do not say so. */
const TEMPLATE_CVES: Record<string, string> = { 'log4shell-jndi-lookup': 'CVE-2021-44228' }

/** The CVE ids a demo rule names: in its id (network and Nuclei rules) or by its template. */
export function demoCves(ruleId: string, templateSlug?: string): string[] {
  const named = ruleId.split(':').filter((part) => CVE_ID_PATTERN.test(part))
  const template = templateSlug ? TEMPLATE_CVES[templateSlug] : undefined
  return template ? [...new Set([...named, template])] : named
}

/** A demo finding with its CVEs' figures, as the refresh on SEED_NOW would have left it. */
export const withDemoIntel = (finding: StoredFinding): StoredFinding =>
  finding.hasCves ? { ...finding, intel: findingIntel(finding.cve, (cve) => BY_CVE.get(cve), SEED_NOW) } : finding

/** vuln_intel/{cve} of every CVE in the table. */
export function demoVulnIntelDocuments(): [string, StoredVulnIntel][] {
  return DEMO_INTEL.map((intel) => [
    vulnIntelPath(intel.cve),
    { ...intel, epssDate: intel.epss === null ? null : '2026-11-20', kevVersion: intel.kev ? '2026.11.19' : null, updatedAt: SEED_NOW },
  ])
}
