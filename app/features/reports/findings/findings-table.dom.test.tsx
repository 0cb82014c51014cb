// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { useState } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Access } from '#domain/access.ts'
import type { Finding } from '#domain/findings.ts'
import { findingDocument } from '../../../../tests/builders.ts'
import { FindingsView } from './findings-section'
import type { FindingsSearch } from './findings-search-params'

afterEach(cleanup)

// happy-dom lays nothing out: the table's scroll box is given a screen's height, as a browser would,
// so the virtualiser renders the rows in view.
const layout = Object.getOwnPropertyDescriptors(HTMLElement.prototype)
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 720 })
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 })
})
afterAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', layout.clientHeight!)
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', layout.clientWidth!)
})

const NOW = Date.UTC(2026, 1, 1)

const finding = (id: string, overrides: Partial<Finding>): Finding => ({ id, ...findingDocument('dast', overrides), ...overrides })

const findings: Finding[] = [
  finding('a', { title: 'SQL injection', severity: 'critical', asset: 'https://shop.acme.example/cart', tags: ['injection'] }),
  finding('b', { title: 'Cross-site scripting', severity: 'high', asset: 'https://shop.acme.example/search', tags: ['xss'] }),
  finding('c', { title: 'Cross-site scripting', severity: 'high', asset: 'https://blog.acme.example/comments', tags: ['xss'] }),
  finding('d', { title: 'Missing HSTS header', severity: 'low', asset: 'https://blog.acme.example/', status: 'fixed', closedAt: NOW }),
  finding('e', { title: 'Banner disclosure', severity: 'info', asset: 'https://shop.acme.example/', status: 'in_remediation' }),
]

const manager: Access = { accessLevel: 2, userType: 'client' }
const viewer: Access = { accessLevel: 1, userType: 'client' }

/** The view in a router (its links need one), its search state kept as the route keeps it. */
function renderTable(access: Access, initial: FindingsSearch = {}) {
  const seen: FindingsSearch[] = []
  function Harness() {
    const [search, setSearch] = useState<FindingsSearch>(initial)
    return (
      <FindingsView
        findings={findings}
        workspace={{ access }}
        company="acme"
        search={search}
        onSearchChange={(next) => {
          seen.push(next)
          setSearch(next)
        }}
        findingHref={(id) => `/reports/dast/${id}`}
        now={NOW}
      />
    )
  }
  const router = createRouter({
    routeTree: createRootRoute({ component: Harness }),
    history: createMemoryHistory({ initialEntries: ['/reports/dast'] }),
  })
  render(<RouterProvider router={router} />)
  return { seen, user: userEvent.setup() }
}

/** The finding titles of the table's rows, top to bottom. */
const titles = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('a')?.textContent ?? row.textContent)

describe('findings table', () => {
  it('lists the findings, most severe first, with their SLA', async () => {
    renderTable(manager)
    expect(await screen.findByRole('link', { name: 'SQL injection' })).toHaveAttribute('href', '/reports/dast/a')
    expect(titles()).toEqual(['SQL injection', 'Cross-site scripting', 'Cross-site scripting', 'Missing HSTS header', 'Banner disclosure'])
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('5 findings')
    // Critical SLA: 7 days from 5 January, long breached on 1 February; the fixed one has none.
    const sql = screen.getByRole('link', { name: 'SQL injection' }).closest('tr')!
    expect(within(sql).getByText(/^Breached \d+ days ago$/)).toBeInTheDocument()
    const hsts = screen.getByRole('link', { name: 'Missing HSTS header' }).closest('tr')!
    expect(within(hsts).getByText('No deadline')).toBeInTheDocument()
  })

  it('filters by severity and status, the choices kept as lists in the search', async () => {
    const { seen, user } = renderTable(manager)
    const severity = await screen.findByRole('group', { name: 'Severity' })
    await user.click(within(severity).getByRole('button', { name: /^High/ }))
    expect(titles()).toEqual(['Cross-site scripting', 'Cross-site scripting'])
    await user.click(within(severity).getByRole('button', { name: /^Critical/ }))
    expect(seen.at(-1)?.severity).toEqual(['high', 'critical'])
    expect(titles()).toEqual(['SQL injection', 'Cross-site scripting', 'Cross-site scripting'])
    expect(screen.getByText('3 of 5 findings')).toBeInTheDocument()

    await user.click(within(severity).getByRole('button', { name: /^High/ }))
    await user.click(within(severity).getByRole('button', { name: /^Critical/ }))
    const status = screen.getByRole('group', { name: 'Status' })
    await user.click(within(status).getByRole('button', { name: /^Fixed/ }))
    expect(seen.at(-1)).toMatchObject({ severity: undefined, status: ['fixed'] })
    expect(titles()).toEqual(['Missing HSTS header'])
  })

  it('filters by asset and tag, and searches the text', async () => {
    const { user } = renderTable(manager)
    await user.type(await screen.findByRole('combobox', { name: 'Filter by tag' }), 'xss{Enter}')
    expect(titles()).toEqual(['Cross-site scripting', 'Cross-site scripting'])
    await user.type(screen.getByRole('combobox', { name: 'Filter by asset' }), 'https://blog.acme.example/comments{Enter}')
    expect(screen.getAllByRole('row')).toHaveLength(2)
    await user.click(screen.getByRole('button', { name: 'Remove tag filter xss' }))
    await user.click(screen.getByRole('button', { name: 'Remove asset filter https://blog.acme.example/comments' }))
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'banner')
    expect(titles()).toEqual(['Banner disclosure'])
  })

  it('sorts by a column from its header, both ways, and says so', async () => {
    const { seen, user } = renderTable(manager)
    await user.click(await screen.findByRole('button', { name: 'Finding' }))
    expect(seen.at(-1)?.sort).toBe('title')
    expect(screen.getByRole('columnheader', { name: /Finding/ })).toHaveAttribute('aria-sort', 'ascending')
    expect(titles()).toEqual(['Banner disclosure', 'Cross-site scripting', 'Cross-site scripting', 'Missing HSTS header', 'SQL injection'])
    await user.click(screen.getByRole('button', { name: /Finding/ }))
    expect(seen.at(-1)?.sort).toBe('-title')
    expect(titles()[0]).toBe('SQL injection')
    await user.click(screen.getByRole('button', { name: /Severity/ }))
    expect(seen.at(-1)?.sort).toBeUndefined()
  })

  it('groups by finding and by asset; a group opens from the keyboard', async () => {
    const { user } = renderTable(manager, { group: 'title' })
    const group = await screen.findByRole('button', { name: /Cross-site scripting 2 findings/ })
    expect(group).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getAllByRole('row')).toHaveLength(1 + 4)
    group.focus()
    await user.keyboard('{Enter}')
    expect(group).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getAllByRole('link', { name: 'Cross-site scripting' })).toHaveLength(2)

    await user.click(screen.getByRole('radio', { name: 'By asset' }))
    expect(screen.getAllByRole('button', { name: /1 finding$/ })).toHaveLength(5)
  })

  it('offers a manager the bulk retest of a selection; a viewer gets no bulk moves', async () => {
    const { user } = renderTable(manager)
    await user.click(await screen.findByRole('checkbox', { name: 'Select SQL injection on https://shop.acme.example/cart' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select Missing HSTS header on https://blog.acme.example/' }))
    const bulk = screen.getByRole('group', { name: 'Selected findings' })
    // The fixed finding cannot be retested: one of the two can.
    expect(within(bulk).getByRole('button', { name: 'Request retest (1)' })).toBeEnabled()
    await user.click(within(bulk).getByRole('button', { name: 'Request retest (1)' }))
    expect(await screen.findByRole('dialog', { name: 'Request retest' })).toBeInTheDocument()
    cleanup()

    renderTable(viewer)
    await screen.findByRole('link', { name: 'SQL injection' })
    expect(screen.queryByRole('group', { name: 'Selected findings' })).toBeNull()
  })
})
