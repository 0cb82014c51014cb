import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { IconAlertTriangle, IconChevronRight, IconCircleCheck, IconPoint, IconSearch } from '@tabler/icons-react'
import styled from 'styled-components'
import { canViewReport } from '#domain/access.ts'
import { brand } from '#domain/brand.ts'
import type { Company } from '#domain/companies.ts'
import { findingStatusLabels } from '#domain/findings.ts'
import { searchableServices } from '#domain/findings-search.ts'
import { serviceById, services, type ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import { linkOf } from '~/core/search-params'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { LiveStatus } from '~/ui/live-status'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { fieldControl } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { activityLines, SINCE_LIMIT, slaLines, type DashboardLine } from './dashboard-lines'
import type { FindingHit } from '~/core/findings-search-client'
import { useFindingsSearch } from './use-findings-search'
import { LocalTime } from '~/ui/local-time'

const Page = styled.div`
  display: grid;
  gap: 24px;
  max-width: 860px;

  h1 {
    margin: 0;
    font-size: 30px;
    font-weight: 700;
  }
`

const Intro = styled.p`
  margin: 4px 0 0;
  color: var(--color-text-muted);
  font-size: 16px;
`

const Card = styled.section`
  ${surface}
  padding: 18px 22px;

  h2 {
    margin: 0 0 10px;
    font-size: 17px;
  }
`

const Lines = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;

  li + li {
    border-top: 1px solid var(--color-border);
  }
  a {
    display: flex;
    align-items: center;
    gap: 12px;
    min-height: 44px;
    padding: 6px 4px;
    color: inherit;
    text-decoration: none;
  }
  a:hover span,
  a:focus-visible span {
    text-decoration: underline;
  }
  span {
    flex: 1;
    min-width: 0;
  }
  time {
    color: var(--color-text-muted);
    font-size: 13px;
    white-space: nowrap;
  }
`

/**
 * The dashboard's lines: what happened and, under it, where the line leads; on a narrow screen the
 * time goes under them too, so the words keep the width.
 */
const ChangeLines = styled(Lines)`
  a {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto auto;
  }
  /* The chevron keeps the last column, with or without a time before it. */
  a > svg:last-child {
    grid-column: -2;
  }
  span > small {
    display: block;
    color: var(--color-text-muted);
    font-size: 13px;
  }
  @media (max-width: 560px) {
    a {
      grid-template-columns: auto minmax(0, 1fr) auto;
      row-gap: 2px;
    }
    time {
      grid-column: 2;
      grid-row: 2;
    }
  }
`

const Muted = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

const toneColour: Record<DashboardLine['tone'], string> = {
  neutral: 'var(--color-primary)',
  good: 'var(--color-success)',
  warning: 'var(--color-warning)',
  danger: 'var(--color-danger)',
}

function LineIcon({ tone }: { tone: DashboardLine['tone'] }) {
  const Icon = tone === 'good' ? IconCircleCheck : tone === 'neutral' ? IconPoint : IconAlertTriangle
  return <Icon size={20} color={toneColour[tone]} aria-hidden="true" />
}

/** Dates in the reader's own zone and language. */
const When = ({ at }: { at: number }) => <LocalTime at={at} />

export function DashboardLines({ lines, testId }: { lines: readonly DashboardLine[]; testId: string }) {
  return (
    <ChangeLines data-testid={testId}>
      {lines.map((line) => (
        <li key={line.key}>
          <Link {...linkOf(line.href)}>
            <LineIcon tone={line.tone} />
            <span>
              {line.text}
              <small>{line.where}</small>
            </span>
            {line.at !== null && <When at={line.at} />}
            <IconChevronRight size={16} aria-hidden="true" />
          </Link>
        </li>
      ))}
    </ChangeLines>
  )
}

const live = () => import('./dashboard-live')

/** What changed in the company's services since the person's last visit, and what is about to break. */
function CompanyDashboard({
  session,
  company,
  serviceIds,
  since,
}: {
  session: Session
  company: Company
  serviceIds: ServiceId[]
  since: number | null
}) {
  const servicesKey = serviceIds.join()
  const data = useLiveData(
    () => live().then((m) => m.watchDashboard(company.slug, serviceIds, since)),
    // `servicesKey` stands for `serviceIds`: a new array with the same services must not restart the listeners.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [company.slug, servicesKey, since],
  )
  const stamped = useRef(false)

  // Seen once the dashboard has shown its data: the next visit starts from here.
  useEffect(() => {
    if (data.status !== 'ready' || stamped.current) return
    stamped.current = true
    live()
      .then((m) => m.markVisited(session))
      .catch((error: unknown) => console.warn('The visit could not be recorded', error))
  }, [data.status, session])

  const changes = data.data ? activityLines(data.data.activity) : []
  const sla = data.data ? slaLines(data.data.stats, serviceIds) : []
  return (
    <>
      <Card aria-labelledby="dashboard-changes" aria-busy={data.status === 'loading'}>
        <h2 id="dashboard-changes">{since === null ? `Latest in ${company.companyName}` : 'Since your last visit'}</h2>
        {since !== null && (
          <Muted>
            In {company.companyName} since <When at={since} />
          </Muted>
        )}
        {data.status !== 'ready' ? (
          <LiveStatus live={data} what="what changed" />
        ) : changes.length === 0 ? (
          <Muted>{since === null ? 'Nothing has been published yet.' : 'Nothing new since then.'}</Muted>
        ) : (
          <DashboardLines lines={changes} testId="dashboard-changes" />
        )}
        {(data.data?.capped ?? []).length > 0 && (
          <Muted role="note" data-list-cap="changes">
            More happened in {(data.data?.capped ?? []).map((service) => serviceById(service)?.label ?? service).join(', ')} than is summed
            here (the latest {SINCE_LIMIT} updates of each are): its report holds every figure.
          </Muted>
        )}
      </Card>
      {sla.length > 0 && (
        <Card aria-labelledby="dashboard-sla">
          <h2 id="dashboard-sla">SLAs about to break</h2>
          <DashboardLines lines={sla} testId="dashboard-sla" />
        </Card>
      )}
    </>
  )
}

const Ask = styled.div`
  margin-top: 12px;
`

const SearchBox = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 0 12px;
  min-height: 42px;
  ${fieldControl}

  &:focus-within {
    outline: 2px solid var(--color-focus);
    outline-offset: 1px;
  }
  input {
    flex: 1;
    min-width: 0;
    border: none;
    background: none;
    color: inherit;
    font: inherit;
    outline: none;
  }
`

/** A hit: its severity, the title with the asset under it, and its status; on a phone the status goes under them. */
const Hits = styled(Lines)`
  margin-top: 8px;

  a {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    column-gap: 12px;
    row-gap: 2px;
  }
  small {
    color: var(--color-text-muted);
    font-size: 13px;
  }
  .asset {
    display: block;
    overflow-wrap: anywhere;
  }
  .status {
    white-space: nowrap;
  }
  @media (max-width: 560px) {
    .status {
      grid-column: 2;
    }
  }
`

/** A finding's own page, under its service's report. */
const findingHref = (hit: FindingHit): string => `/reports/${hit.service}/${encodeURIComponent(hit.findingId)}`

/** Search box over the company's findings; each hit opens its finding page. */
function FindingsSearch({ company }: { company: Company }) {
  const hydrated = useHydrated()
  const [text, setText] = useState('')
  const search = useFindingsSearch(company.slug, text)
  return (
    <Card aria-labelledby="dashboard-search">
      <h2 id="dashboard-search">Find a finding</h2>
      <SearchBox>
        <IconSearch size={18} aria-hidden="true" />
        <input
          type="search"
          aria-label={`Search the findings of ${company.companyName}`}
          placeholder="Title, asset or tag"
          value={text}
          disabled={!hydrated}
          onChange={(event) => setText(event.target.value)}
        />
      </SearchBox>
      {search.status === 'failed' && <Muted role="alert">{search.message}</Muted>}
      {search.status === 'ready' && search.hits.length === 0 && <Muted role="status">No finding matches “{text.trim()}”.</Muted>}
      {(search.status === 'ready' || search.status === 'loading') && search.hits.length > 0 && (
        <Hits data-testid="finding-hits" aria-busy={search.status === 'loading'}>
          {search.hits.map((hit) => (
            <li key={hit.objectID}>
              <Link to={findingHref(hit)}>
                <SeverityBadge severity={hit.severity} />
                <span>
                  {hit.title} <small className="asset">{hit.asset}</small>
                </span>
                <small className="status">{findingStatusLabels[hit.status]}</small>
              </Link>
            </li>
          ))}
        </Hits>
      )}
    </Card>
  )
}

/** Home for a signed-in person: a welcome, then their selected company's news, live. */
export function Dashboard({
  session,
  workspace,
  areas,
  askForAccess,
}: {
  session: Session
  workspace: Workspace | null | undefined
  /** The areas the person may open, as links (composed by the route). */
  areas?: ReactNode
  /** A way to ask for access, offered when the person has no company or no report to see (composed by the route). */
  askForAccess?: ReactNode
}) {
  // The visit this page started from: stamping the new one must not empty the page.
  const [since] = useState(() => workspace?.preferences.lastVisitAt ?? null)
  const company = workspace?.company ?? null
  const serviceIds = company && workspace ? services.filter((s) => canViewReport(workspace.access, company, s.id)).map((s) => s.id) : []
  const searchable = company && workspace ? searchableServices(workspace.access, company).length > 0 : false
  const name = workspace?.preferences.displayName || session.email

  return (
    <Page>
      <header>
        <h1>{since === null ? `Welcome to ${brand.name}` : 'Welcome back'}</h1>
        <Intro>
          {since === null ? `Signed in as ${name}. Here is where your company's security test results arrive.` : `Signed in as ${name}.`}
        </Intro>
      </header>
      {areas}
      {workspace === undefined ? null : !company ? (
        <Card aria-labelledby="dashboard-no-access">
          <h2 id="dashboard-no-access">No company yet</h2>
          <Muted>You are not a member of any company yet: an administrator adds you to yours. Ask for access and we answer by email.</Muted>
          {askForAccess && <Ask>{askForAccess}</Ask>}
        </Card>
      ) : serviceIds.length === 0 ? (
        <Card aria-labelledby="dashboard-no-access">
          <h2 id="dashboard-no-access">No reports for you yet</h2>
          <Muted>
            You cannot see any of {company.companyName}&rsquo;s reports yet: your account does not include a service of theirs. Ask for
            access and we answer by email.
          </Muted>
          {askForAccess && <Ask>{askForAccess}</Ask>}
        </Card>
      ) : (
        // A company switch starts the dashboard and the search afresh.
        <Fragment key={company.slug}>
          <CompanyDashboard session={session} company={company} serviceIds={serviceIds} since={since} />
          {searchable && <FindingsSearch company={company} />}
        </Fragment>
      )}
    </Page>
  )
}
