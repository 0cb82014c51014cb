// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { allCompanyFlags, LEVEL, type Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { Finding } from '#domain/findings.ts'
import type { ServiceId } from '#domain/services.ts'
import { exportFindings, exportScan, exportStats } from '../../../../tests/unit/export-fixtures.ts'
import { ExportMenu } from './export-menu'
import type { ExportPage, ExportSource } from './export-source'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const viewer: Access = {
  accessLevel: LEVEL.clientViewer,
  userType: 'client',
  servicesEnabled: ['dast', 'network', 'projectmariana', 'cloud'],
}
const acme: Company = { slug: 'acme', companyName: 'Acme Ltd', ...allCompanyFlags(true) }

/** A source whose pages the test hands out one at a time, recording what the export asked. */
function pagedSource(pages: Finding[][], options: { exact?: boolean; total?: number } = {}) {
  const waiting: (() => void)[] = []
  const asked = { pages: 0, signal: null as AbortSignal | null }
  const source: ExportSource = {
    order: 'Most severe first, then most recently seen',
    orderNote: null,
    exactCount: options.exact ?? true,
    count: async () => options.total ?? pages.reduce((n, p) => n + p.length, 0),
    async *pages(signal): AsyncGenerator<ExportPage> {
      asked.signal = signal
      for (const page of pages) {
        asked.pages++
        await new Promise<void>((resolve) => waiting.push(resolve))
        signal.throwIfAborted()
        yield { read: page.length, findings: page }
      }
    },
  }
  const release = async () => {
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0))
    waiting.shift()!()
  }
  return { source, asked, release }
}

const pagesOf = (findings: Finding[], size: number) =>
  Array.from({ length: Math.ceil(findings.length / size) }, (_, i) => findings.slice(i * size, (i + 1) * size))

function downloads() {
  const blobs: Blob[] = []
  const names: string[] = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob)
    return 'blob:export'
  })
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download)
  })
  return { blobs, names }
}

async function openMenu(
  service: ServiceId,
  source: ExportSource | null,
  options: { company?: Company; filters?: Record<string, string[]> } = {},
) {
  render(
    <ExportMenu
      company={options.company ?? acme}
      service={service}
      source={source}
      filters={options.filters ?? {}}
      stats={exportStats()}
      scan={exportScan(service)}
      access={viewer}
      loadHistory={async () => new Map()}
    />,
  )
  await userEvent.click(await screen.findByRole('button', { name: /Export/ }))
  return screen.findByRole('menu')
}

const items = () => screen.getAllByRole('menuitem').map((item) => item.textContent)

describe('ExportMenu', () => {
  // The menu loads the export's code on the first click; loaded here, so that a fresh checkout's
  // first transform of it does not run past a step's wait.
  beforeAll(async () => {
    await import('./build-export')
  })

  it('offers PDF, CSV, JSON and SARIF of all the findings for DAST, counted when it opens, and names the order', async () => {
    const menu = await openMenu('dast', pagedSource([exportFindings('dast', 42)]).source)
    await waitFor(() => expect(menu).toHaveTextContent('All 42 findings'))
    expect(menu).toHaveTextContent('Order: most severe first, then most recently seen.')
    expect(items()).toEqual([
      expect.stringContaining('PDF report'),
      expect.stringContaining('CSV'),
      expect.stringContaining('JSON'),
      expect.stringContaining('SARIF 2.1.0'),
    ])
  })

  it('says how many filtered findings it exports, and offers no SARIF for cloud', async () => {
    const menu = await openMenu('cloud', pagedSource([exportFindings('cloud', 7)]).source, { filters: { severity: ['high'] } })
    await waitFor(() => expect(menu).toHaveTextContent('7 filtered findings'))
    expect(items()).toHaveLength(3)
    expect(menu).not.toHaveTextContent('SARIF')
  })

  it('says the count is of the findings searched when the browser still narrows them', async () => {
    const menu = await openMenu('dast', pagedSource([exportFindings('dast', 3)], { exact: false, total: 1_200 }).source, {
      filters: { q: ['sql'] },
    })
    await waitFor(() => expect(menu).toHaveTextContent('The findings matching the search, among 1,200 findings'))
  })

  it('gives readers of the figures only the PDF of the figures', async () => {
    const statsOnly: Company = { ...acme, enableViewProjectMarianaResults: false, enableViewProjectMarianaStats: true }
    const menu = await openMenu('projectmariana', pagedSource([]).source, { company: statsOnly })
    expect(menu).toHaveTextContent('Figures only')
    expect(items()).toEqual([expect.stringContaining('PDF of the figures')])
  })

  it('writes the CSV page by page with a progress bar, then downloads it under a company-service-date name', async () => {
    const { blobs, names } = downloads()
    const { source, release } = pagedSource(pagesOf(exportFindings('network', 1_200), 500))
    await openMenu('network', source, { filters: { status: ['open'] } })
    await userEvent.click(screen.getByRole('menuitem', { name: /CSV/ }))
    const tray = await screen.findByRole('region', { name: 'Exporting CSV' })
    await release()
    await waitFor(() => expect(tray).toHaveTextContent('500 of 1,200 findings'))
    const bar = screen.getByRole('progressbar', { name: 'Exporting CSV: progress' })
    expect(bar).toHaveAttribute('value', String(500 / 1_200))
    expect(names).toEqual([])
    await release()
    await waitFor(() => expect(tray).toHaveTextContent('1,000 of 1,200 findings'))
    await release()
    await waitFor(() => expect(names).toHaveLength(1))
    expect(screen.queryByRole('region', { name: 'Exporting CSV' })).not.toBeInTheDocument()
    expect(names[0]).toMatch(/^acme-ltd-network-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = await blobs[0]!.text()
    expect(text.trim().split('\r\n')).toHaveLength(1_201)
  })

  it('stops reading at once when cancelled, and saves nothing', async () => {
    const { names } = downloads()
    const { source, asked, release } = pagedSource(pagesOf(exportFindings('network', 2_000), 500))
    await openMenu('network', source)
    await userEvent.click(screen.getByRole('menuitem', { name: /JSON/ }))
    const tray = await screen.findByRole('region', { name: 'Exporting JSON' })
    await release()
    await waitFor(() => expect(tray).toHaveTextContent('500 of 2,000 findings'))
    // The second page is asked for, and still on its way when the person cancels.
    await waitFor(() => expect(asked.pages).toBe(2))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(asked.signal?.aborted).toBe(true)
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Exporting JSON' })).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: /Export/ })).toBeEnabled()
    await release()
    expect(asked.pages).toBe(2)
    expect(names).toEqual([])
    expect(URL.createObjectURL).not.toHaveBeenCalled()
  })
})
