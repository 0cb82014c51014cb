// The export menu of a service's report: PDF, CSV, JSON and (DAST, network) SARIF of the findings
// as the screen filters them. Only people who see the service's results export findings; readers
// of its figures get the PDF of the figures. The files are built in the browser when picked.
import { useState } from 'react'
import { IconChevronDown, IconDownload, IconFileTypeCsv, IconFileTypePdf, IconJson, IconShieldCode } from '@tabler/icons-react'
import { DropdownMenu } from 'radix-ui'
import styled from 'styled-components'
import { canViewResults, type Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { Finding } from '#domain/findings.ts'
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import { exportFormatsFor, isFiltered, type ExportFilters, type ExportFormat } from '#domain/report-export.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceMonth, ServiceStats } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { Button } from '~/ui/button'
import { notify } from '~/ui/notifications/notifications'
import { menuItem, menuPanel } from '~/ui/menu'
import { offsets } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { saveFile } from '~/platform/save-file'
import { formatNumber } from '#domain/numbers.ts'

const Content = styled(DropdownMenu.Content)`
  ${menuPanel}
  min-width: 280px;
  max-width: min(360px, calc(100vw - 16px));
`

const Scope = styled(DropdownMenu.Label)`
  padding: 8px 10px 6px;
  font-size: 13px;
  color: var(--color-text-muted);
`

const Item = styled(DropdownMenu.Item)`
  ${menuItem}
  min-height: 44px;
  padding: 4px 10px;
  span {
    display: flex;
    flex-direction: column;
  }
  small {
    color: var(--color-text-muted);
    font-size: 12px;
  }
`

const formatText: Record<ExportFormat, { label: string; note: string; Icon: typeof IconDownload }> = {
  pdf: { label: 'PDF report', note: 'Cover, summary, charts and findings', Icon: IconFileTypePdf },
  csv: { label: 'CSV', note: 'One row per finding, for spreadsheets', Icon: IconFileTypeCsv },
  json: { label: 'JSON', note: 'Versioned, with each status history', Icon: IconJson },
  sarif: { label: 'SARIF 2.1.0', note: 'For code scanning and security tools', Icon: IconShieldCode },
}

const count = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`

/** What the exports will hold, in words: all N findings, N filtered findings, or the figures only. */
export function exportScopeLabel(findings: number, filters: ExportFilters, withResults: boolean): string {
  if (!withResults) return 'Figures only'
  return isFiltered(filters) ? count(findings, 'filtered finding', 'filtered findings') : `All ${count(findings, 'finding', 'findings')}`
}

export interface ExportMenuProps {
  company: Company
  service: ServiceId
  /** The findings as the screen filters them; undefined while they load (they load once the menu opens). */
  findings: readonly Finding[] | undefined
  filters: ExportFilters
  stats: ServiceStats
  /** The latest published scan, or null before the first. */
  scan: Scan | null
  /** Reads the monthly remediation figures, whole, for the PDF (the page keeps only their summary). */
  loadMonths?: () => Promise<readonly ServiceMonth[]>
  access: Access | null | undefined
  /** Reads the findings' histories for the JSON export; without it, it reads them from the database. */
  loadHistory?: (ids: readonly string[]) => Promise<ReadonlyMap<string, readonly FindingHistoryEntry[]>>
  /** The findings could not be loaded (opening the menu again tries again). */
  findingsFailed?: boolean
  /** Called when the menu opens: the findings are needed from then on. */
  onOpen?: () => void
}

export function ExportMenu({
  company,
  service,
  findings,
  filters,
  stats,
  scan,
  loadMonths,
  access,
  loadHistory,
  findingsFailed,
  onOpen,
}: ExportMenuProps) {
  const hydrated = useHydrated()
  const [busy, setBusy] = useState<ExportFormat | null>(null)
  const withResults = canViewResults(access, company, service)
  const formats = exportFormatsFor(service, withResults)
  // Readers of the figures export no findings; readers of the results wait for them.
  const loading = withResults && findings === undefined
  const scope = !loading
    ? exportScopeLabel(findings?.length ?? 0, filters, withResults)
    : findingsFailed
      ? 'The findings could not be loaded. Check your connection and open the menu again.'
      : 'Loading findings…'

  const download = async (format: ExportFormat) => {
    // Files are built in the browser only: the server bundle leaves the PDF library out.
    if (import.meta.env.SSR) return
    setBusy(format)
    try {
      const { buildExport } = await import('./build-export')
      const file = await buildExport({
        format,
        company: { slug: company.slug, name: company.companyName },
        service,
        findings: withResults ? (findings ?? []) : null,
        filters,
        stats,
        scan,
        months: format === 'pdf' ? await loadMonths?.() : undefined,
        now: Date.now(),
        loadHistory: loadHistory ?? (async (ids) => (await import('./history-reads')).readHistories(company.slug, service, ids)),
      })
      saveFile(file.name, file.blob)
    } catch {
      notify({ tone: 'error', title: 'Export failed', message: 'The file could not be built. Please try again.' })
    } finally {
      setBusy(null)
    }
  }

  return (
    <DropdownMenu.Root onOpenChange={(open) => open && onOpen?.()}>
      <DropdownMenu.Trigger asChild>
        <Button type="button" $variant="secondary" disabled={!hydrated || busy !== null} aria-busy={busy !== null}>
          <IconDownload size={18} aria-hidden="true" />
          {busy ? `Exporting ${formatText[busy].label}…` : 'Export'}
          <IconChevronDown size={16} aria-hidden="true" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <Content align="end" sideOffset={offsets.popover}>
          <Scope role={loading ? 'status' : undefined}>{scope}</Scope>
          {formats.map((format) => {
            const { label, note, Icon } = formatText[format]
            return (
              <Item key={format} disabled={loading} onSelect={() => void download(format)}>
                <Icon size={20} aria-hidden="true" />
                <span>
                  {format === 'pdf' && !withResults ? 'PDF of the figures' : label}
                  <small>{format === 'pdf' && !withResults ? 'Cover, summary and charts' : note}</small>
                </span>
              </Item>
            )
          })}
        </Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
