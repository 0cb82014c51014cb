// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { allCompanyFlags, LEVEL, type Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { ServiceId } from '#domain/services.ts'
import { exportFindings, exportScan, exportStats } from '../../../../tests/unit/export-fixtures.ts'
import { ExportMenu } from './export-menu'

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

async function openMenu(service: ServiceId, options: { company?: Company; filters?: Record<string, string[]>; count?: number } = {}) {
  render(
    <ExportMenu
      company={options.company ?? acme}
      service={service}
      findings={exportFindings(service, options.count ?? 42)}
      filters={options.filters ?? {}}
      stats={exportStats()}
      scan={exportScan(service)}
      access={viewer}
    />,
  )
  const trigger = await screen.findByRole('button', { name: /Export/ })
  await userEvent.click(trigger)
  return screen.findByRole('menu')
}

const items = () => screen.getAllByRole('menuitem').map((item) => item.textContent)

describe('ExportMenu', () => {
  it('offers PDF, CSV, JSON and SARIF of all the findings for DAST', async () => {
    const menu = await openMenu('dast')
    expect(menu).toHaveTextContent('All 42 findings')
    expect(items()).toEqual([
      expect.stringContaining('PDF report'),
      expect.stringContaining('CSV'),
      expect.stringContaining('JSON'),
      expect.stringContaining('SARIF 2.1.0'),
    ])
  })

  it('says how many filtered findings it exports, and offers no SARIF for cloud', async () => {
    const menu = await openMenu('cloud', { filters: { severity: ['high'] }, count: 7 })
    expect(menu).toHaveTextContent('7 filtered findings')
    expect(items()).toHaveLength(3)
    expect(menu).not.toHaveTextContent('SARIF')
  })

  it('gives readers of the figures only the PDF of the figures', async () => {
    const statsOnly: Company = { ...acme, enableViewProjectMarianaResults: false, enableViewProjectMarianaStats: true }
    const menu = await openMenu('projectmariana', { company: statsOnly })
    expect(menu).toHaveTextContent('Figures only')
    expect(items()).toEqual([expect.stringContaining('PDF of the figures')])
  })

  it('downloads the CSV of the findings shown under a company-service-date name', async () => {
    const blobs: Blob[] = []
    const names: string[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob)
      return 'blob:export'
    })
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download)
    })
    await openMenu('network', { filters: { status: ['open'] }, count: 5 })
    await userEvent.click(screen.getByRole('menuitem', { name: /CSV/ }))
    await waitFor(() => expect(names).toHaveLength(1))
    expect(names[0]).toMatch(/^acme-ltd-network-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = await blobs[0]!.text()
    expect(text.trim().split('\r\n')).toHaveLength(6)
  })

  it('asks for the findings when opened and offers the files only once they are there', async () => {
    const onOpen = vi.fn()
    const props = {
      company: acme,
      service: 'dast' as const,
      filters: {},
      stats: exportStats(),
      scan: exportScan('dast'),
      access: viewer,
      onOpen,
    }
    const { rerender } = render(<ExportMenu {...props} findings={undefined} />)
    expect(onOpen).not.toHaveBeenCalled()
    await userEvent.click(await screen.findByRole('button', { name: /Export/ }))
    const menu = await screen.findByRole('menu')
    expect(onOpen).toHaveBeenCalledTimes(1)
    expect(menu).toHaveTextContent('Loading findings…')
    for (const item of screen.getAllByRole('menuitem')) expect(item).toHaveAttribute('aria-disabled', 'true')

    rerender(<ExportMenu {...props} findings={exportFindings('dast', 3)} />)
    expect(menu).toHaveTextContent('All 3 findings')
    for (const item of screen.getAllByRole('menuitem')) expect(item).not.toHaveAttribute('aria-disabled')

    rerender(<ExportMenu {...props} findings={undefined} findingsFailed />)
    expect(menu).toHaveTextContent('The findings could not be loaded.')
  })
})
