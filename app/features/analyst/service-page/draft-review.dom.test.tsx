// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { draftFindingDocument, type DraftFinding } from '#domain/scan-drafts.ts'
import { scanFromDocument, type Scan } from '#domain/scans.ts'
import type { Watch } from '~/core/live-data'
import type { Capped } from '~/core/watch-query'
import type { DraftFindingsView } from './analyst-live'
import type { DraftFilter } from './draft-filter'

// The review's listeners, answered by the test as Firestore would (analyst-live.ts has its own
// test against the emulators): each watch started is kept with the filter it was asked for.
const listeners = vi.hoisted(() => ({
  draft: [] as { filter: unknown; next: (value: unknown) => void }[],
  merged: [] as { into: string; next: (value: unknown) => void }[],
}))
vi.mock('./analyst-live', () => ({
  watchDraftFindings:
    (_company: string, _scan: string, filter: DraftFilter): Watch<DraftFindingsView> =>
    (next) => {
      listeners.draft.push({ filter, next: next as (value: unknown) => void })
      return () => {}
    },
  watchMergedFindings:
    (_company: string, _scan: string, into: string): Watch<Capped<DraftFinding>> =>
    (next) => {
      listeners.merged.push({ into, next: next as (value: unknown) => void })
      return () => {}
    },
  watchTemplateChoices: (): Watch<unknown[]> => (next) => (
    next([
      { slug: 'xss-reflected', title: 'Reflected cross-site scripting', cwe: ['CWE-79'], services: ['dast'] },
      { slug: 'ssh-weak-ciphers', title: 'Weak SSH ciphers', cwe: [], services: ['network'] },
    ]),
    () => {}
  ),
}))

// The review's calls, answered at once.
const calls = vi.hoisted(() => ({ made: [] as { name: string; data: unknown }[] }))
vi.mock('./analyst-calls', () => ({
  callAnalyst: async (name: string, data: unknown) => {
    calls.made.push({ name, data })
    return { changed: 1 }
  },
  failureMessage: async (error: Error) => error.message,
}))

const { DraftReviewPanel } = await import('./draft-review')

// happy-dom lays nothing out: the table's scroll box is given a screen's height, so rows are drawn.
const layout = Object.getOwnPropertyDescriptors(HTMLElement.prototype)
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 720 })
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 })
})
afterAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', layout.clientHeight!)
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', layout.clientWidth!)
})
afterEach(() => {
  cleanup()
  listeners.draft.length = 0
  listeners.merged.length = 0
  calls.made.length = 0
})

const AT = Date.UTC(2026, 0, 10)
const scan: Scan = scanFromDocument('imp-draft', {
  service: 'dast',
  state: 'draft',
  title: 'Shop scan',
  scopeKey: 'scope',
  startedAt: AT,
  counts: { bySeverity: {}, total: 0, new: 0, persisting: 0, notDetected: 0, reopened: 0 },
  stats: { service: 'dast' },
  updatedAt: AT,
  updatedBy: 'senior@sectest.example',
})!

const findings = (n: number): DraftFinding[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `f${i}`,
    ...draftFindingDocument(
      { ruleId: `rule-${i}`, title: `Finding ${i}`, severity: 'high', target: { kind: 'url', url: `https://shop.example/${i}` }, raw: {} },
      'a'.repeat(64),
      'import@sectest.example',
      AT,
    ),
  }))

const answer = async (value: DraftFindingsView) => act(async () => listeners.draft.at(-1)!.next(value))

describe('DraftReviewPanel', () => {
  it('says it is loading until the first page and the totals are there, never that the draft is empty', async () => {
    render(<DraftReviewPanel company="acme" service="dast" scan={scan} />)
    expect(screen.getByRole('status')).toHaveTextContent("Loading the draft's findings")
    expect(screen.queryByText(/has no findings/)).toBeNull()
    await vi.waitFor(() => expect(listeners.draft).toHaveLength(1))
    await answer({ items: [], more: null, loading: false, totals: { all: 0, unmapped: 0, matching: 0 } })
    expect(screen.getByText(/This draft has no findings/)).toBeVisible()
  })

  it('shows the totals counted on the server, says the list holds only the first page, and shows more', async () => {
    const more = vi.fn()
    render(<DraftReviewPanel company="acme" service="dast" scan={scan} />)
    await vi.waitFor(() => expect(listeners.draft).toHaveLength(1))
    await answer({ items: findings(100), more, loading: false, totals: { all: 12_431, unmapped: 3_002, matching: 12_431 } })
    const review = screen.getByRole('region', { name: 'Review: Shop scan' })
    expect(review).toHaveTextContent('12,431 findings, 3,002 without a template')
    expect(within(review).getByRole('table', { name: 'Draft findings' })).toHaveAttribute('aria-rowcount', '101')
    const cap = within(review).getByRole('note')
    expect(cap).toHaveTextContent('The 100 most severe findings are shown. 12,431 in all; narrow them by template, severity or rule above.')
    await userEvent.click(within(cap).getByRole('button', { name: 'Show more' }))
    expect(more).toHaveBeenCalledOnce()
  })

  it('narrows through the query, clears the selection and says how many match', async () => {
    render(<DraftReviewPanel company="acme" service="dast" scan={scan} />)
    await vi.waitFor(() => expect(listeners.draft).toHaveLength(1))
    await answer({ items: findings(3), more: null, loading: false, totals: { all: 3, unmapped: 3, matching: 3 } })
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Finding 0 on https://shop.example/0' }))
    expect(screen.getByText('1 selected of the 3 shown')).toBeVisible()

    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Without a template')
    await userEvent.selectOptions(screen.getByLabelText('Level'), 'High')
    await userEvent.type(screen.getByLabelText('Rule'), 'rule-1{Enter}')
    await vi.waitFor(() => expect(listeners.draft.at(-1)!.filter).toEqual({ show: 'unmapped', severity: 'high', ruleId: 'rule-1' }))
    await answer({ items: findings(3).slice(1, 2), more: null, loading: false, totals: { all: 3, unmapped: 3, matching: 1 } })
    expect(screen.getByRole('region', { name: 'Review: Shop scan' })).toHaveTextContent(
      '3 findings, 3 without a template; 1 matches the filter',
    )
    expect(screen.getByText('0 selected of the 1 shown')).toBeVisible()
  })
})

const draft = (id: string, url: string, extra: Partial<DraftFinding> = {}): DraftFinding => ({
  id,
  ...draftFindingDocument(
    {
      ruleId: '40012',
      title: 'Cross Site Scripting (Reflected)',
      severity: 'high',
      target: { kind: 'url', url, method: 'GET', parameter: 'q' },
      cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', score: 6.1 },
      cwe: ['CWE-79'],
      cve: ['CVE-2099-0001'],
      description: 'The page echoes the parameter.',
      remediation: 'Encode what is written into the page.',
      evidence: '<script>alert(1)</script>',
      request: 'GET /search?q=%3Cscript%3E HTTP/1.1\nHost: shop.example',
      response: 'HTTP/1.1 200 OK\n\n<html><b id="injected">bold</b><script>alert(1)</script></html>',
      raw: {},
    },
    'a'.repeat(64),
    'import@sectest.example',
    AT,
  ),
  ...extra,
})

const xss = draft('f-xss', 'https://shop.example/search', { instances: 3 })

async function openReview() {
  render(<DraftReviewPanel company="acme" service="dast" scan={scan} />)
  await vi.waitFor(() => expect(listeners.draft).toHaveLength(1))
  await answer({ items: [xss], more: null, loading: false, totals: { all: 1, unmapped: 1, matching: 1 } })
}

describe('the draft finding detail', () => {
  it('opens from its row with the keyboard, shows everything the scanner sent as text, and closes with Escape back on the row', async () => {
    await openReview()
    const open = screen.getByRole('button', { name: 'Open Cross Site Scripting (Reflected) on https://shop.example/search' })
    open.focus()
    await userEvent.keyboard('{Enter}')

    const dialog = await screen.findByRole('dialog', { name: 'Cross Site Scripting (Reflected)' })
    expect(dialog).toHaveAccessibleDescription('High on https://shop.example/search, reported by rule 40012')
    const facts = within(dialog).getByLabelText('About this finding')
    expect(facts).toHaveTextContent('CVSS6.1 (CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N)')
    expect(facts).toHaveTextContent('CWECWE-79')
    expect(facts).toHaveTextContent('CVECVE-2099-0001')
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Cross Site Scripting (Reflected)')
    expect(within(dialog).getByLabelText('Description')).toHaveValue('The page echoes the parameter.')
    expect(within(dialog).getByLabelText('Remediation')).toHaveValue('Encode what is written into the page.')

    // Evidence, request and response are monospace boxes of text: the markup in them is not rendered.
    const evidence = within(dialog).getByRole('region', { name: 'Evidence' })
    expect(evidence.querySelector('pre')).toHaveTextContent('<script>alert(1)</script>')
    const response = within(dialog).getByRole('region', { name: 'Response' }).querySelector('pre')!
    expect(response.textContent).toBe(xss.response)
    expect(document.getElementById('injected')).toBeNull()
    expect(dialog.querySelector('script, b')).toBeNull()
    expect(within(dialog).getByRole('region', { name: 'Request' }).querySelector('pre')).toHaveTextContent(
      'GET /search?q=%3Cscript%3E HTTP/1.1',
    )

    // Its instances: its own (seen three times) and those of the finding merged into it.
    await vi.waitFor(() => expect(listeners.merged.at(-1)?.into).toBe('f-xss'))
    await act(async () =>
      listeners.merged.at(-1)!.next({
        items: [draft('f-other', 'https://shop.example/find', { mergedInto: 'f-xss', instances: 2, title: 'XSS on find' })],
        more: false,
      }),
    )
    expect(within(dialog).getByRole('heading', { name: '5 instances' })).toBeVisible()
    const locations = within(dialog).getByRole('list', { name: 'Locations' })
    expect(
      within(locations)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'GET https://shop.example/search (parameter q) (seen 3 times)',
      'GET https://shop.example/find (parameter q) (seen 2 times) Merged: XSS on find',
    ])

    await userEvent.keyboard('{Escape}')
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await vi.waitFor(() => expect(open).toHaveFocus())
  })

  it('maps the finding to a template of its service from its detail, remembered for its rule', async () => {
    await openReview()
    await userEvent.click(screen.getByRole('button', { name: /^Open Cross Site Scripting/ }))
    const dialog = await screen.findByRole('dialog')
    const picker = within(dialog).getByRole('combobox', { name: 'Template' })
    await userEvent.click(picker)
    // Suggested by its CWE, and no network template offered for a DAST finding.
    expect(within(dialog).getByRole('group', { name: 'Suggested for this finding' })).toHaveTextContent('Reflected cross-site scripting')
    expect(within(dialog).queryByRole('option', { name: /Weak SSH ciphers/ })).toBeNull()
    // Escape closes the list first, and only then the panel.
    await userEvent.keyboard('{Escape}')
    expect(picker).toHaveAttribute('aria-expanded', 'false')
    expect(dialog).toBeVisible()
    await userEvent.keyboard('{ArrowDown}{Enter}')
    expect(calls.made).toEqual([
      {
        name: 'reviewDraftFindings',
        data: {
          company: 'acme',
          scanId: 'imp-draft',
          findingIds: ['f-xss'],
          review: { kind: 'template', templateSlug: 'xss-reflected', remember: true },
        },
      },
    ])
  })

  it('says loading, not a count, until the merged findings are known', async () => {
    await openReview()
    await userEvent.click(screen.getByRole('button', { name: /^Open Cross Site Scripting/ }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Instances' })).toBeVisible()
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading the findings merged into this one')
  })
})
