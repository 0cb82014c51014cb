// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AuditEvent } from '#domain/audit-events.ts'
import type { Watch } from '~/core/live-data'
import type { Paged } from '~/core/watch-query'

// The trail's listener, answered by the test as the paged listener would.
const listener = vi.hoisted(() => ({ next: null as ((value: unknown) => void) | null, more: 0 }))
vi.mock('./org-live', () => ({
  watchCompanyAudit: (): Watch<Paged<AuditEvent>> => (next) => {
    listener.next = next as (value: unknown) => void
    return () => {}
  },
}))

const { CompanyAuditTrail } = await import('./audit-trail')

afterEach(() => {
  cleanup()
  listener.next = null
})

const events = (from: number, to: number): AuditEvent[] =>
  Array.from({ length: to - from }, (_, i) => ({
    id: `e${from + i}`,
    actorUid: 'admin',
    actorEmail: 'admin@acme.example',
    action: 'user.invited',
    target: { kind: 'user', id: `u${from + i}`, label: `person${from + i}@acme.example` },
    companyId: 'acme',
    audience: 'analysts',
    before: null,
    after: null,
    at: Date.UTC(2026, 0, 1) - (from + i) * 60_000,
  }))

describe('CompanyAuditTrail', () => {
  it('shows a page of events, says so, and adds the next page on Show more', async () => {
    render(<CompanyAuditTrail company="acme" />)
    await vi.waitFor(() => expect(listener.next).not.toBeNull())
    const more = () => {
      listener.more++
    }
    await act(async () => listener.next!({ items: events(0, 50), more, loading: false }))
    expect(screen.getByRole('note')).toHaveTextContent('The 50 most recent changes are shown. The filter and sort apply to these.')
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }))
    expect(listener.more).toBe(1)

    await act(async () => listener.next!({ items: events(0, 50), more, loading: true }))
    expect(screen.getByRole('button', { name: 'Loading more…' })).toBeDisabled()
    // The last page: every event is there and the line goes.
    await act(async () => listener.next!({ items: events(0, 80), more: null, loading: false }))
    expect(screen.queryByRole('note')).toBeNull()
  })
})
