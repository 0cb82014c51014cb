// The draft's findings shown so far as a grid table of which only the rows in view are drawn
// (TanStack Virtual), so thousands of them review as smoothly as ten.
import { useRef } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import styled from 'styled-components'
import type { DraftFinding } from '#domain/scan-drafts.ts'
import { severityLabels } from '#domain/template-vocabulary.ts'
import { SeverityBadge } from '~/ui/severity-badge'
import { linkButton, Tag } from './parts'

const ROW_HEIGHT = 58

const Scroller = styled.div`
  position: relative;
  max-height: min(70vh, 720px);
  overflow: auto;
  border: 1px solid var(--color-border);
  border-radius: 10px;
`

const Grid = styled.table`
  display: grid;
  width: 100%;
  min-width: 900px;
  border-collapse: collapse;
  font-size: 14px;

  thead {
    display: grid;
    position: sticky;
    top: 0;
    z-index: 1;
    background: var(--color-surface);
    border-bottom: 1px solid var(--color-border);
  }
  tbody {
    display: grid;
    position: relative;
  }
  tr {
    display: grid;
    grid-template-columns: 40px 120px minmax(200px, 3fr) minmax(160px, 2fr) minmax(120px, 1fr) 90px minmax(140px, 1fr) 60px;
    align-items: center;
    width: 100%;
  }
  tbody tr {
    position: absolute;
    left: 0;
    height: ${ROW_HEIGHT}px;
    border-bottom: 1px solid var(--color-border);
  }
  tbody tr[aria-selected='true'] {
    background: var(--color-primary-soft);
  }
  th,
  td {
    padding: 0 8px;
    overflow: hidden;
    text-overflow: ellipsis;
    text-align: left;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
  }
  th {
    height: 40px;
    display: flex;
    align-items: center;
    color: var(--color-text-muted);
    font-weight: 600;
  }
  td.number {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  small {
    display: block;
    color: var(--color-text-muted);
  }
  button.open {
    ${linkButton}
  }
  button.open:focus-visible {
    outline: 2px solid var(--color-focus);
    outline-offset: 1px;
  }
`

/** What tells instances on one asset apart: the method and parameter, or the port and protocol. */
const where = ({ location }: DraftFinding) =>
  [
    location.method,
    location.parameter && `parameter ${location.parameter}`,
    location.port && `port ${location.port}/${location.protocol ?? 'tcp'}`,
  ]
    .filter(Boolean)
    .join(', ')

export interface DraftFindingsTableProps {
  findings: readonly DraftFinding[]
  selected: ReadonlySet<string>
  onToggle(id: string): void
  onSelectAll(ids: string[] | null): void
  /** Opens the finding's detail. */
  onOpen(id: string): void
  /** The title of a finding others are merged into, by id. */
  titleOf(id: string): string | undefined
}

export function DraftFindingsTable({ findings, selected, onToggle, onSelectAll, onOpen, titleOf }: DraftFindingsTableProps) {
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: findings.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 1200, height: 720 },
  })
  return (
    <Scroller ref={scroller}>
      <Grid aria-label="Draft findings" aria-rowcount={findings.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select all shown"
                title="Selects the findings listed here; show more to add the next ones"
                checked={findings.length > 0 && findings.every((f) => selected.has(f.id))}
                onChange={(event) => onSelectAll(event.target.checked ? findings.map((f) => f.id) : null)}
              />
            </th>
            <th scope="col">Severity</th>
            <th scope="col">Finding</th>
            <th scope="col">Asset</th>
            <th scope="col">Rule</th>
            <th scope="col">CVSS</th>
            <th scope="col">Template</th>
            <th scope="col">Seen</th>
          </tr>
        </thead>
        <tbody style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const finding = findings[item.index]!
            const into = finding.mergedInto ? titleOf(finding.mergedInto) : undefined
            return (
              <tr
                key={finding.id}
                aria-rowindex={item.index + 2}
                aria-selected={selected.has(finding.id)}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${finding.title} on ${finding.asset}`}
                    checked={selected.has(finding.id)}
                    onChange={() => onToggle(finding.id)}
                  />
                </td>
                <td>
                  <SeverityBadge severity={finding.severity} />
                  {finding.severity !== finding.scannerSeverity && <small>scanner: {severityLabels[finding.scannerSeverity]}</small>}
                </td>
                <td title={finding.title}>
                  <button
                    type="button"
                    className="open"
                    aria-haspopup="dialog"
                    aria-label={`Open ${finding.title} on ${finding.asset}`}
                    onClick={() => onOpen(finding.id)}
                  >
                    {finding.title}
                  </button>{' '}
                  {finding.edited.length > 0 && <Tag $tone="muted">Edited</Tag>}{' '}
                  {finding.falsePositive && <Tag $tone="muted">False positive</Tag>}
                  {finding.mergedInto && <Tag $tone="muted">{into ? `Merged into ${into}` : 'Merged'}</Tag>}
                </td>
                <td title={finding.asset}>
                  {finding.asset}
                  {where(finding) && <small>{where(finding)}</small>}
                </td>
                <td title={finding.ruleId}>
                  <code>{finding.ruleId}</code>
                </td>
                <td title={finding.cvss?.vector}>{finding.cvss ? finding.cvss.score.toFixed(1) : ''}</td>
                <td>{finding.templateSlug ? <Tag $tone="primary">{finding.templateSlug}</Tag> : <Tag $tone="warning">Unmapped</Tag>}</td>
                <td className="number">{finding.instances}</td>
              </tr>
            )
          })}
        </tbody>
      </Grid>
    </Scroller>
  )
}
