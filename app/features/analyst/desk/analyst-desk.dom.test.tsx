// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { findingFromDocument } from '#domain/findings.ts'
import { retestFromDocument } from '#domain/retests.ts'
import { scanFromDocument, type Scan } from '#domain/scans.ts'
import { DEMO_COMPANIES } from '../../../../emulators/seed/demo-accounts.ts'
import { findingDocument, retestDocument } from '../../../../tests/builders.ts'
import { DESK_LIMITS, deskServices, type DeskData, type DeskService } from './desk-data'
import { DeskView } from './analyst-desk'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 24, 12)

const scan = (id: string, service: string, state: string, files: string[], at: number): Scan =>
  scanFromDocument(id, {
    service,
    state,
    title: `Scan ${id}`,
    scopeKey: 'scope',
    startedAt: at,
    counts: { bySeverity: {}, total: 3, new: 1, persisting: 2, notDetected: 0, reopened: 0 },
    stats: { service: 'network' },
    files: files.map((name) => ({ name, sha256: 'a'.repeat(64), size: 10, format: 'nmap_xml', tool: 'Nmap', toolVersion: '7.95' })),
    importReport: files.length ? { findings: 42, assets: 3, skipped: 0, warnings: 0 } : null,
    updatedAt: at + DAY,
    updatedBy: 'senior@sectest.example',
  })!

/** A service's lists as the listeners give them: each holds them all unless `more` says otherwise. */
const whole = <T,>(items: T[]) => ({ items, more: false, total: items.length })
const nothing = (service: DeskService['service']): DeskService => ({
  service,
  drafts: whole([]),
  scans: whole([]),
  retests: { ...whole([]), overdue: 0 },
  disputed: whole([]),
})

function renderDesk(data: DeskData) {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <DeskView data={data} now={NOW} /> }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return render(<RouterProvider router={router} />)
}

afterEach(cleanup)

describe('deskServices', () => {
  const acme = DEMO_COMPANIES.find((c) => c.slug === 'acme')!
  it('gives a senior analyst every service the company uses, a level-5 analyst only password cracking they manage', () => {
    expect(deskServices({ userType: 'analyst', accessLevel: LEVEL.seniorAnalyst }, acme)).toEqual([
      'projectmariana',
      'password_cracking',
      'dast',
      'network',
      'cloud',
    ])
    expect(deskServices({ userType: 'analyst', accessLevel: LEVEL.analyst, servicesManaged: ['password_cracking'] }, acme)).toEqual([
      'password_cracking',
    ])
    expect(deskServices({ userType: 'analyst', accessLevel: LEVEL.analyst, servicesManaged: [] }, acme)).toEqual([])
    expect(deskServices({ userType: 'client', accessLevel: LEVEL.companyAdmin }, acme)).toEqual([])
  })
})

describe('DeskView', () => {
  const data: DeskData = {
    company: 'acme',
    services: [
      {
        service: 'network',
        drafts: whole([scan('imp-1', 'network', 'draft', ['hosts.xml'], NOW - 2 * DAY)]),
        scans: whole([
          scan('imp-1', 'network', 'draft', ['hosts.xml'], NOW - 2 * DAY),
          scan('network-2026-11', 'network', 'published', [], NOW - 20 * DAY),
        ]),
        retests: {
          ...whole([
            retestFromDocument('late', retestDocument('network', ['f1', 'f2'], {}, NOW - 10 * DAY))!,
            retestFromDocument('soon', retestDocument('network', ['f3'], {}, NOW - 2 * DAY))!,
          ]),
          overdue: 1,
        },
        disputed: whole([findingFromDocument('fp-1', findingDocument('network', { status: 'disputed', title: 'Telnet open' }))!]),
      },
      nothing('password_cracking'),
    ],
  }

  it('lists drafts with a link to review them, retests by deadline with the overdue marked, disputes and imports', async () => {
    renderDesk(data)
    const drafts = await screen.findByRole('region', { name: 'Drafts waiting to be published' })
    const draftLink = within(drafts).getByRole('link', { name: 'Scan imp-1' })
    expect(draftLink.getAttribute('href')).toBe('/analyst/services/network?scan=imp-1')
    const draftRow = draftLink.closest('tr')!
    expect(draftRow.textContent).toContain('Nmap 7.95')
    expect(draftRow.textContent).toContain('42')

    const retests = screen.getByRole('region', { name: 'Retests requested' })
    const rows = within(retests).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('Overdue by 3 days'), expect.stringContaining('5 days left')])
    expect(rows[0]!.textContent).toContain('2 findings')
    expect(within(rows[0]!).getByRole('link', { name: 'Open the Network retest queue' }).getAttribute('href')).toBe(
      '/analyst/services/network',
    )

    const disputed = screen.getByRole('region', { name: 'Findings disputed by clients' })
    expect(within(disputed).getByRole('link', { name: 'Telnet open' }).getAttribute('href')).toBe('/reports/network/fp-1')

    const imports = screen.getByRole('region', { name: 'Latest imports' })
    expect(
      within(imports)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Scan imp-1'])

    const tile = screen.getByTestId('desk-tile-network')
    expect(within(tile).getByText('Retests overdue').nextElementSibling?.textContent).toBe('1')
    expect(within(screen.getByTestId('desk-tile-password_cracking')).queryByText('Retests overdue')).toBeNull()
    // Everything is shown: no line says otherwise.
    expect(screen.queryByRole('note')).toBeNull()
  })

  it('says which part of a list is shown when a service holds more than the desk follows, and counts them all', async () => {
    const retests = Array.from({ length: DESK_LIMITS.retests }, (_, i) =>
      retestFromDocument(`r${i}`, retestDocument('network', [`f${i}`], {}, NOW - 30 * DAY + i * 3_600_000))!,
    )
    renderDesk({
      company: 'acme',
      services: [{ ...nothing('network'), retests: { items: retests, more: true, total: 180, overdue: 120 } }],
    })
    const region = await screen.findByRole('region', { name: 'Retests requested' })
    expect(within(region).getAllByRole('row').slice(1)).toHaveLength(DESK_LIMITS.retests)
    expect(within(region).getByRole('note').textContent).toContain(`The ${DESK_LIMITS.retests} soonest due retests of a service are shown`)
    const tile = screen.getByTestId('desk-tile-network')
    // The server's counts, not the rows loaded.
    expect(within(tile).getByText('Retests requested').nextElementSibling?.textContent).toBe('180')
    expect(within(tile).getByText('Retests overdue').nextElementSibling?.textContent).toBe('120')
    expect(within(screen.getByRole('region', { name: 'Drafts waiting to be published' })).queryByRole('note')).toBeNull()
  })

  it('says so when there is nothing to do, and every region can take the keyboard focus', async () => {
    renderDesk({ company: 'acme', services: [nothing('dast')] })
    expect(await screen.findByText('No drafts are waiting.')).toBeTruthy()
    expect(screen.getByText('No retests are waiting: clients have not asked for any.')).toBeTruthy()
    expect(screen.getByText('No findings are disputed.')).toBeTruthy()
    expect(screen.getByText('Nothing has been imported yet.')).toBeTruthy()
    renderDesk(data)
    const tables = await screen.findAllByRole('group')
    expect(tables).toHaveLength(4)
    for (const table of tables) expect(table.getAttribute('tabindex')).toBe('0')
  })
})
