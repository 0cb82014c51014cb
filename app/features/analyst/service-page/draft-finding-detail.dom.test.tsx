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

// The review's listeners, answered by the test as Firestore would (analyst-live.ts has its own
// test against the emulators).
const listeners = vi.hoisted(() => ({
  draft: [] as ((value: unknown) => void)[],
  merged: [] as { into: string; next: (value: unknown) => void }[],
}))
vi.mock('./analyst-live', () => ({
  watchDraftFindings: (): Watch<DraftFindingsView> => (next) => {
    listeners.draft.push(next as (value: unknown) => void)
    return () => {}
  },
  watchMergedFindings:
    (_company: string, _scan: string, into: string): Watch<Capped<DraftFinding>> =>
    (next) => {
      listeners.merged.push({ into, next: next as (value: unknown) => void })
      return () => {}
    },
  watchTemplateChoices: (): Watch<unknown[]> => (next) => (next([]), () => {}),
}))

const { DraftReviewPanel } = await import('./draft-review')

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
  await act(async () => listeners.draft[0]!({ items: [xss], more: null, loading: false, totals: { all: 1, unmapped: 1, matching: 1 } }))
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

  it('says loading, not a count, until the merged findings are known', async () => {
    await openReview()
    await userEvent.click(screen.getByRole('button', { name: /^Open Cross Site Scripting/ }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Instances' })).toBeVisible()
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading the findings merged into this one')
  })
})
