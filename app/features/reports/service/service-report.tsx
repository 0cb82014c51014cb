import type { ReactNode } from 'react'
import styled from 'styled-components'
import { latestWholeServiceScan } from '#domain/scans.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { notAsked, useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { surface } from '~/ui/surface'
import { reportLiveOf, seesResults, type MonthFigures, type ServiceReportData } from '../data/report-data'
import { LocalTime } from '~/ui/local-time'
import { useNearScreen } from '~/ui/near-screen'
import { ComparisonView } from './comparison-view'
import { KpiCards } from './kpi-cards'
import type { ScanChoice } from './scan-choice'
import { ScanPicker, comparableWith, sameSeries } from './scan-picker'
import { findingKpis, RemediationChart, scanCountKpis, scanKpis, ServiceCharts } from './service-figures'

/** What the findings section of a service page receives (the findings feature renders it). */
export interface FindingsSlot {
  company: string
  service: ServiceId
  /** The scan the page shows, or null before the first scan. */
  scanId: string | null
}

const Stack = styled.div`
  display: grid;
  /* A wide child (the findings table) scrolls in its own box instead of widening the page. */
  grid-template-columns: minmax(0, 1fr);
  gap: 24px;

  h2 {
    font-size: 18px;
    font-weight: 650;
    margin: 0 0 12px;
  }
`

const Charts = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 460px), 1fr));
  gap: 16px;
`

// The remediation chart's cell: its frame fills the cell, as the other charts' frames do theirs.
const ChartCell = styled.div`
  display: grid;
`

const Note = styled.p`
  ${surface}
  margin: 0;
  padding: 14px 18px;
  color: var(--color-text-muted);
`

const Meta = styled.p`
  margin: -8px 0 0;
  color: var(--color-text-muted);
  font-size: 14px;
`

/**
 * One service's report: scan picker, key figures, the service's charts and time to remediate,
 * live. Findings (and the comparison's lists, which name findings and assets) are shown only to
 * those who may see the service's results; `findings` renders the findings section then. The
 * chosen scan and comparison are the caller's (the address bar's): `onChoose` changes them.
 */
export function ServiceReport({
  service,
  workspace,
  firstPaint,
  choice,
  onChoose,
  findings,
}: {
  service: ServiceId
  workspace: Workspace | null | undefined
  firstPaint: ServiceReportData | undefined
  choice: ScanChoice
  onChoose(choice: ScanChoice): void
  findings?: (slot: FindingsSlot) => ReactNode
}) {
  const company = workspace?.company ?? null
  const slug = company?.slug ?? ''
  const results = seesResults(workspace?.access, company, service)
  const edge = firstPaint?.company === slug && firstPaint.service === service ? firstPaint : undefined
  const live = useLiveData(
    () => import('../data/reports-live').then((m) => m.watchServiceReport(slug, service)),
    [slug, service],
    edge && reportLiveOf(edge),
  )

  if (!company) return <Note>Choose a company in the user menu to see its reports.</Note>
  const data = live.data?.company === slug && live.data.service === service ? live.data : undefined
  if (!data) return <LiveStatus live={live.status === 'ready' ? { ...live, status: 'loading' } : live} what="the report" />

  const label = serviceById(service)?.label ?? service
  // The report opens on the service's latest whole-service scan; a side scan is opened by choice.
  const latest = latestWholeServiceScan(data.scans)
  const scan = data.scans.find((s) => s.id === choice.scan) ?? latest
  // Only results readers compare: the comparison lists name findings and assets.
  const base = scan && results && choice.compare ? comparableWith(scan, data.scans).find((s) => s.id === choice.compare) : undefined
  // The charts over scans end at the chosen scan.
  const upToScan = scan ? data.scans.slice(data.scans.indexOf(scan)).filter((s) => sameSeries(s, scan)) : []

  return (
    <Stack>
      {live.status === 'failed' && <LiveStatus live={live} what="live updates" />}
      {!scan ? (
        <Note>
          No {label} scan has been published for {company.companyName} yet. Its report appears here once the first scan is published.
        </Note>
      ) : (
        <>
          <ScanPicker
            scans={data.scans}
            scanId={scan.id}
            compareId={base?.id ?? null}
            canCompare={results}
            onScan={(id) => onChoose({ scan: id === latest?.id ? undefined : id, compare: undefined })}
            onCompare={(id) => onChoose({ scan: choice.scan, compare: id ?? undefined })}
          />
          <ListCap shown={data.scans.length} what="published scans" more={data.moreScans ?? false}>
            They can be chosen and compared here, and the trends cover them; the open findings cover every scan.
          </ListCap>
          <Meta>
            {scan.title}: published <LocalTime at={scan.publishedAt ?? scan.startedAt} format="date" />
            {scan.tool ? `, ${scan.tool}` : ''}
            {scan.targets.length > 0 ? `, ${scan.targets.length} ${scan.targets.length === 1 ? 'target' : 'targets'}` : ''}
          </Meta>
          {base && <ComparisonView company={{ slug, name: company.companyName }} base={base} target={scan} />}
          <section aria-labelledby="kpi-title">
            <h2 id="kpi-title">Key figures</h2>
            <Stack>
              <KpiCards label="This scan" kpis={[...scanKpis(scan.stats), ...scanCountKpis(scan)]} />
              <KpiCards label="Open findings now" kpis={findingKpis(data.stats)} />
            </Stack>
          </section>
          <section aria-labelledby="charts-title">
            <h2 id="charts-title">Charts</h2>
            <Charts>
              <ServiceCharts scan={scan} scans={upToScan} />
              <LiveRemediationChart company={slug} service={service} firstPaint={edge?.months} />
            </Charts>
          </section>
        </>
      )}
      {results ? (
        // The findings section: composed by the route from the findings feature.
        findings?.({ company: slug, service, scanId: scan?.id ?? null })
      ) : (
        <Note data-testid="stats-only">
          {company.companyName} sees the {label} figures only: findings and assets are part of the {label} results service.
        </Note>
      )}
    </Stack>
  )
}

/** How far ahead of the screen the remediation chart starts following its months. */
const MONTHS_AHEAD = '100%'

/**
 * The remediation chart follows its months once it comes within a screen of the reader (decision
 * 0031); until then it shows the edge's figures, or says it is loading after a client navigation.
 */
function LiveRemediationChart({ company, service, firstPaint }: { company: string; service: ServiceId; firstPaint?: MonthFigures[] }) {
  const [cell, near] = useNearScreen<HTMLDivElement>(MONTHS_AHEAD)
  const months = useLiveData(
    () =>
      near
        ? import('../data/reports-live').then((m) => m.watchServiceMonthFigures(company, service, firstPaint))
        : notAsked<MonthFigures[]>(),
    // The first paint is the edge's, the same for the page's life: a new one starts no new listener.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [company, service, near],
    firstPaint,
  )
  const shown = months.data ?? firstPaint
  return (
    <ChartCell ref={cell}>
      {shown ? <RemediationChart months={shown} /> : <LiveStatus live={months} what="the remediation figures" />}
      {shown && months.status === 'failed' && <LiveStatus live={months} what="live remediation figures" />}
    </ChartCell>
  )
}
