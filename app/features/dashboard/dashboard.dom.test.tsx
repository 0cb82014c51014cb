// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { allCompanyFlags } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { CompanyActivity } from '#domain/company-activity.ts'
import { readServiceStats } from '#domain/service-stats.ts'
import type { Watch } from '~/core/live-data'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import type { DashboardData } from './dashboard-live'

// The dashboard's listener module, driven by the test.
const live = vi.hoisted(() => ({ started: [] as unknown[][], next: (_: unknown) => {}, visits: 0 }))
vi.mock('./dashboard-live', () => ({
  watchDashboard:
    (...args: unknown[]): Watch<DashboardData> =>
    (next) => {
      live.started.push(args)
      live.next = next as (value: unknown) => void
      return () => {}
    },
  markVisited: async () => {
    live.visits += 1
  },
}))

const { Dashboard } = await import('./dashboard')

beforeEach(() => {
  live.started = []
  live.visits = 0
})
afterEach(cleanup)

const session: Session = { uid: 'me', email: 'viewer@acme.example', userType: 'client', accessLevel: 1 }
const acme: Company = { slug: 'acme', companyName: 'Acme', ...allCompanyFlags(false), enableDast: true, enableViewCloudScanStats: true }

const workspace = (lastVisitAt: number | null, servicesEnabled: string[] = ['dast', 'cloud']): Workspace => ({
  access: { accessLevel: 1, userType: 'client', servicesEnabled },
  preferences: { defaultCompany: null, displayName: 'Vera', photoURL: '', lastVisitAt },
  companies: [acme],
  company: acme,
})

const activity = (id: string, over: Partial<CompanyActivity>): CompanyActivity => ({
  id,
  type: 'findings_new',
  service: 'dast',
  summary: '',
  count: 1,
  scanId: null,
  findingId: null,
  retestId: null,
  at: Date.UTC(2026, 0, 10),
  byName: '',
  ...over,
})

async function renderDashboard(ws: Workspace, askForAccess?: ReactNode) {
  const rootRoute = createRootRoute({ component: () => <Dashboard session={session} workspace={ws} askForAccess={askForAccess} /> })
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) })
  render(<RouterProvider router={router} />)
  await screen.findByRole('heading', { level: 1 })
}

describe('Dashboard', () => {
  it('shows what changed since the last visit, per service the person may see, as links, then stamps the visit', async () => {
    const lastVisit = Date.UTC(2026, 0, 1)
    await renderDashboard(workspace(lastVisit))
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome back')
    await vi.waitFor(() => expect(live.started).toEqual([['acme', ['dast', 'cloud'], lastVisit]]))
    expect(live.visits).toBe(0)

    act(() =>
      live.next({
        activity: [
          activity('a', { count: 3, scanId: 'dast-7' }),
          activity('b', {
            type: 'scan_published',
            service: 'cloud',
            at: Date.UTC(2026, 0, 9),
            scanId: 'cloud-9',
            summary: 'Cloud review, January 2026 published: 2 new',
          }),
          activity('c', { type: 'retest_completed', at: Date.UTC(2026, 0, 8) }),
        ],
        stats: { dast: readServiceStats({ dueSoon: { high: 2 }, breached: { critical: 1 } }), cloud: readServiceStats({}) },
      }),
    )
    const changes = within(screen.getByTestId('dashboard-changes')).getAllByRole('link')
    expect(changes.map((link) => link.getAttribute('href'))).toEqual([
      '/reports/dast?scan=dast-7',
      '/reports/cloud?scan=cloud-9',
      '/reports/dast',
    ])
    // Each link's name says what happened and where it leads.
    expect(changes[0]).toHaveAccessibleName(/^3 new findings in DAST Opens the DAST report at the scan they came from/)
    expect(changes[1]).toHaveAccessibleName(/^Cloud: Cloud review, January 2026 published: 2 new Opens the Cloud report at this scan/)
    expect(changes[2]).toHaveAccessibleName(/^1 retest completed in DAST Opens the DAST report/)
    const sla = within(screen.getByTestId('dashboard-sla')).getByRole('link')
    expect(sla).toHaveTextContent('1 finding past its SLA, 2 findings due soon in DAST')
    expect(sla).toHaveAttribute('href', '/reports/dast?sort=sla')
    await vi.waitFor(() => expect(live.visits).toBe(1))
  })

  it('welcomes a first-time visitor and shows the latest news instead', async () => {
    await renderDashboard(workspace(null, ['dast']))
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome to Bulwark')
    expect(screen.queryByText('Welcome back')).toBeNull()
    await vi.waitFor(() => expect(live.started).toEqual([['acme', ['dast'], null]]))
    act(() => live.next({ activity: [], stats: {} }))
    expect(screen.getByRole('heading', { name: 'Latest in Acme' })).toBeInTheDocument()
    expect(screen.getByText('Nothing has been published yet.')).toBeInTheDocument()
  })

  it('follows nothing for a person who may see no report of the company, and offers them to ask for access', async () => {
    await renderDashboard(workspace(null, []), <button type="button">Ask for access</button>)
    const card = screen.getByRole('region', { name: 'No reports for you yet' })
    expect(card).toHaveTextContent('You cannot see any of Acme’s reports yet')
    expect(within(card).getByRole('button', { name: 'Ask for access' })).toBeVisible()
    expect(live.started).toEqual([])
  })

  it('offers a person of no company to ask for access', async () => {
    await renderDashboard({ ...workspace(null, []), companies: [], company: null }, <button type="button">Ask for access</button>)
    const card = screen.getByRole('region', { name: 'No company yet' })
    expect(card).toHaveTextContent('You are not a member of any company yet')
    expect(within(card).getByRole('button', { name: 'Ask for access' })).toBeVisible()
  })

  it('says when a service had more updates since the last visit than are summed', async () => {
    await renderDashboard(workspace(Date.UTC(2026, 0, 1)))
    await vi.waitFor(() => expect(live.started).toHaveLength(1))
    act(() => live.next({ activity: [activity('a', { count: 3 })], stats: {}, capped: [] }))
    expect(screen.queryByRole('note')).toBeNull()
    act(() => live.next({ activity: [activity('a', { count: 3 })], stats: {}, capped: ['dast'] }))
    expect(screen.getByRole('note')).toHaveTextContent(
      'More happened in DAST than is summed here (the latest 200 updates of each are): its report holds every figure.',
    )
  })
})
