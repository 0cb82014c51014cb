// @vitest-environment happy-dom
// A finding's KEV membership and EPSS score as its page shows them, from the figures the daily
// refresh keeps on the finding.
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Finding } from '#domain/findings.ts'
import { findingIntel } from '#domain/vuln-intel.ts'
import { findingDocument, SAMPLE_CVE_INTEL } from '../../../../tests/builders.ts'
import { FindingView } from './finding-page'

afterEach(cleanup)

const FEEDS = SAMPLE_CVE_INTEL

function renderFinding(overrides: Partial<Finding>) {
  render(
    <FindingView
      company="acme"
      finding={{ id: 'f1', ...findingDocument('network', overrides) }}
      workspace={{ access: { accessLevel: 1, userType: 'client' } }}
      history={[]}
      comments={[]}
      occurrences={[]}
      retests={[]}
    />,
  )
}

const cves = ['CVE-2024-6387', 'CVE-2021-44228']

describe('exploitation on a finding page', () => {
  it('shows KEV with the dates added and due, and EPSS with its percentile, for each CVE', () => {
    renderFinding({ cve: cves, hasCves: true, intel: findingIntel(cves, (cve) => FEEDS[cve], Date.UTC(2026, 11, 3)) })
    const card = screen.getByRole('region', { name: 'Exploitation' })
    expect(within(card).getByText('Yes')).toBeVisible()
    expect(card).toHaveTextContent(/in CISA’s KEV catalogue since Dec 10, 2021, due Dec 24, 2021/)
    expect(card).toHaveTextContent('94.36% chance of exploitation in the next 30 days, higher than 99.96% of CVEs')
    const byCve = within(within(card).getByRole('list', { name: 'By CVE' })).getAllByRole('listitem')
    expect(byCve.map((item) => item.textContent)).toEqual([
      'CVE-2021-44228KEV: added Dec 10, 2021, due Dec 24, 2021, used in ransomware campaignsEPSS 94.36% (percentile 99.96%)',
      'CVE-2024-6387EPSS 37.73% (percentile 97.12%)',
    ])
  })

  it('says a CVE is not in KEV when only EPSS lists it, and shows no card when no feed lists any', () => {
    renderFinding({ intel: findingIntel(['CVE-2024-6387'], (cve) => FEEDS[cve], Date.UTC(2026, 11, 3)) })
    expect(screen.getByRole('region', { name: 'Exploitation' })).toHaveTextContent('Not in CISA’s KEV catalogue')
    cleanup()
    renderFinding({ intel: null })
    expect(screen.queryByRole('region', { name: 'Exploitation' })).toBeNull()
  })
})
