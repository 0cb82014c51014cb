import { describe, expect, it } from 'vitest'
import { SAMPLE_CVE_INTEL } from '../../tests/builders.ts'
import { FINDING_INTEL_CVES, findingIntel, sameIntel, type CveIntel } from './vuln-intel.ts'

const intel: Record<string, CveIntel> = {
  ...SAMPLE_CVE_INTEL,
  'CVE-2024-3400': {
    cve: 'CVE-2024-3400',
    kev: { dateAdded: '2024-04-12', dueDate: '2024-04-19', ransomware: false },
    epss: 0.94212,
    percentile: 0.9989,
  },
}
const lookup = (cve: string) => intel[cve]

describe("a finding's intelligence", () => {
  it('sums up its CVEs: KEV when one is, the earliest KEV dates, the highest EPSS; the KEV ones listed first', () => {
    const summed = findingIntel(['CVE-2024-6387', 'CVE-2024-3400', 'CVE-2021-44228', 'CVE-2099-0001'], lookup, 5)
    expect(summed).toMatchObject({
      kev: true,
      kevDateAdded: '2021-12-10',
      kevDueDate: '2021-12-24',
      epss: 0.9436,
      epssPercentile: 0.9996,
      refreshedAt: 5,
    })
    expect(summed!.cves.map((c) => c.cve)).toEqual(['CVE-2021-44228', 'CVE-2024-3400', 'CVE-2024-6387'])
  })

  it('is null when no feed lists its CVEs, and lists at most a bounded number', () => {
    expect(findingIntel(['CVE-2099-0001'], lookup, 5)).toBeNull()
    expect(findingIntel([], lookup, 5)).toBeNull()
    const many = Array.from({ length: 30 }, (_, n) => `CVE-2020-${String(1000 + n)}`)
    expect(findingIntel(many, (cve) => ({ cve, kev: null, epss: 0.1, percentile: 0.5 }), 5)!.cves).toHaveLength(FINDING_INTEL_CVES)
  })

  it('is the same when only the refresh time or the last digits of a score differ', () => {
    const a = findingIntel(['CVE-2024-6387'], lookup, 5)
    const b = findingIntel(['CVE-2024-6387'], (cve) => ({ ...intel[cve]!, epss: 0.37732 }), 9)
    expect(sameIntel(a, b)).toBe(true)
    expect(
      sameIntel(
        a,
        findingIntel(['CVE-2024-6387'], (cve) => ({ ...intel[cve]!, epss: 0.5 }), 9),
      ),
    ).toBe(false)
    expect(sameIntel(null, undefined)).toBe(true)
    expect(sameIntel(a, null)).toBe(false)
  })
})
