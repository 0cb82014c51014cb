// /analyst/services/<service>: the analyst's side of one service for the selected company: import
// scanner output as a draft, review and publish it, and answer the retests clients asked for.
// The page names its scan in the address bar (?scan=) so a draft can be linked from the desk.
import { useId } from 'react'
import type { Company } from '#domain/companies.ts'
import { mayImportScans } from '#domain/scan-import-calls.ts'
import { scanStateLabels, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { LiveStatus } from '~/ui/live-status'
import { Label, Select } from '~/ui/text-field'
import { DraftReviewPanel } from './draft-review'
import { ImportPanel } from './import-panel'
import { Muted, Panel, Table, Tag, Toolbar } from './parts'
import { RawFiles } from './raw-files'
import { RetestQueue } from './retest-queue'
import { TemplateMappingsPanel } from './template-mappings-panel'

const day = (at: number | null) => (at ? new Date(at).toISOString().slice(0, 10) : '')

function ScanList({ scans, selected, onSelect }: { scans: readonly Scan[]; selected: string | null; onSelect(id: string): void }) {
  if (scans.length === 0) return <Muted>No scans yet: import the first one above.</Muted>
  return (
    <Table aria-label="Scans">
      <thead>
        <tr>
          <th scope="col">Scan</th>
          <th scope="col">State</th>
          <th scope="col">Tool</th>
          <th scope="col">Started</th>
          <th scope="col">Findings</th>
        </tr>
      </thead>
      <tbody>
        {scans.map((scan) => (
          <tr key={scan.id} aria-current={scan.id === selected ? 'true' : undefined}>
            <td>
              <button type="button" className="link" onClick={() => onSelect(scan.id)}>
                {scan.title}
              </button>
            </td>
            <td>
              <Tag $tone={scan.state === 'draft' ? 'warning' : scan.state === 'published' ? 'primary' : 'muted'}>
                {scanStateLabels[scan.state]}
              </Tag>
            </td>
            <td>{scan.tool}</td>
            <td>{day(scan.startedAt)}</td>
            <td className="number">{scan.state === 'draft' ? (scan.importReport?.findings ?? '') : scan.counts.total}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

function PublishedSummary({ company, scan }: { company: string; scan: Scan }) {
  const { counts } = scan
  return (
    <Panel aria-label={`Scan ${scan.title}`}>
      <h2>{scan.title}</h2>
      <Muted>
        {scanStateLabels[scan.state]} {day(scan.publishedAt)}
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
  onScan(id: string | null): void
  onCompany(slug: string): void
}

export function AnalystServicePage({ workspace, service, scanId, onScan, onCompany }: AnalystServicePageProps) {
  const companyField = useId()
  const company = workspace.company
  const companies: Company[] = workspace.companies
  const slug = company?.slug
  const scans = useLiveData(
    async () => (slug ? (await import('./analyst-live')).watchServiceScans(slug, service) : (next) => (next([]), () => {})),
    [slug, service],
  )
  if (!mayImportScans(workspace.access, service)) return <Muted>Your access does not include importing this service's scans.</Muted>
  if (!company) return <Muted>Choose a company in the user menu to work on its scans.</Muted>

  const list = scans.data ?? []
  const scan = list.find((s) => s.id === scanId) ?? null
  return (
    <div style={{ display: 'grid', gap: 16 }}>
      <Toolbar>
        <Label htmlFor={companyField}>Company</Label>
        <Select id={companyField} value={company.slug} onChange={(event) => onCompany(event.target.value)}>
          {companies.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.companyName}
            </option>
          ))}
        </Select>
      </Toolbar>
      <ImportPanel
        company={company.slug}
        companyName={company.companyName}
        service={service}
        scopes={[...new Set(list.filter((s) => s.state === 'published').map((s) => s.scopeKey))]}
        onImported={(id) => onScan(id)}
      />
      <Panel aria-label="Scans">
        <h2>Scans</h2>
        <LiveStatus live={scans} what="the scans" />
        {scans.status === 'ready' && <ScanList scans={list} selected={scan?.id ?? null} onSelect={onScan} />}
      </Panel>
      {scan?.state === 'draft' && <DraftReviewPanel key={scan.id} company={company.slug} service={service} scan={scan} />}
      {scan && scan.state !== 'draft' && <PublishedSummary company={company.slug} scan={scan} />}
      <RetestQueue company={company.slug} service={service} />
      <TemplateMappingsPanel service={service} />
    </div>
  )
}
