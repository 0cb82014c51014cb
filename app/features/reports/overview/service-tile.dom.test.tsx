// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { readServiceStats } from '#domain/service-stats.ts'
import { scanFromDocument, type Scan } from '#domain/scans.ts'
import type { ServiceOverview } from '../data/report-data'
import { ServiceTile, trendLine } from './service-tile'
import { formatTime } from '~/ui/local-time'

const scan = (id: string, previousScanId: string | null): Scan =>
  scanFromDocument(id, {
    service: 'dast',
    state: 'published',
    title: 'Monthly',
    scopeKey: 'web',
    startedAt: Date.UTC(2026, 2, 3),
    publishedAt: Date.UTC(2026, 2, 4),
    previousScanId,
    counts: { bySeverity: {}, total: 10, new: 3, persisting: 7, notDetected: 5, reopened: 1 },
    stats: { service: 'dast', targets: 1, instances: 4 },
    updatedAt: 0,
    updatedBy: 'a@b.example',
  })!

function renderTile(overview: ServiceOverview) {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <ServiceTile overview={overview} /> }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return render(<RouterProvider router={router} />)
}

afterEach(cleanup)

describe('ServiceTile', () => {
  it('shows open findings by severity, the trend, the SLA and the last scan, with a link to the report', async () => {
    renderTile({
      service: 'dast',
      results: true,
      stats: readServiceStats({ open: { critical: 2, high: 5 }, breached: { critical: 1 }, dueSoon: { high: 3 } }),
      scans: [scan('s2', 's1')],
    })
    const tile = await screen.findByRole('article', { name: 'DAST' })
    expect(tile.textContent).toContain('7open findings')
    expect(screen.getByText('2 critical')).toBeTruthy()
    expect(screen.getByText('5 high')).toBeTruthy()
    expect(screen.getByText('3 new, 5 no longer detected, 1 reopened')).toBeTruthy()
    expect(screen.getByText('SLA breached').nextElementSibling?.textContent).toBe('1')
    expect(screen.getByText('SLA due soon').nextElementSibling?.textContent).toBe('3')
    expect(screen.getByText(formatTime(Date.UTC(2026, 2, 4), 'date'))).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Open the DAST report' }).getAttribute('href')).toBe('/reports/dast')
  })

  it('says when no scan is published yet', async () => {
    renderTile({ service: 'network', results: true, stats: readServiceStats(undefined), scans: [] })
    expect(await screen.findByText('No scans published yet.')).toBeTruthy()
    expect(screen.queryByText('SLA breached')).toBeNull()
  })

  it('says first scan only of the first', () => {
    const overview = (scans: Scan[]): ServiceOverview => ({ service: 'dast', results: true, stats: readServiceStats(undefined), scans })
    expect(trendLine(overview([scan('s1', null)]))).toBe('first scan')
    // The 13th scan covered a scope no earlier scan did: there is nothing to compare with, and it is not the first.
    expect(trendLine(overview([scan('s13', null), scan('s12', 's11'), scan('s11', 's10')]))).toBe('no earlier scan of this scope')
    expect(trendLine(overview([]))).toBeNull()
  })

  it('does not call a later scan of a new scope the first', async () => {
    renderTile({ service: 'dast', results: true, stats: readServiceStats(undefined), scans: [scan('s13', null), scan('s12', 's11')] })
    await screen.findByRole('article', { name: 'DAST' })
    expect(screen.getByText('Since the last scan').nextElementSibling?.textContent).toBe('no earlier scan of this scope')
  })
})
