import styled from 'styled-components'
import { compareScans, type ScanComparison } from '#domain/scan-comparison.ts'
import type { Scan, ScanMembers } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { combine } from '~/core/combine'
import { useLiveData } from '~/core/live-data'
import { LiveStatus } from '~/ui/live-status'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { formatDate, formatNumber } from '../format'

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
export function ComparisonLists({ comparison, service }: { comparison: ScanComparison; service: ServiceId }) {
  const findings = (list: { id: string; severity: Parameters<typeof SeverityBadge>[0]['severity'] }[]) =>
    list.map((f) => ({ key: f.id, text: shortId(f.id), badge: <SeverityBadge severity={f.severity} /> }))
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
          text: shortId(c.id),
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

/** Two scans side by side, from what each saw (results readers only: members are results). */
export function ComparisonView({ company, base, target }: { company: string; base: Scan; target: Scan }) {
  const live = useLiveData(
    () =>
      import('../data/reports-live').then((m) =>
        combine(
          { base: m.watchScanMembers(company, base.id), target: m.watchScanMembers(company, target.id) },
          (parts) => parts as { base: ScanMembers; target: ScanMembers },
        ),
      ),
    [company, base.id, target.id],
  )
  return (
    <Section aria-labelledby="comparison-title" aria-busy={live.status === 'loading'}>
      <h2 id="comparison-title">Comparison</h2>
      <p>
        {target.title} ({formatDate(target.publishedAt ?? target.startedAt)}) against {base.title} (
        {formatDate(base.publishedAt ?? base.startedAt)})
      </p>
      {live.status !== 'ready' ? (
        <LiveStatus live={live} what="the comparison" />
      ) : (
        <ComparisonLists
          comparison={compareScans({ scan: base, members: live.data.base }, { scan: target, members: live.data.target })}
          service={target.service}
        />
      )}
    </Section>
  )
}
