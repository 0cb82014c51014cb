// @vitest-environment happy-dom
// The agent scan panel names the company's scan scope: "none yet" only once the server said so.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ScopeEntry } from '#domain/scan-scope.ts'
import type { Watch } from '~/core/live-data'

// The scope listener, driven by the test; the panel's other lists wait.
const scope = vi.hoisted(() => ({ next: null as ((entries: ScopeEntry[]) => void) | null }))
vi.mock('./analyst-live', () => ({
  watchScanScope: (): Watch<ScopeEntry[]> => (next) => {
    scope.next = next
    return () => {}
  },
  watchLocations: (): Watch<unknown> => () => () => {},
  watchScanJobs: (): Watch<unknown> => () => () => {},
}))

const { QueueScanPanel } = await import('./queue-scan-panel')

afterEach(() => {
  cleanup()
  scope.next = null
})

describe('the scope the agent scan panel names', () => {
  it('is loading until the server answers, and "none yet" only when it answered with none', async () => {
    render(<QueueScanPanel company="acme" service="network" onScan={() => {}} />)
    expect(await screen.findByText('Loading the company’s scan scope…')).toBeInTheDocument()
    expect(screen.queryByText(/none yet/)).toBeNull()
    await vi.waitFor(() => expect(scope.next).not.toBeNull())
    act(() => scope.next!([]))
    expect(screen.getByText(/scan scope: none yet \(set it on the company page\)/)).toBeInTheDocument()
    act(() => scope.next!([{ kind: 'domain', value: 'acme.example' } as ScopeEntry]))
    expect(screen.getByText(/scan scope: acme\.example\./)).toBeInTheDocument()
  })
})
