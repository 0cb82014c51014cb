import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { LiveStatus } from '~/ui/live-status'
import { surface } from '~/ui/surface'
import { latestScans, seesResults, visibleServices, type OverviewData } from '../data/report-data'
import { LocalTime } from '~/ui/local-time'
import { formatNumber } from '../format'
import { ServiceTile } from './service-tile'

const Tiles = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(260px, 1fr));
  gap: 16px;
`

const Row = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
  gap: 16px;
  margin-top: 24px;
`

const Panel = styled.section`
  ${surface}
  padding: 18px 20px;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0 0 12px;
  }
`

const Waiting = styled.dl`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 12px;
  margin: 0;

  dt {
    color: var(--color-text-muted);
    font-size: 14px;
  }
  dd {
    margin: 4px 0 0;
    font-size: 28px;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
`

const ScanList = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;

  li {
    display: flex;
    justify-content: space-between;
    gap: 12px;
    padding: 8px 0;
    border-top: 1px solid var(--color-border);
    font-size: 14px;
  }
  li:first-child {
    border-top: 0;
  }
  span {
    color: var(--color-text-muted);
    white-space: nowrap;
  }
`

const Muted = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

/**
 * The company overview: a tile per service the person may see, the retests waiting on each side
 * and the latest published scans, live (another company in the user menu switches everything).
 */
export function ReportsOverview({
  workspace,
  firstPaint,
}: {
  workspace: Workspace | null | undefined
  firstPaint: OverviewData | undefined
}) {
  const company = workspace?.company ?? null
  const visible = visibleServices(workspace?.access, company).map((service) => ({
    service,
    results: seesResults(workspace?.access, company, service),
  }))
  const key = visible.map((v) => `${v.service}:${v.results}`).join(',')
  const slug = company?.slug ?? ''
  const live = useLiveData(
    () => import('../data/reports-live').then((m) => m.watchOverview(slug, visible)),
    // `key` names the visible services and their results switch: `visible` itself is new each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [slug, key],
    firstPaint?.company === slug ? firstPaint : undefined,
  )
  if (!company) return <Muted>Choose a company in the user menu to see its reports.</Muted>
  // A value from another company (switching) is never shown under this one's name.
  const data = live.data?.company === slug ? live.data : undefined
  if (!data) return <LiveStatus live={live.status === 'ready' ? { ...live, status: 'loading' } : live} what="the reports" />

  const withResults = data.services.filter((s) => s.results)
  const onUs = withResults.reduce((sum, s) => sum + s.stats.retestsWaitingOnUs, 0)
  const onYou = withResults.reduce((sum, s) => sum + s.stats.retestsWaitingOnYou, 0)
  const latest = latestScans(data.services, 6)
  return (
    <>
      {live.status === 'failed' && <LiveStatus live={live} what="live updates" />}
      <Tiles>
        {data.services.map((overview) => (
          <ServiceTile key={overview.service} overview={overview} />
        ))}
      </Tiles>
      <Row>
        {withResults.length > 0 && (
          <Panel aria-labelledby="retests-title">
            <h2 id="retests-title">Retests</h2>
            <Waiting>
              <div>
                <dt>Waiting on us</dt>
                <dd data-testid="retests-on-us">{formatNumber(onUs)}</dd>
              </div>
              <div>
                <dt>Waiting on you</dt>
                <dd data-testid="retests-on-you">{formatNumber(onYou)}</dd>
              </div>
            </Waiting>
          </Panel>
        )}
        <Panel aria-labelledby="latest-title">
          <h2 id="latest-title">Latest published scans</h2>
          {latest.length === 0 ? (
            <Muted>No scans published yet.</Muted>
          ) : (
            <ScanList>
              {latest.map((scan) => (
                <li key={scan.id}>
                  <Link to="/reports/$service" params={{ service: scan.service }} search={{ scan: scan.id }}>
                    {serviceById(scan.service as ServiceId)?.label}: {scan.title}
                  </Link>
                  <LocalTime at={scan.publishedAt ?? scan.startedAt} format="date" />
                </li>
              ))}
            </ScanList>
          )}
        </Panel>
      </Row>
    </>
  )
}
