// One finding, live: what it is and where, its template text, evidence, the scans that saw it, its
// retests, status history and conversation, and the moves the reader may make on it.
import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { canViewResults, findingRole, seesInternalComments } from '#domain/access.ts'
import { mentionStands, type CommentVisibility, type FindingComment, type MentionPerson } from '#domain/finding-comments.ts'
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import { findingStatusLabels, type Finding, type FindingOccurrence, type FindingStatus } from '#domain/findings.ts'
import type { FindingIntel } from '#domain/vuln-intel.ts'
import { findingActionLabels, type FindingAction } from '#domain/finding-workflow.ts'
import { retestOutcomeLabels, type Retest } from '#domain/retests.ts'
import type { ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { LocalTime } from '~/ui/local-time'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { MarkdownContent } from '~/ui/markdown-content'
import { Notice } from '~/ui/notice'
import { SegmentedControl } from '~/ui/segmented-control'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { FormMessage, Label } from '~/ui/text-field'
import { colors, fonts, media } from '~/ui/theme'
import { CommentBox } from './comment-box'
import { SlaLabel, StatusBadge } from './finding-badges'
import { FindingMoves } from './finding-moves'
import { findingRow } from './findings-query'
import { addComment } from './moves'
import { formatProbability } from '../format'

const Back = styled(Link)`
  display: inline-block;
  margin-bottom: 12px;
  color: ${colors.primary};
  font-weight: 600;
`

const Head = styled.header`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin-bottom: 24px;

  h1 {
    margin: 0;
    font-size: 26px;
    line-height: 1.25;
    overflow-wrap: anywhere;
  }
`

const Badges = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
`

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) 320px;
  gap: 24px;
  align-items: start;

  ${media.mobile} {
    grid-template-columns: minmax(0, 1fr);
  }
`

const Card = styled.section`
  ${surface}
  padding: 20px;
  margin-bottom: 20px;

  h2 {
    margin: 0 0 12px;
    font-size: 17px;
  }
`

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: 8px 14px;
  margin: 0;

  dt {
    color: ${colors.textMuted};
    font-size: 13px;
    font-weight: 600;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  code {
    font-family: ${fonts.mono};
    font-size: 13px;
  }
`

const Timeline = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 12px;

  li {
    padding-left: 12px;
    border-left: 3px solid ${colors.border};
  }
  p {
    margin: 2px 0 0;
  }
  small {
    color: ${colors.textMuted};
  }
`

const Comment = styled.li<{ $internal: boolean }>`
  padding: 10px 12px;
  border-radius: 8px;
  border: 1px solid ${({ $internal }) => ($internal ? colors.warning : colors.border)};
  background: ${colors.bg};
  list-style: none;
`

const CommentList = styled.ul`
  margin: 0 0 16px;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 10px;
`

const FormRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 10px;
  margin-top: 10px;
`

const CveList = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  font-size: 14px;

  li {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 12px;
    padding: 6px 0;
    border-top: 1px solid ${colors.border};
  }
`

const Muted = styled.p`
  margin: 0;
  color: ${colors.textMuted};
`

// Scanner output, which the scanned site controls: shown as it came, never as Markdown, so it
// cannot plant links or headings in the report.
const Evidence = styled.pre`
  margin: 6px 0 0;
  padding: 10px 12px;
  border-radius: 8px;
  background: ${colors.bg};
  border: 1px solid ${colors.border};
  font-family: ${fonts.mono};
  font-size: 13px;
  line-height: 1.45;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`

const actionLabel = (action: string) =>
  action in findingActionLabels
    ? findingActionLabels[action as FindingAction]
    : ({
        first_seen: 'First seen',
        seen_again: 'Seen again by a scan',
        not_seen: 'Not seen by a scan',
        acceptance_expired: 'Acceptance ended',
      }[action] ?? action)

/** A refusal of the read: the rules' answer for a finding that is not this company's to show. */
const refused = (error: Error) => 'code' in error && error.code === 'permission-denied'

export interface FindingPageProps {
  workspace: Workspace
  service: ServiceId
  findingId: string
  /** The service's report, where the findings table is. */
  backHref: string
}

/** The finding page, for those who see the service's results of the selected company. */
export function FindingPage(props: FindingPageProps) {
  const { workspace, service } = props
  const company = workspace.company
  if (!company || !canViewResults(workspace.access, company, service))
    return <Notice title="Findings are not available">Your company's results of this service are not open to you.</Notice>
  return <LiveFinding key={`${company.slug}/${props.findingId}`} {...props} company={company.slug} />
}

function LiveFinding({ workspace, service, findingId, backHref, company }: FindingPageProps & { company: string }) {
  const internal = seesInternalComments(workspace.access)
  const finding = useLiveData(() => import('./findings-live').then((m) => m.watchFinding(company, findingId)), [company, findingId])
  const history = useLiveData(() => import('./findings-live').then((m) => m.watchFindingHistory(company, findingId)), [company, findingId])
  const comments = useLiveData(
    () => import('./findings-live').then((m) => m.watchFindingComments(company, findingId, internal)),
    [company, findingId, internal],
  )
  const occurrences = useLiveData(() => import('./findings-live').then((m) => m.watchOccurrences(company, findingId)), [company, findingId])
  const retests = useLiveData(
    () => import('./findings-live').then((m) => m.watchFindingRetests(company, service, findingId)),
    [company, service, findingId],
  )

  const back = <Back to={backHref}>← All findings</Back>
  // The server's answer either way: no such finding, or a refusal (a finding under another company's
  // address is not among this company's, and the rules refuse a read of a finding that does not exist).
  const absent = (finding.status === 'ready' && !finding.data) || (finding.status === 'failed' && refused(finding.error))
  if (finding.status !== 'ready' || !finding.data) {
    return (
      <>
        {back}
        {absent ? (
          <Notice title="Finding not found">
            There is no such finding in {workspace.company?.companyName ?? 'this company'}&rsquo;s report, or it is not one you may open.
          </Notice>
        ) : (
          <Head>
            <h1>Finding</h1>
            <LiveStatus live={finding} what="the finding" />
          </Head>
        )}
      </>
    )
  }
  return (
    <FindingView
      back={back}
      company={company}
      finding={finding.data}
      workspace={workspace}
      history={history.data ?? []}
      comments={comments.data ?? []}
      occurrences={occurrences.data ?? []}
      retests={retests.data ?? []}
    />
  )
}

/** The page's content for a finding and what hangs off it (what the DOM tests render). */
export function FindingView({
  back,
  company,
  finding,
  workspace,
  history,
  comments,
  occurrences,
  retests,
}: {
  back?: ReactNode
  company: string
  finding: Finding
  workspace: Pick<Workspace, 'access'>
  history: FindingHistoryEntry[]
  comments: FindingComment[]
  occurrences: FindingOccurrence[]
  retests: Retest[]
}) {
  const role = findingRole(workspace.access)
  const [now] = useState(() => Date.now())
  const row = findingRow(finding, now)
  const location = Object.entries(finding.location).filter(([, value]) => value)
  const acceptance = finding.riskAcceptance

  return (
    <article>
      {back}
      <Head>
        <h1>{finding.title}</h1>
        <Badges>
          <SeverityBadge severity={finding.severity} />
          <StatusBadge status={finding.status} regression={finding.regression} />
          <SlaLabel row={row} />
        </Badges>
        <FindingMoves company={company} finding={finding} role={role} />
      </Head>
      <Layout>
        <div>
          {finding.description && <TextCard title="Description" source={finding.description} />}
          {finding.impact && <TextCard title="Impact" source={finding.impact} />}
          {finding.remediation && <TextCard title="Remediation" source={finding.remediation} />}
          {finding.evidence && <TextCard title="Evidence" source={finding.evidence} scannerOutput />}
          <Occurrences occurrences={occurrences} />
          <Comments company={company} findingId={finding.id} comments={comments} internal={role === 'analyst'} />
        </div>
        <div>
          <Card aria-label="Details">
            <h2>Details</h2>
            <Facts>
              <dt>Asset</dt>
              <dd>
                <code>{finding.asset}</code>
              </dd>
              {location.map(([key, value]) => (
                <Fact key={key} term={key.charAt(0).toUpperCase() + key.slice(1)}>
                  <code>{value}</code>
                </Fact>
              ))}
              {finding.cvss && (
                <Fact term={`CVSS ${finding.cvss.version}`}>
                  <strong>{finding.cvss.score.toFixed(1)}</strong> <code>{finding.cvss.vector}</code>
                </Fact>
              )}
              {finding.cwe.length > 0 && <Fact term="CWE">{finding.cwe.join(', ')}</Fact>}
              {finding.tags.length > 0 && <Fact term="Tags">{finding.tags.join(', ')}</Fact>}
              <Fact term="First seen">
                <LocalTime at={finding.firstSeenAt} format="date" />
              </Fact>
              <Fact term="Last seen">
                <LocalTime at={finding.lastSeenAt} format="date" />
              </Fact>
              <Fact term="Seen in">
                {finding.seenCount} scan{finding.seenCount === 1 ? '' : 's'}
              </Fact>
              <Fact term="SLA due">{finding.sla.dueAt === null ? 'No deadline' : <LocalTime at={finding.sla.dueAt} format="date" />}</Fact>
              {finding.fixedWithinSla !== null && <Fact term="Fixed within SLA">{finding.fixedWithinSla ? 'Yes' : 'No'}</Fact>}
            </Facts>
          </Card>
          {acceptance && (
            <Card aria-label="Risk acceptance">
              <h2>Risk acceptance</h2>
              <Facts>
                <Fact term="Asked by">
                  {acceptance.requestedByName}, <LocalTime at={acceptance.requestedAt} format="date" />
                </Fact>
                <Fact term="Reason">{acceptance.reason}</Fact>
                <Fact term={finding.status === 'risk_accepted' ? 'Accepted until' : 'Asked until'}>
                  <LocalTime at={acceptance.expiresAt} format="date" />
                </Fact>
                {acceptance.decidedByName && (
                  <Fact term="Approved by">
                    {acceptance.decidedByName}
                    {acceptance.decidedAt ? ', ' : ''}
                    {acceptance.decidedAt ? <LocalTime at={acceptance.decidedAt} format="date" /> : null}
                  </Fact>
                )}
              </Facts>
            </Card>
          )}
          {finding.intel && <Exploitation intel={finding.intel} />}
          <Retests retests={retests} />
          <History history={history} />
        </div>
      </Layout>
    </article>
  )
}

/** What CISA's KEV catalogue and FIRST's EPSS say of the finding's CVEs, the most pressing first. */
function Exploitation({ intel }: { intel: FindingIntel }) {
  const id = useId()
  return (
    <Card aria-labelledby={id}>
      <h2 id={id}>Exploitation</h2>
      <Facts>
        <Fact term="Known exploited">
          {intel.kev && intel.kevDateAdded && intel.kevDueDate ? (
            <>
              <strong>Yes</strong>, in CISA&rsquo;s KEV catalogue since <LocalDay day={intel.kevDateAdded} />, due{' '}
              <LocalDay day={intel.kevDueDate} />
            </>
          ) : (
            'Not in CISA’s KEV catalogue'
          )}
        </Fact>
        {intel.epss !== null && (
          <Fact term="EPSS">
            <strong>{formatProbability(intel.epss)}</strong> chance of exploitation in the next 30 days
            {intel.epssPercentile !== null && <>, higher than {formatProbability(intel.epssPercentile)} of CVEs</>}
          </Fact>
        )}
      </Facts>
      <CveList aria-label="By CVE">
        {intel.cves.map((cve) => (
          <li key={cve.cve}>
            <code>{cve.cve}</code>
            {cve.kev && (
              <span>
                KEV: added <LocalDay day={cve.kev.dateAdded} />, due <LocalDay day={cve.kev.dueDate} />
                {cve.kev.ransomware && ', used in ransomware campaigns'}
              </span>
            )}
            {cve.epss !== null && (
              <span>
                EPSS {formatProbability(cve.epss)}
                {cve.percentile !== null && ` (percentile ${formatProbability(cve.percentile)})`}
              </span>
            )}
          </li>
        ))}
      </CveList>
      <Muted>
        Refreshed <LocalTime at={intel.refreshedAt} format="date" />.
      </Muted>
    </Card>
  )
}

/** A calendar day as the feeds give it (no zone): its noon in UTC, so no reader's zone moves it to another day. */
function LocalDay({ day }: { day: string }) {
  return <LocalTime at={`${day}T12:00:00Z`} format="date" />
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  )
}

/** A card of template text (Markdown) or, with `scannerOutput`, of text shown as it came. */
function TextCard({ title, source, scannerOutput = false }: { title: string; source: string; scannerOutput?: boolean }) {
  const id = useId()
  return (
    <Card aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {scannerOutput ? <Evidence>{source}</Evidence> : <MarkdownContent source={source} />}
    </Card>
  )
}

function Occurrences({ occurrences }: { occurrences: FindingOccurrence[] }) {
  const id = useId()
  return (
    <Card aria-labelledby={id}>
      <h2 id={id}>Seen in scans</h2>
      {occurrences.length === 0 ? (
        <Muted>No scan details yet.</Muted>
      ) : (
        <Timeline>
          {occurrences.map((o) => (
            <li key={o.id}>
              <strong>
                <LocalTime at={o.at} />
              </strong>{' '}
              <small>scan {o.scanId}</small>
              {o.asset && <p>{o.asset}</p>}
              {o.evidence && <Evidence>{o.evidence}</Evidence>}
            </li>
          ))}
        </Timeline>
      )}
    </Card>
  )
}

function Retests({ retests }: { retests: Retest[] }) {
  const id = useId()
  if (retests.length === 0) return null
  return (
    <Card aria-labelledby={id}>
      <h2 id={id}>Retests</h2>
      <Timeline>
        {retests.map((r) => {
          const result = r.results.at(-1)
          return (
            <li key={r.id}>
              <strong>
                {r.state === 'requested' ? (
                  <>
                    Requested, due <LocalTime at={r.dueAt} format="date" />
                  </>
                ) : r.state === 'completed' ? (
                  'Completed'
                ) : (
                  'Cancelled'
                )}
              </strong>
              <p>
                {r.requestedByName}, <LocalTime at={r.requestedAt} />: {r.note}
              </p>
              {result && (
                <p>
                  Outcome: {retestOutcomeLabels[result.outcome]} ({result.byName}){result.note ? `: ${result.note}` : ''}
                </p>
              )}
            </li>
          )
        })}
      </Timeline>
    </Card>
  )
}

function History({ history }: { history: FindingHistoryEntry[] }) {
  const id = useId()
  const status = (s: FindingStatus) => findingStatusLabels[s]
  return (
    <Card aria-labelledby={id}>
      <h2 id={id}>Status history</h2>
      {history.length === 0 ? (
        <Muted>No changes yet.</Muted>
      ) : (
        <Timeline aria-label="Status history">
          {history.map((h) => (
            <li key={h.id}>
              <strong>{actionLabel(h.action)}</strong>: {h.from === h.to ? status(h.to) : `${status(h.from)} → ${status(h.to)}`}
              <p>
                <small>
                  {h.byName}, <LocalTime at={h.at} />
                </small>
              </p>
              {h.note && <p>{h.note}</p>}
            </li>
          ))}
        </Timeline>
      )}
    </Card>
  )
}

function Comments({
  company,
  findingId,
  comments,
  internal,
}: {
  company: string
  findingId: string
  comments: FindingComment[]
  internal: boolean
}) {
  const id = useId()
  const bodyId = useId()
  const [body, setBody] = useState('')
  const [visibility, setVisibility] = useState<CommentVisibility>('client')
  const [picked, setPicked] = useState<MentionPerson[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (body.trim() === '') return setError('Write the comment first.')
    setBusy(true)
    setError(null)
    try {
      const text = body.trim()
      // The people picked whose "@Name" is still in the text; the server checks again that they may read it.
      const mentions = picked.filter((person) => mentionStands(text, person)).map((person) => person.uid)
      await addComment(company, findingId, text, visibility, mentions)
      setBody('')
      setPicked([])
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card aria-labelledby={id}>
      <h2 id={id}>Comments</h2>
      {comments.length === 0 ? (
        <Muted>No comments yet.</Muted>
      ) : (
        <CommentList>
          {comments.map((c) => (
            <Comment key={c.id} $internal={c.visibility === 'internal'}>
              <small>
                <strong>{c.authorName}</strong>, <LocalTime at={c.createdAt} />
                {c.visibility === 'internal' ? ' · analysts only' : ''}
              </small>
              <MarkdownContent source={c.body} />
            </Comment>
          ))}
        </CommentList>
      )}
      <form onSubmit={submit}>
        <Label htmlFor={bodyId}>Add a comment</Label>
        <CommentBox
          id={bodyId}
          company={company}
          findingId={findingId}
          visibility={visibility}
          value={body}
          onChange={setBody}
          onPick={(person) => setPicked((all) => [...all.filter((p) => p.uid !== person.uid), person])}
        />
        <FormRow>
          {internal ? (
            <SegmentedControl<CommentVisibility>
              label="Who reads it"
              value={visibility}
              options={[
                { value: 'client', label: 'Client and analysts' },
                { value: 'internal', label: 'Analysts only' },
              ]}
              onChange={setVisibility}
            />
          ) : (
            <span />
          )}
          <Button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Comment'}
          </Button>
        </FormRow>
        {error && <FormMessage $tone="error">{error}</FormMessage>}
      </form>
    </Card>
  )
}
