// /admin: the administration areas this person may open, each with a line and a live count, and
// the latest audit events they may read (every event for platform admins, every company's and the
// fleet's for senior analysts, the selected company's for company admins).
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { hasLevel, LEVEL, seesAllCompanies, type Access } from '#domain/access.ts'
import { auditActionVerbs, type AuditEvent } from '#domain/audit-events.ts'
import type { Company } from '#domain/companies.ts'
import { useLiveData } from '~/core/live-data'
import type { Capped } from '~/core/watch-query'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { LocalTime } from '~/ui/local-time'
import { surface } from '~/ui/surface'
import { adminAreas, type AreaCount } from './admin-areas'
import type { AuditFeed } from './admin-hub-live'

const Areas = styled.ul`
  list-style: none;
  margin: 0 0 24px;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 12px;

  > li {
    ${surface}
    padding: 16px 18px;
    display: grid;
    gap: 6px;
  }
  a {
    font-weight: 600;
  }
  p {
    margin: 0;
    color: var(--color-text-muted);
    font-size: 14px;
  }
`

const Count = styled.strong`
  font-size: 14px;
`

const Section = styled.section`
  ${surface}
  padding: 20px 24px;

  h2 {
    font-size: 17px;
    margin: 0 0 8px;
  }
  ol {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  li {
    padding: 8px 0;
    border-top: 1px solid var(--color-border);
    font-size: 14px;
  }
  time,
  .muted {
    color: var(--color-text-muted);
  }
`

/** Only platform admins may list (and so count) people: below them the people page lists them through its callable. */
const countable = (count: AreaCount, access: Access) => count !== 'company-people' || hasLevel(access, LEVEL.platformAdmin)

function AreaCountLine({ count, company }: { count: AreaCount; company: Company | null | undefined }) {
  const slug = count === 'company-people' ? (company?.slug ?? null) : null
  const live = useLiveData<number>(
    () => import('./admin-hub-live').then((m) => (count === 'keys-expiring' ? m.watchExpiringKeys : m.watchPeopleCount(slug))),
    [count, slug],
  )
  if (count === 'company-people' && !company) return null
  if (live.status !== 'ready') return <LiveStatus live={live} what="the count" />
  const n = live.data
  const text =
    count === 'keys-expiring'
      ? `${n} ${n === 1 ? 'key expires' : 'keys expire'} within 14 days`
      : count === 'company-people'
        ? `${n} ${n === 1 ? 'person' : 'people'} in ${company?.companyName}`
        : `${n} ${n === 1 ? 'person' : 'people'} can sign in`
  return <Count data-count={count}>{text}</Count>
}

/** The latest changes; `companyNames` names the companies the reader knows (a slug is shown only for another). */
function AuditTrail({ feed, companyNames }: { feed: AuditFeed; companyNames: ReadonlyMap<string, string> }) {
  const { kind } = feed
  const slug = feed.kind === 'company' ? feed.slug : null
  const events = useLiveData<Capped<AuditEvent>>(
    () =>
      import('./admin-hub-live').then((m) =>
        m.watchAuditEvents(slug === null ? { kind: kind === 'company' ? 'all' : kind } : { kind: 'company', slug }),
      ),
    [kind, slug],
  )
  return (
    <Section aria-labelledby="audit-title">
      <h2 id="audit-title">Latest changes</h2>
      {events.status !== 'ready' ? (
        <LiveStatus live={events} what="the latest changes" />
      ) : events.data.items.length === 0 ? (
        <p className="muted">No changes recorded yet.</p>
      ) : (
        <>
          <ol aria-label="Latest changes">
            {events.data.items.map((event) => (
              <li key={event.id} data-action={event.action}>
                {event.actorEmail ?? event.actorUid} {auditActionVerbs[event.action]} <strong>{event.target.label}</strong>
                {event.companyId && <span className="muted"> · {companyNames.get(event.companyId) ?? event.companyId}</span>}
                {event.at !== null && (
                  <>
                    {' · '}
                    <LocalTime at={event.at} />
                  </>
                )}
              </li>
            ))}
          </ol>
          <ListCap shown={events.data.items.length} what="changes" more={events.data.more}>
            Older changes are in each company&rsquo;s audit trail.
          </ListCap>
        </>
      )}
    </Section>
  )
}

export function AdminHub({
  access,
  company,
  companies,
}: {
  access: Access
  company: Company | null | undefined
  companies: readonly Company[]
}) {
  const areas = adminAreas(access, company)
  // Platform admins read every event, senior analysts those of every company and of the fleet
  // (maySeeAuditEvent), company admins those of the company they have selected.
  const feed: AuditFeed | null = hasLevel(access, LEVEL.platformAdmin)
    ? { kind: 'all' }
    : seesAllCompanies(access)
      ? { kind: 'analysts' }
      : company
        ? { kind: 'company', slug: company.slug }
        : null
  return (
    <>
      <Areas aria-label="Administration areas">
        {areas.map(({ page, count }) => (
          <li key={page.path}>
            <Link to={page.path}>{page.title}</Link>
            <p>{page.summary}</p>
            {count === 'companies'
              ? seesAllCompanies(access) && (
                  <Count data-count="companies">{`${companies.length} ${companies.length === 1 ? 'company' : 'companies'}`}</Count>
                )
              : count && countable(count, access) && <AreaCountLine count={count} company={company} />}
          </li>
        ))}
      </Areas>
      {feed && (
        <AuditTrail feed={feed} companyNames={new Map([...companies, ...(company ? [company] : [])].map((c) => [c.slug, c.companyName]))} />
      )}
    </>
  )
}
