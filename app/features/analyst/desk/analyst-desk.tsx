import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import styled, { css } from 'styled-components'
import { scanStateLabels } from '#domain/scans.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { formatNumber } from '#domain/numbers.ts'
import { DAY_MS } from '#domain/sla.ts'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { LiveStatus } from '~/ui/live-status'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { colors } from '~/ui/theme'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { ListCap } from '~/ui/list-cap'
import { DESK_LIMITS, deskCaps, deskServices, disputedRows, draftRows, latestImports, retestRows, type DeskData } from './desk-data'
import { formatTime } from '~/ui/local-time'

// The desk renders in the browser (live data): dates in the reader's language and zone.
const formatDate = (at: number) => formatTime(at, 'date')
const formatDateTime = (at: number) => formatTime(at, 'date-time')
const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`

// Links in tiles and tables: the router's Link, styled through its container (a styled Link loses its route types).
const links = css`
  a {
    color: ${colors.primary};
    font-weight: 600;
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
  a:focus-visible {
    outline: 2px solid ${colors.focus};
    outline-offset: 2px;
    border-radius: 4px;
  }
`

const Tiles = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 16px;
  margin-bottom: 24px;
`

const Tile = styled.article`
  ${surface}
  ${links}
  display: flex;
  flex-direction: column;
  gap: 10px;
  padding: 16px 18px;

  h2 {
    font-size: 16px;
    font-weight: 650;
    margin: 0;
  }
  dl {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 4px 12px;
    margin: 0;
    font-size: 14px;
  }
  dt {
    color: ${colors.textMuted};
  }
  dd {
    margin: 0;
    font-weight: 650;
    font-variant-numeric: tabular-nums;
    text-align: right;
  }
  .danger {
    color: ${colors.danger};
  }
`

const Panels = styled.div`
  display: grid;
  gap: 24px;
`

const Panel = styled.section`
  ${surface}
  padding: 18px 20px;
  min-width: 0;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0 0 12px;
  }
`

// Wide tables scroll inside their panel; the region is focusable so the keyboard can scroll it.
const Scroll = styled.div`
  overflow-x: auto;

  &:focus-visible {
    outline: 2px solid ${colors.focus};
    outline-offset: 2px;
  }
`

const Table = styled.table`
  width: 100%;
  min-width: 640px;
  border-collapse: collapse;
  font-size: 14px;
  ${links}

  th {
    text-align: left;
    font-weight: 600;
    color: ${colors.textMuted};
    padding: 6px 12px 8px 0;
    border-bottom: 1px solid ${colors.border};
    white-space: nowrap;
  }
  td {
    padding: 10px 12px 10px 0;
    border-bottom: 1px solid ${colors.border};
    vertical-align: top;
  }
  tbody tr:last-child td {
    border-bottom: 0;
  }
  .number {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  .nowrap {
    white-space: nowrap;
  }
  .muted {
    color: ${colors.textMuted};
  }
  /* The row's subject keeps room to read; long addresses wrap instead of taking it. */
  .subject {
    min-width: 260px;
  }
  .asset {
    min-width: 200px;
    max-width: 320px;
    overflow-wrap: anywhere;
  }
`

const Pill = styled.span<{ $tone: 'danger' | 'muted' }>`
  display: inline-flex;
  align-items: center;
  min-height: 22px;
  padding: 0 8px;
  margin-left: 8px;
  border: 1px solid;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 700;
  white-space: nowrap;
  color: ${({ $tone }) => ($tone === 'danger' ? `color-mix(in srgb, ${colors.danger} 80%, ${colors.text})` : colors.textMuted)};
  background: ${({ $tone }) => ($tone === 'danger' ? `color-mix(in srgb, ${colors.danger} 12%, transparent)` : 'transparent')};
  border-color: ${({ $tone }) => ($tone === 'danger' ? `color-mix(in srgb, ${colors.danger} 45%, transparent)` : colors.border)};
`

const Muted = styled.p`
  margin: 0;
  color: ${colors.textMuted};
`

const serviceLabel = (service: ServiceId) => serviceById(service)?.label ?? service
const analystSlug = (service: ServiceId) => serviceById(service)?.analystSlug ?? service
const findingHref = (service: ServiceId, id: string): string => `/reports/${service}/${encodeURIComponent(id)}`

function Section({ id, title, empty, children }: { id: string; title: string; empty: string | null; children: ReactNode }) {
  return (
    <Panel aria-labelledby={id} data-testid={id}>
      <h2 id={id}>{title}</h2>
      {empty !== null ? (
        <Muted>{empty}</Muted>
      ) : (
        <Scroll role="group" aria-labelledby={id} tabIndex={0}>
          {children}
        </Scroll>
      )}
    </Panel>
  )
}

/** The desk as data gives it; `now` decides which retests are overdue. */
export function DeskView({ data, now }: { data: DeskData; now: number }) {
  const drafts = draftRows(data)
  const retests = retestRows(data, now)
  const disputed = disputedRows(data)
  const imports = latestImports(data)
  const caps = deskCaps(data)
  const moreImports = caps.imports || latestImports(data, Infinity).length > imports.length
  return (
    <>
      <Tiles>
        {data.services.map(({ service, drafts: waiting, retests: asked, disputed: contested }) => {
          const overdue = asked.overdue
          const headingId = `desk-tile-${service}`
          return (
            <Tile key={service} aria-labelledby={headingId} data-testid={headingId}>
              <h2 id={headingId}>
                <Link to="/analyst/services/$service" params={{ service: analystSlug(service) }}>
                  {serviceLabel(service)}
                </Link>
              </h2>
              <dl>
                <dt>Drafts to publish</dt>
                <dd>{formatNumber(waiting.total)}</dd>
                <dt>Retests requested</dt>
                <dd>{formatNumber(asked.total)}</dd>
                {overdue > 0 && (
                  <>
                    <dt className="danger">Retests overdue</dt>
                    <dd className="danger">{formatNumber(overdue)}</dd>
                  </>
                )}
                <dt>Disputed findings</dt>
                <dd>{formatNumber(contested.total)}</dd>
              </dl>
            </Tile>
          )
        })}
      </Tiles>
      <Panels>
        <Section id="desk-drafts" title="Drafts waiting to be published" empty={drafts.length === 0 ? 'No drafts are waiting.' : null}>
          <Table>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Scan</th>
                <th scope="col">Tool</th>
                <th scope="col">Imported</th>
                <th scope="col" className="number">
                  Findings
                </th>
              </tr>
            </thead>
            <tbody>
              {drafts.map(({ service, scan, importedAt, findings }) => (
                <tr key={`${service}/${scan.id}`}>
                  <td className="nowrap">{serviceLabel(service)}</td>
                  <td>
                    <Link to="/analyst/services/$service" params={{ service: analystSlug(service) }} search={{ scan: scan.id }}>
                      {scan.title}
                    </Link>
                  </td>
                  <td className="muted">{scan.files.map((f) => `${f.tool} ${f.toolVersion}`.trim()).join(', ') || scan.tool || '–'}</td>
                  <td className="nowrap">{formatDateTime(importedAt)}</td>
                  <td className="number">{formatNumber(findings)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <ListCap shown={DESK_LIMITS.drafts} what="drafts of a service" order="longest waiting" more={caps.drafts}>
            The service&rsquo;s page lists its drafts among its scans.
          </ListCap>
        </Section>

        <Section
          id="desk-retests"
          title="Retests requested"
          empty={retests.length === 0 ? 'No retests are waiting: clients have not asked for any.' : null}
        >
          <Table>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Findings</th>
                <th scope="col">Requested</th>
                <th scope="col">Due</th>
                <th scope="col">
                  <VisuallyHidden>Queue</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {retests.map(({ service, retest, overdue }) => (
                <tr key={`${service}/${retest.id}`} data-testid={`desk-retest-${retest.id}`}>
                  <td className="nowrap">{serviceLabel(service)}</td>
                  <td>
                    {plural(retest.findingIds.length, 'finding', 'findings')}
                    {retest.findingTitles[0] && (
                      <div className="muted">
                        {retest.findingTitles[0]}
                        {retest.findingTitles.length > 1 ? ` and ${formatNumber(retest.findingTitles.length - 1)} more` : ''}
                      </div>
                    )}
                    {retest.note && <div className="muted">“{retest.note}”</div>}
                  </td>
                  <td className="nowrap">
                    {formatDate(retest.requestedAt)}
                    <div className="muted">{retest.requestedByName}</div>
                  </td>
                  <td className="nowrap">
                    {formatDate(retest.dueAt)}
                    {overdue ? (
                      <Pill $tone="danger">Overdue by {plural(Math.max(1, Math.floor((now - retest.dueAt) / DAY_MS)), 'day', 'days')}</Pill>
                    ) : (
                      <Pill $tone="muted">{plural(Math.max(0, Math.ceil((retest.dueAt - now) / DAY_MS)), 'day', 'days')} left</Pill>
                    )}
                  </td>
                  <td className="nowrap">
                    <Link
                      to="/analyst/services/$service"
                      params={{ service: analystSlug(service) }}
                      aria-label={`Open the ${serviceLabel(service)} retest queue`}
                    >
                      Retest queue
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <ListCap shown={DESK_LIMITS.retests} what="retests of a service" order="soonest due" more={caps.retests}>
            The tiles count them all; the rest follow as these are answered.
          </ListCap>
        </Section>

        <Section id="desk-disputed" title="Findings disputed by clients" empty={disputed.length === 0 ? 'No findings are disputed.' : null}>
          <Table>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Finding</th>
                <th scope="col">Severity</th>
                <th scope="col">Asset</th>
                <th scope="col">Disputed since</th>
              </tr>
            </thead>
            <tbody>
              {disputed.map(({ service, finding }) => (
                <tr key={`${service}/${finding.id}`}>
                  <td className="nowrap">{serviceLabel(service)}</td>
                  <td className="subject">
                    <Link to={findingHref(service, finding.id)}>{finding.title}</Link>
                  </td>
                  <td>
                    <SeverityBadge severity={finding.severity} />
                  </td>
                  <td className="muted asset">{finding.asset}</td>
                  <td className="nowrap">{formatDate(finding.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <ListCap shown={DESK_LIMITS.disputed} what="disputed findings of a service" order="most recently seen" more={caps.disputed}>
            The tiles count them all; the service&rsquo;s report filters findings by status.
          </ListCap>
        </Section>

        <Section id="desk-imports" title="Latest imports" empty={imports.length === 0 ? 'Nothing has been imported yet.' : null}>
          <Table>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Scan</th>
                <th scope="col">Files</th>
                <th scope="col">State</th>
                <th scope="col">Scanned</th>
              </tr>
            </thead>
            <tbody>
              {imports.map(({ service, scan }) => (
                <tr key={`${service}/${scan.id}`}>
                  <td className="nowrap">{serviceLabel(service)}</td>
                  <td>
                    <Link to="/analyst/services/$service" params={{ service: analystSlug(service) }} search={{ scan: scan.id }}>
                      {scan.title}
                    </Link>
                  </td>
                  <td className="muted asset">{scan.files.map((f) => f.name).join(', ')}</td>
                  <td className="nowrap">{scanStateLabels[scan.state]}</td>
                  <td className="nowrap">{formatDate(scan.startedAt)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <ListCap shown={imports.length} what="imports" order="latest" more={moreImports}>
            The service&rsquo;s page lists more of its scans.
          </ListCap>
        </Section>
      </Panels>
    </>
  )
}

/**
 * The analyst's desk for the company chosen in the user menu: per service they may import, the
 * drafts to publish, retests and disputes clients wait on, and the latest imports, live.
 */
export function AnalystDesk({ workspace }: { workspace: Workspace | null | undefined }) {
  const company = workspace?.company ?? null
  const slug = company?.slug ?? ''
  const allowed = deskServices(workspace?.access, company)
  const key = allowed.join(',')
  const live = useLiveData(
    () => import('./desk-live').then((m) => m.watchDesk(slug, allowed)),
    // `key` names the services: `allowed` itself is new each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [slug, key],
  )
  if (!company) return <Muted>Choose a company in the user menu to see its desk.</Muted>
  if (allowed.length === 0) return <Muted>{company.companyName} uses no service whose scans you may import.</Muted>
  // A value from another company (switching) is never shown under this one's name.
  const data = live.data?.company === slug ? live.data : undefined
  if (!data) return <LiveStatus live={live.status === 'ready' ? { ...live, status: 'loading' } : live} what="the desk" />
  return (
    <>
      {live.status === 'failed' && <LiveStatus live={live} what="live updates" />}
      <DeskView data={data} now={Date.now()} />
    </>
  )
}
