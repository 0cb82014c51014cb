// The export menu of a service page, fed live: the service's figures and latest scan, and (for
// people who see results) its findings as the page's search filters them, asked for when the menu
// first opens. The listeners are the ones the page holds (or will), so the database serves them once.
import { useMemo, useState } from 'react'
import { canViewResults } from '#domain/access.ts'
import type { Finding, FindingStatus } from '#domain/findings.ts'
import type { ServiceId } from '#domain/services.ts'
import { notAsked, useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { reportLiveOf, type ServiceReportData } from '../data/report-data'
import { loadedStatuses } from '../findings/findings-query'
import { type FindingsSearch } from '../findings/findings-search-params'
import { ExportMenu } from './export-menu'
import { exportFiltersOf, filteredFindings } from './filtered-findings'

export function ServiceExports({
  workspace,
  service,
  search,
  firstPaint,
}: {
  workspace: Workspace | null | undefined
  service: ServiceId
  search: FindingsSearch
  firstPaint?: ServiceReportData
}) {
  const company = workspace?.company
  if (!workspace || !company) return null
  const results = canViewResults(workspace.access, company, service)
  return (
    <LiveExports
      key={`${company.slug}/${service}/${results}`}
      workspace={workspace}
      service={service}
      search={search}
      results={results}
      firstPaint={firstPaint?.company === company.slug && firstPaint.service === service ? firstPaint : undefined}
    />
  )
}

function LiveExports({
  workspace,
  service,
  search,
  results,
  firstPaint,
}: {
  workspace: Workspace
  service: ServiceId
  search: FindingsSearch
  results: boolean
  firstPaint?: ServiceReportData
}) {
  const company = workspace.company!
  const report = useLiveData(
    () => import('../data/reports-live').then((m) => m.watchServiceReport(company.slug, service)),
    [company.slug, service],
    firstPaint && reportLiveOf(firstPaint),
  )
  // Stats-only readers never ask for findings (the rules would refuse them), nor does anyone before
  // opening the menu. The same query as the table's, which the SDK answers from one listener.
  const [opened, setOpened] = useState(false)
  const statusKey = loadedStatuses(search).join(',')
  const findings = useLiveData(
    () =>
      results && opened
        ? import('../findings/findings-live').then((m) =>
            m.watchServiceFindings(company.slug, service, statusKey.split(',') as FindingStatus[]),
          )
        : notAsked<Finding[]>(),
    [company.slug, service, results, opened, statusKey],
  )
  const loaded = findings.status === 'ready' ? findings.data : undefined
  const shown = useMemo(() => loaded && filteredFindings(loaded, search, Date.now()), [loaded, search])
  const filters = useMemo(() => exportFiltersOf(search), [search])
  const data = report.data
  if (!data) return null
  return (
    <ExportMenu
      company={company}
      service={service}
      findings={shown}
      filters={filters}
      stats={data.stats}
      scan={data.scans[0] ?? null}
      loadMonths={() => import('../data/reports-live').then((m) => m.readServiceMonths(company.slug, service))}
      access={workspace.access}
      findingsFailed={findings.status === 'failed'}
      onOpen={() => (findings.status === 'failed' ? findings.retry() : setOpened(true))}
    />
  )
}
