// The export menu of a service's report: PDF, CSV, JSON and (DAST, network) SARIF of the findings
// as the screen filters them. Only people who see the service's results export findings; readers
// of its figures get the PDF of the figures. The files are built in the browser when picked, page
// by page as the findings are read, with a progress bar and a Cancel button; the menu says how many
// findings the export holds and in which order.
import { useEffect, useRef, useState } from 'react'
import { IconChevronDown, IconDownload, IconFileTypeCsv, IconFileTypePdf, IconJson, IconShieldCode, IconX } from '@tabler/icons-react'
import { DropdownMenu } from 'radix-ui'
import styled from 'styled-components'
import { canViewResults, type Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import {
  exportExtensions,
  exportFileName,
  exportFormatsFor,
  isFiltered,
  type ExportFilters,
  type ExportFormat,
} from '#domain/report-export.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceMonth, ServiceStats } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { Button } from '~/ui/button'
import { notify } from '~/ui/notifications/notifications'
import { menuItem, menuPanel } from '~/ui/menu'
import { floating } from '~/ui/surface'
import { layers, offsets } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { readMessages, ReadUnansweredError } from '~/core/read-deadline'
import { formatNumber } from '#domain/numbers.ts'
import { blobSink, fileSink, pickExportFile, type ExportFileType } from './export-sink'
import type { ExportSource } from './export-source'
import type { ExportProgress } from './build-export'

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

const Order = styled.p`
  margin: 0;
  padding: 0 10px 8px;
  font-size: 12px;
  color: var(--color-text-muted);
`

// A tray at the foot of the window, as browsers show downloads: the export runs while the person reads on.
const Tray = styled.section`
  ${floating('near')}
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: ${layers.popover};
  width: min(360px, calc(100vw - 32px));
  padding: 12px 14px;
  display: grid;
  gap: 8px;
  h2 {
    margin: 0;
    font-size: 14px;
  }
  p {
    margin: 0;
    font-size: 13px;
    color: var(--color-text-muted);
  }
  progress {
    width: 100%;
    height: 8px;
    accent-color: var(--color-primary);
  }
  div {
    display: flex;
    justify-content: flex-end;
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

const MIME: Record<ExportFormat, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv;charset=utf-8',
  json: 'application/json',
  sarif: 'application/sarif+json',
}

export function exportFileType(format: ExportFormat, company: Company, service: ServiceId, now: number): ExportFileType {
  return {
    name: exportFileName(company.companyName || company.slug, service, now, format),
    mime: MIME[format],
    extension: exportExtensions[format],
    description: `${formatText[format].label} file`,
  }
}

/** The progress in words: `1,500 of 10,000 findings`, with how many the file holds when filters narrow the read. */
export function progressText(progress: ExportProgress, exact: boolean): string {
  if (progress.phase === 'pages') return `Making the pages: ${Math.round((progress.fraction ?? 0) * 100)}%`
  const read =
    progress.total === null
      ? `${count(progress.read, 'finding', 'findings')} read`
      : `${formatNumber(progress.read)} of ${count(progress.total, 'finding', 'findings')}`
  return exact ? read : `${read}, ${formatNumber(progress.kept)} matching`
}

/** Why an export failed, in the person's words. */
function failureMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (error instanceof ReadUnansweredError) return error.message
  if (error instanceof Error && error.name === 'ExportWriteError')
    return 'The file could not be written. Check that the folder is writable and has space, then try again.'
  if (code === 'permission-denied') return 'You may no longer read these findings. Reload the page to see what you can export.'
  if (code === 'unavailable') return readMessages.offline
  return 'The findings could not be read. Please try again.'
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError'

export interface ExportMenuProps {
  company: Company
  service: ServiceId
  /** The findings as the screen filters them, read page by page when a file is picked; null without results. */
  source: ExportSource | null
  filters: ExportFilters
  stats: ServiceStats
  /** The latest published scan, or null before the first. */
  scan: Scan | null
  /** Reads the monthly remediation figures, whole, for the PDF (the page keeps only their summary). */
  loadMonths?: () => Promise<readonly ServiceMonth[]>
  access: Access | null | undefined
  /** Reads findings' histories for the JSON export; without it, it reads them from the database. */
  loadHistory?: (ids: readonly string[]) => Promise<ReadonlyMap<string, readonly FindingHistoryEntry[]>>
}

type Counted = { status: 'counting' } | { status: 'counted'; total: number } | { status: 'failed' }

interface Running {
  format: ExportFormat
  progress: ExportProgress
  exact: boolean
  controller: AbortController
}

export function ExportMenu({ company, service, source, filters, stats, scan, loadMonths, access, loadHistory }: ExportMenuProps) {
  const hydrated = useHydrated()
  const [running, setRunning] = useState<Running | null>(null)
  const [counted, setCounted] = useState<Counted | null>(null)
  const withResults = canViewResults(access, company, service) && source !== null
  const formats = exportFormatsFor(service, withResults)
  const current = useRef<AbortController | null>(null)
  // A new search is a new count; leaving the page stops a running export.
  useEffect(() => setCounted(null), [source])
  useEffect(() => () => current.current?.abort(), [])

  const askCount = () => {
    if (!withResults || (counted && counted.status !== 'failed')) return
    setCounted({ status: 'counting' })
    source!.count().then(
      (total) => setCounted({ status: 'counted', total }),
      () => setCounted({ status: 'failed' }),
    )
  }

  const scope = !withResults
    ? 'Figures only'
    : counted?.status === 'counted'
      ? source!.exactCount
        ? exportScopeLabel(counted.total, filters, true)
        : `The findings matching the search, among ${count(counted.total, 'finding', 'findings')}`
      : counted?.status === 'failed'
        ? 'The findings could not be counted. Check your connection and open the menu again.'
        : 'Counting findings…'

  const download = async (format: ExportFormat) => {
    // Files are built in the browser only: the server bundle leaves the PDF library out.
    if (import.meta.env.SSR || current.current) return
    const now = Date.now()
    const type = exportFileType(format, company, service, now)
    // The save dialog first, while the click still counts as the person's.
    const picked = await pickExportFile(type)
    if (picked === 'cancelled') return
    const controller = new AbortController()
    current.current = controller
    const exact = !withResults || source!.exactCount
    setRunning({ format, progress: { phase: 'reading', read: 0, total: null, kept: 0 }, exact, controller })
    try {
      const [{ buildExport }, months] = await Promise.all([import('./build-export'), format === 'pdf' ? loadMonths?.() : undefined])
      const sink = picked ? await fileSink(picked) : blobSink(type)
      const { findings } = await buildExport({
        format,
        company: { slug: company.slug, name: company.companyName },
        service,
        source: withResults ? source : null,
        filters,
        stats,
        scan,
        months,
        now,
        loadHistory: loadHistory ?? (async (ids) => (await import('./history-reads')).readHistories(company.slug, service, ids)),
        sink,
        signal: controller.signal,
        onProgress: (progress) => setRunning((run) => (run && run.controller === controller ? { ...run, progress } : run)),
      })
      notify({
        tone: 'success',
        title: 'Export ready',
        message: withResults ? `${type.name}: ${count(findings, 'finding', 'findings')}.` : type.name,
      })
    } catch (error) {
      if (controller.signal.aborted || isAbort(error)) notify({ tone: 'info', title: 'Export cancelled', message: 'No file was saved.' })
      else notify({ tone: 'error', title: 'Export failed', message: failureMessage(error) })
    } finally {
      current.current = null
      setRunning(null)
    }
  }

  return (
    <>
      <DropdownMenu.Root onOpenChange={(open) => open && askCount()}>
        <DropdownMenu.Trigger asChild>
          <Button type="button" $variant="secondary" disabled={!hydrated || running !== null} aria-busy={running !== null}>
            <IconDownload size={18} aria-hidden="true" />
            {running ? `Exporting ${formatText[running.format].label}…` : 'Export'}
            <IconChevronDown size={16} aria-hidden="true" />
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <Content align="end" sideOffset={offsets.popover}>
            <Scope role={counted?.status === 'counting' ? 'status' : undefined}>{scope}</Scope>
            {withResults && (
              <Order>
                Order: {source!.order.charAt(0).toLowerCase() + source!.order.slice(1)}.{source!.orderNote ? ` ${source!.orderNote}` : ''}
              </Order>
            )}
            {formats.map((format) => {
              const { label, note, Icon } = formatText[format]
              return (
                <Item key={format} onSelect={() => void download(format)}>
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
      {running && <ExportTray running={running} />}
    </>
  )
}

function ExportTray({ running }: { running: Running }) {
  const { progress, format } = running
  const label = `Exporting ${formatText[format].label}`
  const value = progress.phase === 'pages' ? (progress.fraction ?? 0) : progress.total ? progress.read / progress.total : undefined
  return (
    <Tray aria-label={label}>
      <h2>{label}</h2>
      <progress aria-label={`${label}: progress`} max={1} value={value} />
      <p role="status">{progressText(progress, running.exact)}</p>
      <div>
        <Button type="button" $variant="secondary" onClick={() => running.controller.abort()}>
          <IconX size={16} aria-hidden="true" />
          Cancel
        </Button>
      </div>
    </Tray>
  )
}
