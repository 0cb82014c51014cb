// @vitest-environment happy-dom
// The publish dialog says, as the server counted it, what publishing does before the click, and
// holds Publish back until it has.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PublicationPreview } from '#domain/scan-import-calls.ts'
import { scanFromDocument, type Scan } from '#domain/scans.ts'

// The callables, answered by the test (the callable itself has its emulator test).
const calls = vi.hoisted(() => ({ made: [] as { name: string; data: unknown; resolve(v: unknown): void; reject(e: unknown): void }[] }))
vi.mock('./analyst-calls', () => ({
  callAnalyst: (name: string, data: unknown) =>
    new Promise((resolve, reject) => {
      calls.made.push({ name, data, resolve, reject })
    }),
  failureMessage: async (error: unknown) => (error instanceof Error ? error.message : String(error)),
}))

const { PublishDialog } = await import('./publish-dialog')

afterEach(() => {
  cleanup()
  calls.made.length = 0
})

const AT = Date.UTC(2026, 0, 10)
const scan: Scan = scanFromDocument('host-scan', {
  service: 'network',
  state: 'draft',
  title: 'One host',
  scopeKey: 'network:10.0.0.5',
  startedAt: AT,
  counts: { bySeverity: {}, total: 0, new: 0, persisting: 0, notDetected: 0, reopened: 0 },
  stats: { service: 'network' },
  updatedAt: AT,
  updatedBy: 'senior@sectest.example',
})!

const last = (name: string) => calls.made.filter((c) => c.name === name).at(-1)!
const answer = async (name: string, value: unknown) => act(async () => last(name).resolve(value))
const preview = (overrides: Partial<PublicationPreview>): PublicationPreview => ({
  scopeKey: 'network:10.0.0.0/24',
  side: false,
  previous: null,
  notDetected: 0,
  held: 0,
  ...overrides,
})

function open(onPublished = vi.fn()) {
  render(<PublishDialog company="acme" scan={scan} open onClose={() => {}} onPublished={onPublished} />)
  return onPublished
}

describe('PublishDialog', () => {
  it('counts before it lets anyone publish, and then says how many findings become not detected and what it compares with', async () => {
    open()
    expect(screen.getByRole('status')).toHaveTextContent('Counting the open findings it would mark not detected')
    expect(screen.getByRole('button', { name: 'Publish' })).toBeDisabled()
    expect(last('previewPublication').data).toEqual({ company: 'acme', scanId: 'host-scan' })
    await answer(
      'previewPublication',
      preview({ previous: { id: 'jan', title: 'January scan', startedAt: AT, publishedAt: AT }, notDetected: 1_095, held: 3 }),
    )
    const said = screen.getByRole('group', { name: 'What publishing does' })
    expect(said).toHaveTextContent(/Compared with January scan \(.+\), the latest published scan of the same scope\./)
    expect(said).toHaveTextContent('1,095 open findings of this scope that it does not list become not detected.')
    expect(said).toHaveTextContent('3 more it does not list keep their status')
    expect(said).not.toHaveTextContent('side scan')
    expect(screen.getByRole('button', { name: 'Publish' })).toBeEnabled()
  })

  it('says a side scan compares with nothing, closes nothing elsewhere and does not become the latest, and publishes it', async () => {
    const onPublished = open()
    await answer('previewPublication', preview({ scopeKey: 'network:10.0.0.5', side: true }))
    const said = screen.getByRole('group', { name: 'What publishing does' })
    expect(said).toHaveTextContent('No published scan has this scope: it compares with nothing.')
    expect(said).toHaveTextContent(
      'A side scan of 10.0.0.5: it closes no finding outside this scope and does not become the service’s latest scan.',
    )
    expect(said).toHaveTextContent('No open finding becomes not detected.')
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }))
    await answer('publishScan', {
      published: true,
      previousScanId: null,
      counts: { total: 2, new: 2, persisting: 0, notDetected: 0, reopened: 0 },
      progress: null,
    })
    expect(onPublished).toHaveBeenCalledWith('Published as a side scan: 2 new, 0 persisting, 0 not detected, 0 reopened.')
  })

  it('holds Publish back when the count fails, and counts again on request', async () => {
    open()
    await act(async () => last('previewPublication').reject(new Error('The service did not answer in time.')))
    expect(screen.getByRole('alert')).toHaveTextContent('could not be counted: The service did not answer in time.')
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Count again' }))
    expect(calls.made.filter((c) => c.name === 'previewPublication')).toHaveLength(2)
    await answer('previewPublication', preview({ notDetected: 1 }))
    expect(screen.getByRole('group', { name: 'What publishing does' })).toHaveTextContent(
      '1 open finding of this scope that it does not list becomes not detected.',
    )
  })
})
