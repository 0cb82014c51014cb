import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { latestWholeServiceScan, scanTrend } from '#domain/scans.ts'
import { openTotal } from '#domain/service-stats.ts'
import { serviceById } from '#domain/services.ts'
import { SEVERITIES, severityLabels } from '#domain/template-vocabulary.ts'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import type { ServiceOverview } from '../data/report-data'
import { LocalTime } from '~/ui/local-time'
import { formatNumber } from '../format'

const Tile = styled.article`
  ${surface}
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 18px 20px;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0;
  }
`

const Big = styled.p`
  margin: 0;
  font-size: 30px;
  font-weight: 700;
  font-variant-numeric: tabular-nums;

  span {
    font-size: 14px;
    font-weight: 400;
    color: var(--color-text-muted);
    margin-left: 6px;
  }
`

const Severities = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  list-style: none;
  margin: 0;
  padding: 0;
`

const Facts = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 4px 12px;
  margin: 0;
  font-size: 14px;

  dt {
    color: var(--color-text-muted);
  }
  dd {
    margin: 0;
    font-variant-numeric: tabular-nums;
  }
  .danger {
    color: var(--color-danger);
    font-weight: 650;
  }
  .warning {
    color: var(--color-warning);
    font-weight: 650;
  }
`

const More = styled(Link)`
  margin-top: auto;
  font-weight: 600;
  color: var(--color-primary);
  text-decoration: none;

  &:hover {
    text-decoration: underline;
  }
`

const Muted = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

/** How the latest scan's findings differ from the scan before it of its scope. */
export const trendLine = (overview: ServiceOverview): string | null => {
  // A side scan (one host, say) is not the service's latest: the trend is the whole service's.
  const wholeService = overview.scans.filter((s) => !s.side)
  return scanTrend(wholeService.length ? wholeService : overview.scans)
}

/** One service on the company overview: open findings by severity, trend, SLA and the last scan. */
export function ServiceTile({ overview }: { overview: ServiceOverview }) {
  const service = serviceById(overview.service)!
  const { stats } = overview
  const latest = latestWholeServiceScan(overview.scans)
  const open = openTotal(stats.open)
  const breached = openTotal(stats.breached)
  const dueSoon = openTotal(stats.dueSoon)
  const trend = trendLine(overview)
  const headingId = `tile-${overview.service}`
  return (
    <Tile aria-labelledby={headingId} data-testid={`tile-${overview.service}`}>
      <h2 id={headingId}>{service.label}</h2>
      {!latest ? (
        <Muted>No scans published yet.</Muted>
      ) : (
        <>
          <Big>
            {formatNumber(open)}
            <span>open {open === 1 ? 'finding' : 'findings'}</span>
          </Big>
          <Severities aria-label="Open findings by severity">
            {SEVERITIES.filter((s) => stats.open[s] > 0).map((s) => (
              <li key={s}>
                <SeverityBadge severity={s} label={`${formatNumber(stats.open[s])} ${severityLabels[s].toLowerCase()}`} />
              </li>
            ))}
          </Severities>
          <Facts>
            <dt>Since the last scan</dt>
            <dd>{trend}</dd>
            <dt>SLA breached</dt>
            <dd className={breached > 0 ? 'danger' : undefined}>{formatNumber(breached)}</dd>
            <dt>SLA due soon</dt>
            <dd className={dueSoon > 0 ? 'warning' : undefined}>{formatNumber(dueSoon)}</dd>
            <dt>Last scan</dt>
            <dd>
              <LocalTime at={latest.publishedAt ?? latest.startedAt} format="date" />
            </dd>
          </Facts>
        </>
      )}
      <More to={`/reports/${overview.service}`}>Open the {service.label} report</More>
    </Tile>
  )
}
