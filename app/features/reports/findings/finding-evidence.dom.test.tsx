// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Finding } from '#domain/findings.ts'
import { findingDocument } from '../../../../tests/builders.ts'
import { FindingView } from './finding-page'

afterEach(cleanup)

// What a scanned site can put in a scanner's output: a link, a heading and a bare address.
const hostile = ['[Reset your password](https://evil.example)', '# Your account is locked', 'Call https://evil.example/login now'].join(
  '\n\n',
)

function renderFinding(overrides: Partial<Finding>) {
  render(
    <FindingView
      company="acme"
      finding={{ id: 'f1', ...findingDocument('dast', overrides) }}
      workspace={{ access: { accessLevel: 1, userType: 'client' } }}
      history={[]}
      comments={[]}
      occurrences={[{ id: 'scan-2', scanId: 'scan-2', at: Date.UTC(2026, 0, 6), location: {}, evidence: hostile }]}
      retests={[]}
    />,
  )
}

describe('scanner evidence on a finding page', () => {
  it.each(['Evidence', 'Seen in scans'])('%s shows the evidence verbatim, with no link or heading of its own', (card) => {
    renderFinding({ evidence: hostile })
    const region = screen.getByRole('region', { name: card })
    expect(within(region).queryAllByRole('link')).toEqual([])
    expect(
      within(region)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual([card])
    expect(region.querySelector('pre')).toHaveTextContent(hostile, { normalizeWhitespace: false })
  })

  it('keeps the template text as Markdown', () => {
    renderFinding({ description: 'See [the guide](https://docs.example/guide).' })
    const description = screen.getByRole('region', { name: 'Description' })
    expect(within(description).getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://docs.example/guide')
  })
})
