// The export menu of a service page, fed live with the service's figures and latest scan. For
// people who see results, the findings are read by the export itself, page by page from the
// database, as the page's search filters them (counted when the menu opens): no list of them is
// held by the page for it.
import { useMemo } from 'react'
import { canViewResults } from '#domain/access.ts'
import { latestWholeServiceScan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { reportLiveOf, type ServiceReportData } from '../data/report-data'
import { type FindingsSearch } from '../findings/findings-search-params'
import { ExportMenu } from './export-menu'
import { firestoreExportSource } from './export-source'
import { exportFiltersOf } from './filtered-findings'

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
  // Stats-only readers never ask for findings (the rules would refuse them).
  const source = useMemo(
    () => (results ? firestoreExportSource(company.slug, service, search) : null),
    [company.slug, service, results, search],
  )
  const filters = useMemo(() => exportFiltersOf(search), [search])
  const data = report.data
  if (!data) return null
  return (
    <ExportMenu
      company={company}
      service={service}
      source={source}
      filters={filters}
      stats={data.stats}
      scan={latestWholeServiceScan(data.scans)}
      loadMonths={() => import('../data/reports-live').then((m) => m.readServiceMonths(company.slug, service))}
      access={workspace.access}
    />
  )
}
