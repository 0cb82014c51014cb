// /analyst/services/<service>: the analyst's side of one service for the selected company: import
// scanner output as a draft, review and publish it, and answer the retests clients asked for.
// The page names its scan in the address bar (?scan=) so a draft can be linked from the desk.
// "All companies" lists the scans of every company the analyst imports for; an import, the
// retest queue and a draft's review still belong to one company.
import { useId } from 'react'
import { seesAllCompanies } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import { mayImportScans } from '#domain/scan-import-calls.ts'
import { scanStateLabels, scopeTargets, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import type { Capped } from '~/core/watch-query'
import type { Workspace } from '~/core/workspace'
import { LocalTime } from '~/ui/local-time'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { Label, Select } from '~/ui/text-field'
import { DraftReviewPanel } from './draft-review'
import { ImportPanel, type PublishedScope } from './import-panel'
import { QueueScanPanel } from './queue-scan-panel'
import { AgentAuditPanel } from './agent-audit-panel'
import { Muted, Panel, Table, Tag, Toolbar } from './parts'
import { RawFiles } from './raw-files'
import { RetestQueue } from './retest-queue'
import { TemplateMappingsPanel } from './template-mappings-panel'

type ListedScan = Scan & { company?: string }

/** The scopes of the listed published scans, newest first, each once: what an import may compare with. */
function publishedScopes(scans: readonly Scan[]): PublishedScope[] {
  const scopes = new Map<string, PublishedScope>()
  for (const scan of scans)
    if (scan.state === 'published' && !scopes.has(scan.scopeKey)) scopes.set(scan.scopeKey, { key: scan.scopeKey, side: scan.side })
  return [...scopes.values()]
}

function ScanList({
  scans,
  selected,
  onSelect,
  more,
  companyNames,
}: {
  scans: readonly ListedScan[]
  /** Older scans exist beyond those listed. */
  more: boolean
  selected: string | null
  onSelect(scan: ListedScan): void
  /** Set when several companies are listed: the company column's names by slug. */
  companyNames?: ReadonlyMap<string, string>
}) {
  if (scans.length === 0) return <Muted>No scans yet: import the first one above.</Muted>
  return (
    <>
      <Table aria-label="Scans">
        <thead>
          <tr>
            {companyNames && <th scope="col">Company</th>}
            <th scope="col">Scan</th>
            <th scope="col">State</th>
            <th scope="col">Tool</th>
            <th scope="col">Started</th>
            <th scope="col">Findings</th>
          </tr>
        </thead>
        <tbody>
          {scans.map((scan) => (
            <tr
              key={`${scan.company ?? ''}/${scan.id}`}
              aria-current={`${scan.company ?? ''}/${scan.id}` === selected ? 'true' : undefined}
            >
              {companyNames && <td>{companyNames.get(scan.company ?? '') ?? scan.company}</td>}
              <td>
                <button type="button" className="link" onClick={() => onSelect(scan)}>
                  {scan.title}
                </button>
              </td>
              <td>
                <Tag
                  $tone={
                    scan.state === 'draft' || scan.state === 'importing' ? 'warning' : scan.state === 'published' ? 'primary' : 'muted'
                  }
                >
                  {scanStateLabels[scan.state]}
                </Tag>
                {scan.state === 'published' && scan.side && (
                  <>
                    {' '}
                    <Tag $tone="muted" title={`Scope: ${scopeTargets(scan.scopeKey)}`}>
                      Side scan
                    </Tag>
                  </>
                )}
              </td>
              <td>{scan.tool}</td>
              <td>
                <LocalTime at={scan.startedAt} format="date" />
              </td>
              <td className="number">
                {scan.state === 'importing' ? '' : scan.state === 'draft' ? (scan.importReport?.findings ?? '') : scan.counts.total}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ListCap shown={scans.length} what="scans" more={more}>
        Published ones are all in the service&rsquo;s report.
      </ListCap>
    </>
  )
}

/** An import whose last batch never arrived: nothing of it is shown or counted until it is finished. */
function UnfinishedImport({ scan }: { scan: Scan }) {
  return (
    <Panel aria-label={`Scan ${scan.title}`}>
      <h2>{scan.title}</h2>
      <Muted>
        This import has not finished: its findings are not shown, reviewed or published until all of them have arrived. Import the same
        files again to finish it.
      </Muted>
    </Panel>
  )
}

function PublishedSummary({ company, scan }: { company: string; scan: Scan }) {
  const { counts } = scan
  return (
    <Panel aria-label={`Scan ${scan.title}`}>
      <h2>{scan.title}</h2>
      {scan.side && (
        <Muted>
          A side scan of {scopeTargets(scan.scopeKey)}: it closed no finding outside its scope and is not the service&rsquo;s latest scan.
        </Muted>
      )}
      <Muted>
        {scanStateLabels[scan.state]} {scan.publishedAt ? <LocalTime at={scan.publishedAt} format="date" /> : null}
        {scan.publishedBy ? ` by ${scan.publishedBy}` : ''}: {counts.total} findings, {counts.new} new, {counts.persisting} persisting,{' '}
        {counts.notDetected} not detected, {counts.reopened} reopened.
      </Muted>
      <RawFiles company={company} scan={scan} />
    </Panel>
  )
}

export interface AnalystServicePageProps {
  workspace: Workspace
  service: ServiceId
  scanId: string | null
  /** Every company's scans listed at once. */
  allCompanies?: boolean
  /** In the all-companies list, the shown scan's company. */
  scanCompany?: string | null
  onScan(id: string | null, company?: string): void
  /** A company to work on, or null for all of them. */
  onCompany(slug: string | null): void
}

const ALL = '*all'

export function AnalystServicePage(props: AnalystServicePageProps) {
  const { workspace, service, scanId, onScan, onCompany, allCompanies = false, scanCompany = null } = props
  const companyField = useId()
  const company = workspace.company
  const companies: Company[] = workspace.companies
  const slug = company?.slug
  // What the list follows: one company, or every company (their slugs joined).
  const listed = allCompanies ? companies.map((c) => c.slug).join(',') : (slug ?? '')
  const scans = useLiveData<Capped<ListedScan>>(async () => {
    const live = await import('./analyst-live')
    if (allCompanies) return live.watchCompaniesScans(listed.split(',').filter(Boolean), service)
    return listed ? live.watchServiceScans(listed, service) : (next) => (next({ items: [], more: false }), () => {})
  }, [listed, allCompanies, service])
  // The company the shown scan (and the review) belongs to.
  const working = allCompanies ? scanCompany : (slug ?? null)
  const list = scans.data?.items ?? []
  const listedScan = list.find((s) => s.id === scanId && (!allCompanies || s.company === scanCompany)) ?? null
  // A linked scan older than those listed is followed on its own.
  const alone = scans.status === 'ready' && scanId !== null && listedScan === null && working !== null ? `${working}/${scanId}` : null
  const older = useLiveData<Scan | null>(async () => {
    if (alone === null) return (next) => (next(null), () => {})
    const [company, id] = alone.split('/') as [string, string]
    return (await import('./analyst-live')).watchScan(company, id)
  }, [alone])
  if (!mayImportScans(workspace.access, service)) return <Muted>Your access does not include importing this service's scans.</Muted>
  if (!company && !allCompanies) return <Muted>Choose a company in the user menu to work on its scans.</Muted>

  const shownScan = listedScan ?? (alone !== null && older.data?.service === service ? older.data : null)
  const scan: ListedScan | null = shownScan && allCompanies ? { ...shownScan, company: working ?? undefined } : shownScan
  const more = scans.data?.more ?? false
  const picker = (
    <Toolbar>
      <Label htmlFor={companyField}>Company</Label>
      <Select
        id={companyField}
        value={allCompanies ? ALL : slug}
        onChange={(event) => onCompany(event.target.value === ALL ? null : event.target.value)}
      >
        <option value={ALL}>All companies</option>
        {companies.map((c) => (
          <option key={c.slug} value={c.slug}>
            {c.companyName}
          </option>
        ))}
      </Select>
    </Toolbar>
  )
  if (allCompanies || !company)
    return (
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 16 }}>
        {picker}
        <Muted>An import, and the retest queue, belong to one company: pick it above to import.</Muted>
        <Panel aria-label="Scans">
          <h2>Scans of every company</h2>
          <LiveStatus live={scans} what="the scans" />
          {scans.status === 'ready' && (
            <ScanList
              scans={list}
              more={more}
              selected={scan ? `${scan.company ?? ''}/${scan.id}` : null}
              onSelect={(s) => onScan(s.id, s.company)}
              companyNames={new Map(companies.map((c) => [c.slug, c.companyName]))}
            />
          )}
        </Panel>
        {scan && working && scan.state === 'draft' && (
          <DraftReviewPanel key={`${working}/${scan.id}`} company={working} service={service} scan={scan} />
        )}
        {scan && scan.state === 'importing' && <UnfinishedImport scan={scan} />}
        {scan && working && scan.state !== 'draft' && scan.state !== 'importing' && <PublishedSummary company={working} scan={scan} />}
      </div>
    )
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 16 }}>
      {picker}
      <ImportPanel
        company={company.slug}
        companyName={company.companyName}
        service={service}
        scopes={publishedScopes(list)}
        onImported={(id) => onScan(id)}
      />
      {seesAllCompanies(workspace.access) && <QueueScanPanel company={company.slug} service={service} onScan={onScan} />}
      {seesAllCompanies(workspace.access) && service === 'password_cracking' && (
        <AgentAuditPanel company={company.slug} companyName={company.companyName} onScan={onScan} />
      )}
      <Panel aria-label="Scans">
        <h2>Scans</h2>
        <LiveStatus live={scans} what="the scans" />
        {scans.status === 'ready' && (
          <ScanList scans={list} more={more} selected={scan ? `/${scan.id}` : null} onSelect={(s) => onScan(s.id)} />
        )}
      </Panel>
      {scan?.state === 'draft' && <DraftReviewPanel key={scan.id} company={company.slug} service={service} scan={scan} />}
      {scan && scan.state === 'importing' && <UnfinishedImport scan={scan} />}
      {scan && scan.state !== 'draft' && scan.state !== 'importing' && <PublishedSummary company={company.slug} scan={scan} />}
      <RetestQueue company={company.slug} service={service} />
      <TemplateMappingsPanel service={service} />
    </div>
  )
}
