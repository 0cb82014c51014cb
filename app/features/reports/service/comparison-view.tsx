import { IconFileTypeCsv, IconJson } from '@tabler/icons-react'
import styled from 'styled-components'
import type { ScanComparison } from '#domain/scan-comparison.ts'
import {
  comparisonCsv,
  comparisonFileName,
  comparisonJson,
  comparisonRows,
  type ComparedFindingDetails,
} from '#domain/scan-comparison-export.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import type { ComparisonData } from '../data/reports-live'
import { useLiveData } from '~/core/live-data'
import { saveFile } from '~/platform/save-file'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { LocalTime } from '~/ui/local-time'
import { formatNumber } from '../format'

const Section = styled.section`
  ${surface}
  padding: 18px 20px;
  margin-bottom: 24px;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0 0 4px;
  }
  > p {
    margin: 0 0 16px;
    color: var(--color-text-muted);
  }
`

const Groups = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 16px;
`

const Group = styled.details`
  border: 1px solid var(--color-border);
  border-radius: 8px;
  padding: 10px 12px;

  summary {
    cursor: pointer;
    font-weight: 600;
    display: flex;
    justify-content: space-between;
    gap: 8px;
  }
  summary span {
    font-variant-numeric: tabular-nums;
  }
  ul {
    list-style: none;
    margin: 8px 0 0;
    padding: 0;
    max-height: 240px;
    overflow: auto;
    font-size: 13px;
  }
  li {
    display: flex;
    justify-content: space-between;
    align-items: center;
    gap: 8px;
    padding: 4px 0;
    border-top: 1px solid var(--color-border);
  }
  code {
    font-size: 12px;
    overflow: hidden;
    text-overflow: ellipsis;
  }
`

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin-bottom: 16px;
`

const SHOWN = 200

function List({ title, items }: { title: string; items: { key: string; text: string; badge?: React.ReactNode }[] }) {
  return (
    <Group data-testid={`compare-${title}`}>
      <summary>
        {title}
        <span>{formatNumber(items.length)}</span>
      </summary>
      {items.length > 0 && (
        <ul>
          {items.slice(0, SHOWN).map((item) => (
            <li key={item.key}>
              <code title={item.text}>{item.text}</code>
              {item.badge}
            </li>
          ))}
          {items.length > SHOWN && <li>and {formatNumber(items.length - SHOWN)} more</li>}
        </ul>
      )}
    </Group>
  )
}

const shortId = (id: string) => (id.length > 16 ? `${id.slice(0, 12)}…` : id)

/** The lists of a comparison; ports and assets for the services that have them. */
export function ComparisonLists({
  comparison,
  details = new Map(),
  service,
}: {
  comparison: ScanComparison
  /** Titles of the findings read (those only the target saw); the others show their id. */
  details?: ReadonlyMap<string, ComparedFindingDetails>
  service: ServiceId
}) {
  const label = (id: string) => details.get(id)?.title || shortId(id)
  const findings = (list: { id: string; severity: Parameters<typeof SeverityBadge>[0]['severity'] }[]) =>
    list.map((f) => ({ key: f.id, text: label(f.id), badge: <SeverityBadge severity={f.severity} /> }))
  const assets = service === 'projectmariana' || service === 'network'
  return (
    <Groups>
      <List title="New" items={findings(comparison.new)} />
      <List title="Persisting" items={findings(comparison.persisting)} />
      <List title="Not detected" items={findings(comparison.notDetected)} />
      <List title="Reopened" items={findings(comparison.reopened)} />
      <List
        title="Severity changed"
        items={comparison.severityChanged.map((c) => ({
          key: c.id,
          text: label(c.id),
          badge: (
            <span>
              <SeverityBadge severity={c.from} /> → <SeverityBadge severity={c.to} />
            </span>
          ),
        }))}
      />
      {assets && (
        <>
          <List title="Assets new" items={comparison.assetsNew.map((a) => ({ key: a.id, text: a.label }))} />
          <List title="Assets gone" items={comparison.assetsGone.map((a) => ({ key: a.id, text: a.label }))} />
          <List
            title="Ports opened"
            items={comparison.portsOpened.map((p) => ({ key: `${p.assetId}:${p.port}`, text: `${p.label}:${p.port}` }))}
          />
          <List
            title="Ports closed"
            items={comparison.portsClosed.map((p) => ({ key: `${p.assetId}:${p.port}`, text: `${p.label}:${p.port}` }))}
          />
        </>
      )}
    </Groups>
  )
}

/** The comparison as a file: CSV or the versioned JSON, built in the browser when asked. */
function ComparisonExports({
  company,
  base,
  target,
  data,
}: {
  company: { slug: string; name: string }
  base: Scan
  target: Scan
  data: ComparisonData
}) {
  const download = (format: 'csv' | 'json') => {
    const now = Date.now()
    const rows = comparisonRows(data.comparison, data.details)
    const name = comparisonFileName(company.name || company.slug, target.service, now, format)
    saveFile(
      name,
      format === 'csv'
        ? // The byte order mark makes spreadsheet programs read the file as UTF-8.
          new Blob(['\ufeff', comparisonCsv(rows)], { type: 'text/csv;charset=utf-8' })
        : new Blob([comparisonJson({ company, service: target.service, exportedAt: now, base, target, rows })], {
            type: 'application/json',
          }),
    )
  }
  return (
    <Actions>
      <Button type="button" $variant="secondary" onClick={() => download('csv')}>
        <IconFileTypeCsv size={18} aria-hidden="true" />
        Comparison CSV
      </Button>
      <Button type="button" $variant="secondary" onClick={() => download('json')}>
        <IconJson size={18} aria-hidden="true" />
        Comparison JSON
      </Button>
    </Actions>
  )
}

/** Two scans side by side, from what each saw (results readers only: members are results). */
export function ComparisonView({ company, base, target }: { company: { slug: string; name: string }; base: Scan; target: Scan }) {
  const live = useLiveData(
    () =>
      import('../data/reports-live').then((m) =>
        m.watchComparison(
          company.slug,
          target.service,
          { id: base.id, startedAt: base.startedAt },
          { id: target.id, startedAt: target.startedAt },
        ),
      ),
    [company.slug, target.service, base.id, base.startedAt, target.id, target.startedAt],
  )
  return (
    <Section aria-labelledby="comparison-title" aria-busy={live.status === 'loading'}>
      <h2 id="comparison-title">Comparison</h2>
      <p>
        {target.title} (<LocalTime at={target.publishedAt ?? target.startedAt} format="date" />) against {base.title} (
        <LocalTime at={base.publishedAt ?? base.startedAt} format="date" />)
      </p>
      {live.status !== 'ready' ? (
        <LiveStatus live={live} what="the comparison" />
      ) : (
        <>
          <ComparisonExports company={company} base={base} target={target} data={live.data} />
          <ComparisonLists comparison={live.data.comparison} details={live.data.details} service={target.service} />
        </>
      )}
    </Section>
  )
}
