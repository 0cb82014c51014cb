// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { useState } from 'react'
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Access } from '#domain/access.ts'
import type { ServiceId } from '#domain/services.ts'
import { withCves, type Finding } from '#domain/findings.ts'
import { findingIntel } from '#domain/vuln-intel.ts'
import { FINDINGS_INDEX, FINDINGS_INDEX_SETTINGS_LIST, findingSearchRecord, type FindingRowHit } from '#domain/findings-search.ts'
import { applyIndexSettings, algoliaHosts } from '#domain/template-search.ts'
import { notAsked } from '~/core/live-data'
import { startSearchEmulator, type SearchEmulator } from '../../../../emulators/search/search-emulator.ts'
import { findingDocument, SAMPLE_CVE_INTEL } from '../../../../tests/builders.ts'
import { FindingsView, type FindingsLiveSources } from './findings-section'
import type { FindingsSearcher } from './findings-results'
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

// Two findings with CVEs the feeds list: one known exploited, one with an EPSS score only.
const intelOf = (cve: string) => ({ ...withCves([cve]), intel: findingIntel([cve], (id) => SAMPLE_CVE_INTEL[id], NOW) })

const findings: Finding[] = [
  finding('a', {
    title: 'SQL injection',
    severity: 'critical',
    asset: 'https://shop.acme.example/cart',
    tags: ['injection'],
    ...intelOf('CVE-2021-44228'),
  }),
  finding('b', { title: 'Cross-site scripting', severity: 'high', asset: 'https://shop.acme.example/search', tags: ['xss'] }),
  finding('c', { title: 'Cross-site scripting', severity: 'high', asset: 'https://blog.acme.example/comments', tags: ['xss'] }),
  finding('d', { title: 'Missing HSTS header', severity: 'low', asset: 'https://blog.acme.example/', status: 'fixed', closedAt: NOW }),
  finding('e', {
    title: 'Banner disclosure',
    severity: 'info',
    asset: 'https://shop.acme.example/',
    status: 'in_remediation',
    ...intelOf('CVE-2024-6387'),
  }),
]

// The table asks a real search emulator (in this process), holding these findings as the index would.
const credentials = { appId: 'TABLETEST', adminApiKey: 'admin-key', searchApiKey: 'search-key' }
let emulator: SearchEmulator
let client: Algoliasearch
const asked: unknown[][] = []
const searcher: FindingsSearcher = async (requests) => {
  asked.push([...requests])
  const { results } = await client.search<FindingRowHit>({ requests: [...requests] })
  return results.map((result) => {
    if (!('hits' in result)) throw new Error('no hits')
    return { hits: result.hits, nbHits: result.nbHits ?? 0, facets: result.facets ?? {} }
  })
}
const noLiveParts: FindingsLiveSources = { figures: notAsked, findings: notAsked }

beforeAll(async () => {
  emulator = await startSearchEmulator({ port: 0, ...credentials })
  client = algoliasearch(credentials.appId, credentials.adminApiKey, {
    hosts: algoliaHosts({ hosts: [emulator.host], protocol: 'http' }, 'readWrite'),
  })
  await applyIndexSettings(client, FINDINGS_INDEX_SETTINGS_LIST)
  // Another company's finding, to show the table keeps to the service (the key keeps it to the company).
  const other = {
    ...finding('x', { title: 'SQL injection', severity: 'critical', asset: 'ssh://10.0.0.1:22' }),
    service: 'network' as const,
  }
  await client.saveObjects({
    indexName: FINDINGS_INDEX,
    objects: [...findings, other].map((f) => ({ ...findingSearchRecord('acme', f) })),
    waitForTasks: true,
  })
})
afterAll(async () => {
  await emulator.close()
})

const manager: Access = { accessLevel: 2, userType: 'client' }
const viewer: Access = { accessLevel: 1, userType: 'client' }

/** The view in a router (its links need one), its search state kept as the route keeps it. */
function renderTable(access: Access, initial: FindingsSearch = {}, ask: FindingsSearcher = searcher, service: ServiceId = 'dast') {
  const seen: FindingsSearch[] = []
  function Harness() {
    const [search, setSearch] = useState<FindingsSearch>(initial)
    return (
      <FindingsView
        searcher={ask}
        sources={noLiveParts}
        workspace={{ access }}
        company="acme"
        service={service}
        search={search}
        onSearchChange={(next) => {
          seen.push(next)
          setSearch(next)
        }}
        findingHref={(id) => `/reports/${service}/${id}`}
        now={NOW}
      />
    )
  }
  const router = createRouter({
    routeTree: createRootRoute({ component: Harness }),
    history: createMemoryHistory({ initialEntries: [`/reports/${service}`] }),
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
  it('lists the open findings of the service, most severe first, with their SLA, as the index answers', async () => {
    renderTable(manager)
    expect(await screen.findByRole('link', { name: 'SQL injection' })).toHaveAttribute('href', '/reports/dast/a')
    expect(titles()).toEqual(['SQL injection', 'Cross-site scripting', 'Cross-site scripting', 'Banner disclosure'])
    expect(screen.getByText('4 findings')).toBeInTheDocument()
    // Critical SLA: 7 days from 5 January, long breached on 1 February.
    const sql = screen.getByRole('link', { name: 'SQL injection' }).closest('tr')!
    expect(within(sql).getByText(/^Breached \d+ days ago$/)).toBeInTheDocument()
    // The network finding of the same title is another service's: the query names the service.
    expect(screen.getAllByRole('link', { name: 'SQL injection' })).toHaveLength(1)
    expect(asked[0]?.[0]).toMatchObject({ facetFilters: expect.arrayContaining([['service:dast']]) })
  })

  it('filters by severity and status with exact counts, each facet counted without its own choice', async () => {
    const { seen, user } = renderTable(manager)
    const severity = await screen.findByRole('group', { name: 'Severity' })
    await user.click(within(severity).getByRole('button', { name: /^High/ }))
    await waitFor(() => expect(titles()).toEqual(['Cross-site scripting', 'Cross-site scripting']))
    // The other severities keep their counts, so a second choice can be made knowingly.
    expect(within(severity).getByRole('button', { name: /^Critical/ })).toHaveTextContent('Critical 1')
    await user.click(within(severity).getByRole('button', { name: /^Critical/ }))
    expect(seen.at(-1)?.severity).toEqual(['high', 'critical'])
    await waitFor(() => expect(titles()).toEqual(['SQL injection', 'Cross-site scripting', 'Cross-site scripting']))
    expect(screen.getByText('3 findings')).toBeInTheDocument()

    await user.click(within(severity).getByRole('button', { name: /^High/ }))
    await user.click(within(severity).getByRole('button', { name: /^Critical/ }))
    const status = screen.getByRole('group', { name: 'Status' })
    expect(within(status).getByRole('button', { name: /^Fixed/ })).toHaveTextContent('Fixed 1')
    await user.click(within(status).getByRole('button', { name: /^Fixed/ }))
    expect(seen.at(-1)).toMatchObject({ severity: undefined, status: ['fixed'] })
    await waitFor(() => expect(titles()).toEqual(['Missing HSTS header']))
    const hsts = screen.getByRole('link', { name: 'Missing HSTS header' }).closest('tr')!
    expect(within(hsts).getByText('No deadline')).toBeInTheDocument()
  })

  it('counts a status over every finding that has it, past any number a page loads (no load cap shown as a count)', async () => {
    // More fixed findings of a service than a list of findings ever loaded (the table's old 2,000).
    const fixed = Array.from({ length: 2_345 }, (_, i) => ({
      ...finding(`cloud-fixed-${i}`, { title: `Public bucket ${i}`, status: 'fixed', closedAt: NOW }),
      service: 'cloud' as const,
    }))
    const open = Array.from({ length: 3 }, (_, i) => ({
      ...finding(`cloud-open-${i}`, { title: `Open bucket ${i}` }),
      service: 'cloud' as const,
    }))
    await client.saveObjects({
      indexName: FINDINGS_INDEX,
      objects: [...fixed, ...open].map((f) => ({ ...findingSearchRecord('acme', f) })),
      waitForTasks: true,
    })
    renderTable(manager, {}, searcher, 'cloud')
    const status = await screen.findByRole('group', { name: 'Status' })
    await waitFor(() => expect(within(status).getByRole('button', { name: /^Fixed/ })).toHaveTextContent('Fixed 2,345'))
    expect(screen.getByText('3 findings')).toBeInTheDocument()
  })

  it('filters by asset and tag, and searches the text', async () => {
    const { user } = renderTable(manager)
    await user.type(await screen.findByRole('combobox', { name: 'Filter by tag' }), 'xss{Enter}')
    await waitFor(() => expect(titles()).toEqual(['Cross-site scripting', 'Cross-site scripting']))
    await user.type(screen.getByRole('combobox', { name: 'Filter by asset' }), 'https://blog.acme.example/comments{Enter}')
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2))
    await user.click(screen.getByRole('button', { name: 'Remove tag filter xss' }))
    await user.click(screen.getByRole('button', { name: 'Remove asset filter https://blog.acme.example/comments' }))
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'banner')
    await waitFor(() => expect(titles()).toEqual(['Banner disclosure']))
  })

  it('sorts by a column from its header, both ways, and says so', async () => {
    const { seen, user } = renderTable(manager)
    await user.click(await screen.findByRole('button', { name: 'Finding' }))
    expect(seen.at(-1)?.sort).toBe('title')
    expect(screen.getByRole('columnheader', { name: /Finding/ })).toHaveAttribute('aria-sort', 'ascending')
    await waitFor(() => expect(titles()).toEqual(['Banner disclosure', 'Cross-site scripting', 'Cross-site scripting', 'SQL injection']))
    await user.click(screen.getByRole('button', { name: /Finding/ }))
    expect(seen.at(-1)?.sort).toBe('-title')
    await waitFor(() => expect(titles()[0]).toBe('SQL injection'))
    await user.click(screen.getByRole('button', { name: /Severity/ }))
    expect(seen.at(-1)?.sort).toBeUndefined()
  })

  it('shows KEV and EPSS, keeps to the known exploited when asked and sorts the likeliest to be exploited first', async () => {
    const { seen, user } = renderTable(manager)
    const sql = (await screen.findByRole('link', { name: 'SQL injection' })).closest('tr')!
    expect(within(sql).getByText('KEV')).toHaveAttribute('title', "In CISA's catalogue of known exploited vulnerabilities")
    expect(sql).toHaveTextContent('94.36%')
    await user.click(screen.getByRole('button', { name: 'Known exploited (KEV)' }))
    expect(seen.at(-1)?.kev).toBe(true)
    await waitFor(() => expect(titles()).toEqual(['SQL injection']))
    expect(screen.getByRole('button', { name: 'Known exploited (KEV)' })).toHaveAttribute('aria-pressed', 'true')
    await user.click(screen.getByRole('button', { name: 'Known exploited (KEV)' }))
    expect(seen.at(-1)?.kev).toBeUndefined()
    await user.click(screen.getByRole('button', { name: 'EPSS' }))
    expect(seen.at(-1)?.sort).toBe('epss')
    // Those without a score come last, in the table's usual order.
    await waitFor(() => expect(titles()).toEqual(['SQL injection', 'Banner disclosure', 'Cross-site scripting', 'Cross-site scripting']))
  })

  it('groups by finding and by asset with their sizes; a group opens from the keyboard', async () => {
    const { user } = renderTable(manager, { group: 'title' })
    const group = await screen.findByRole('button', { name: /Cross-site scripting 2 findings/ })
    expect(group).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getAllByRole('row')).toHaveLength(1 + 3)
    group.focus()
    await user.keyboard('{Enter}')
    expect(group).toHaveAttribute('aria-expanded', 'true')
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Cross-site scripting' })).toHaveLength(2))

    await user.click(screen.getByRole('radio', { name: 'By asset' }))
    await waitFor(() => expect(screen.getAllByRole('button', { name: /1 finding$/ })).toHaveLength(4))
  })

  it('keeps the last answer on screen, dimmed and marked busy, until a new filter is answered', async () => {
    // The searcher answers at once until told to hold, then waits until let go.
    let hold: Promise<void> | null = null
    let release = () => {}
    const held: FindingsSearcher = async (requests) => {
      if (hold) await hold
      return searcher(requests)
    }
    const { user } = renderTable(manager, {}, held)
    await screen.findByRole('link', { name: 'SQL injection' })
    hold = new Promise((resolve) => (release = resolve))
    const severity = screen.getByRole('group', { name: 'Severity' })
    await user.click(within(severity).getByRole('button', { name: /^High/ }))
    expect(await screen.findByText('Updating the list…')).toBeInTheDocument()
    // Not a blank "Loading findings…": the rows last shown stay, the box says it is busy.
    expect(screen.queryByText('Loading findings…')).toBeNull()
    expect(titles()).toEqual(['SQL injection', 'Cross-site scripting', 'Cross-site scripting', 'Banner disclosure'])
    const box = screen.getByRole('table').parentElement!
    expect(box).toHaveAttribute('aria-busy', 'true')
    hold = null
    release()
    await waitFor(() => expect(titles()).toEqual(['Cross-site scripting', 'Cross-site scripting']))
    expect(screen.getByText('2 findings')).toBeInTheDocument()
    expect(box).toHaveAttribute('aria-busy', 'false')
  })

  it('says a new filter could not be answered instead of showing the last answer as its own', async () => {
    let fail = false
    const failing: FindingsSearcher = async (requests) => {
      if (fail) throw new Error('The search service is unreachable')
      return searcher(requests)
    }
    const { user } = renderTable(manager, {}, failing)
    await screen.findByRole('link', { name: 'SQL injection' })
    fail = true
    await user.click(within(screen.getByRole('group', { name: 'Severity' })).getByRole('button', { name: /^High/ }))
    expect(await screen.findByText('Findings could not be loaded. Check your connection and retry.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'SQL injection' })).toBeNull()
    fail = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(titles()).toEqual(['Cross-site scripting', 'Cross-site scripting']))
  })

  it('offers a manager the bulk retest of a selection; a viewer gets no bulk moves', async () => {
    const { user } = renderTable(manager, { status: ['open', 'fixed'] })
    await user.click(await screen.findByRole('checkbox', { name: 'Select SQL injection on https://shop.acme.example/cart' }))
    await user.click(await screen.findByRole('checkbox', { name: 'Select Missing HSTS header on https://blog.acme.example/' }))
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
