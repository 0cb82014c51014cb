// The findings table: as many rows as the search index finds (a hundred thousand and more), only
// those in view rendered (TanStack Virtual) and only the pages scrolled to loaded
// (findings-results.ts); filtered, counted, sorted and grouped by the index. Its state lives in
// the address bar (findings-search-params.ts), so a filtered view can be shared and survives a
// reload; only the selection and which groups are open stay local.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { LocalTime } from '~/ui/local-time'
import { SeverityBadge } from '~/ui/severity-badge'
import { colors, fonts } from '~/ui/theme'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { SlaLabel, StatusBadge } from './finding-badges'
import type { FindingRowHit } from '#domain/findings-search.ts'
import type { Finding } from '#domain/findings.ts'
import { formatNumber } from '#domain/numbers.ts'
import { formatProbability } from '../format'
import { findingRow, hitRow, sortOf, type FindingRow } from './findings-query'
import { FINDING_SORT_COLUMNS, type FindingSortColumn, type FindingsSearch } from './findings-search-params'
import { REACHABLE_ROWS, type FindingsRows, type FindingsSummary } from './findings-results'

const ROW_HEIGHT = 48

const Scroller = styled.div`
  position: relative;
  height: min(70vh, 720px);
  min-height: 320px;
  overflow: auto;
  border: 1px solid ${colors.border};
  border-radius: 12px;
  background: ${colors.surface};

  &:focus-visible {
    outline: 2px solid ${colors.focus};
    outline-offset: 2px;
  }

  /* The last answer, shown while the new one is asked. */
  &[aria-busy='true'] tbody {
    opacity: 0.55;
    transition: opacity 120ms ease 150ms;
  }
`

const Table = styled.table`
  display: grid;
  width: 100%;
  min-width: 1140px;
  border-collapse: collapse;
  font-size: 14px;

  thead {
    display: grid;
    position: sticky;
    top: 0;
    z-index: 1;
    background: ${colors.bg};
    border-bottom: 1px solid ${colors.border};
  }
  tbody {
    display: grid;
    position: relative;
  }
  tr {
    display: grid;
    grid-template-columns: 48px 100px minmax(220px, 3fr) minmax(150px, 2fr) 236px 150px 112px 116px;
    align-items: center;
    width: 100%;
  }
  tbody tr {
    position: absolute;
    left: 0;
    height: ${ROW_HEIGHT}px;
    border-bottom: 1px solid ${colors.border};
  }
  tbody tr[data-selected='true'] {
    background: ${colors.primarySoft};
  }
  th,
  td {
    padding: 0 10px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    text-align: left;
  }
  th:first-child,
  td:first-child {
    overflow: visible;
    padding: 0 0 0 14px;
  }
  /* A finding's title, asset and SLA take two lines before they are cut; the cell's title holds the rest. */
  td.wrap {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    white-space: normal;
    line-height: 1.3;
  }
  td.wrap.asset {
    overflow-wrap: anywhere;
  }
  td.wrap > span {
    white-space: normal;
  }
  th {
    height: 42px;
    display: flex;
    align-items: center;
    font-size: 13px;
    font-weight: 650;
    color: ${colors.textMuted};
  }
  td a {
    color: ${colors.text};
    font-weight: 600;
    text-decoration: none;
  }
  td a:hover,
  td a:focus-visible {
    color: ${colors.primary};
    text-decoration: underline;
  }
  input[type='checkbox'] {
    width: 18px;
    height: 18px;
    accent-color: ${colors.primary};
  }
`

const SortButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  padding: 4px 2px;
  border: none;
  background: none;
  color: inherit;
  font: inherit;
  cursor: pointer;

  &:focus-visible {
    outline: 2px solid ${colors.focus};
    border-radius: 4px;
  }
`

const GroupToggle = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  max-width: 100%;
  padding: 4px 0;
  border: none;
  background: none;
  color: ${colors.text};
  font: inherit;
  font-weight: 650;
  cursor: pointer;
  overflow: hidden;
  text-overflow: ellipsis;

  span:last-child {
    color: ${colors.textMuted};
    font-weight: 500;
  }
  &:focus-visible {
    outline: 2px solid ${colors.focus};
    border-radius: 4px;
  }
`

const Muted = styled.span`
  color: ${colors.textMuted};
  font-family: ${fonts.mono};
  font-size: 13px;
`

const Empty = styled.p`
  margin: 0;
  padding: 48px 16px;
  text-align: center;
  color: ${colors.textMuted};
`

const Count = styled.p`
  margin: 0 0 8px;
  color: ${colors.textMuted};
  font-size: 14px;
`

const KevMark = styled.abbr`
  margin-right: 6px;
  padding: 1px 5px;
  border-radius: 4px;
  font-size: 12px;
  font-weight: 600;
  text-decoration: none;
  color: ${colors.danger};
  border: 1px solid currentColor;
`

/** KEV membership and the EPSS score, as a cell. */
function Exploitation({ row }: { row: Pick<FindingRow, 'kev' | 'epss'> }) {
  return (
    <>
      {row.kev && <KevMark title="In CISA's catalogue of known exploited vulnerabilities">KEV</KevMark>}
      {row.epss === null ? <Muted>–</Muted> : formatProbability(row.epss)}
    </>
  )
}

const sortLabels: Record<FindingSortColumn, string> = {
  severity: 'Severity',
  title: 'Finding',
  asset: 'Asset',
  status: 'Status',
  sla: 'SLA',
  lastSeen: 'Last seen',
  epss: 'EPSS',
}

/** One line of the list: a finding, a group's heading, or a finding not yet arrived. */
type Item = { kind: 'group'; value: string; count: number } | { kind: 'row'; index: number; group: string | null }

export interface FindingsTableProps {
  summary: FindingsSummary
  /** The summary and rows are the last answer, to other filters, while the new one is asked. */
  updating?: boolean
  rows: FindingsRows
  /** Changes whenever rows arrive. */
  version: number
  /** The findings on screen as they are now (a status changed since the index was asked). */
  live: ReadonlyMap<string, Finding>
  /** The findings on screen as the index gave them, whenever they change. */
  onVisibleRows(hits: FindingRowHit[]): void
  search: FindingsSearch
  onSearchChange(next: FindingsSearch): void
  /** Where a finding's page is: its id appended. */
  findingHref(id: string): string
  /** Chosen findings by id, with what the table showed of them. */
  selection: ReadonlyMap<string, FindingRow>
  onSelectionChange(next: ReadonlyMap<string, FindingRow>): void
  caption: ReactNode
  now: number
}

export function FindingsTable(props: FindingsTableProps) {
  const {
    summary,
    updating = false,
    rows,
    version,
    live,
    onVisibleRows,
    search,
    onSearchChange,
    findingHref,
    selection,
    onSelectionChange,
    caption,
    now,
  } = props
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set())
  const scroller = useRef<HTMLDivElement>(null)
  const group = search.group

  const items = useMemo<Item[]>(() => {
    if (!group) return Array.from({ length: Math.min(summary.total, REACHABLE_ROWS) }, (_, index) => ({ kind: 'row', index, group: null }))
    return summary.groups.flatMap(({ value, count }): Item[] => [
      { kind: 'group', value, count },
      ...(expanded.has(value)
        ? Array.from({ length: Math.min(count, REACHABLE_ROWS) }, (_, index) => ({ kind: 'row' as const, index, group: value }))
        : []),
    ])
  }, [group, summary, expanded])

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The first paint (and a page without layout) shows a screenful before the size is measured.
    initialRect: { width: 1200, height: 720 },
  })
  const inView = virtualizer.getVirtualItems()

  const rowOf = (item: Item & { kind: 'row' }): FindingRow | undefined => {
    const hit: FindingRowHit | undefined = rows.rowAt(item.index, item.group)
    if (!hit) return undefined
    const now_ = live.get(hit.findingId)
    return now_ ? findingRow(now_, now) : hitRow(hit, now)
  }

  // Ask for the pages of what is in view, and say which findings are on screen.
  const first = inView[0]?.index ?? 0
  const last = inView[inView.length - 1]?.index ?? -1
  useEffect(() => {
    const ranges = new Map<string | null, { from: number; to: number }>()
    const hits: FindingRowHit[] = []
    for (let i = first; i <= last; i += 1) {
      const item = items[i]
      if (item?.kind !== 'row') continue
      const range = ranges.get(item.group)
      ranges.set(item.group, { from: Math.min(range?.from ?? item.index, item.index), to: Math.max(range?.to ?? item.index, item.index) })
      const hit = rows.rowAt(item.index, item.group)
      if (hit) hits.push(hit)
    }
    for (const [source, { from, to }] of ranges) rows.want(from, to, source)
    onVisibleRows(hits)
    // rows changes identity with each answer; version says when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first, last, items, version])

  const { column: sortColumn, descending } = sortOf(search)
  const setSort = (column: FindingSortColumn) => {
    const next = column === sortColumn ? (descending ? column : `-${column}`) : column
    onSearchChange({ ...search, sort: next === 'severity' ? undefined : (next as FindingsSearch['sort']) })
  }
  const ariaSort = (column: FindingSortColumn) => (column === sortColumn ? (descending ? 'descending' : 'ascending') : undefined)

  const loadedRows = items.flatMap((item) => {
    if (item.kind !== 'row') return []
    const row = rowOf(item)
    return row ? [row] : []
  })
  const allSelected = loadedRows.length > 0 && loadedRows.every((row) => selection.has(row.id))
  const toggle = (row: FindingRow) => {
    const next = new Map(selection)
    if (next.has(row.id)) next.delete(row.id)
    else next.set(row.id, row)
    onSelectionChange(next)
  }
  const toggleAll = () => onSelectionChange(allSelected ? new Map() : new Map(loadedRows.map((row) => [row.id, row])))

  const toggleGroup = (value: string) =>
    setExpanded((open) => {
      const next = new Set(open)
      if (next.has(value)) next.delete(value)
      else next.add(value)
      return next
    })

  const cellsOf = (item: Item) => {
    if (item.kind === 'group') {
      const open = expanded.has(item.value)
      return (
        <td style={{ gridColumn: '1 / -1' }}>
          <GroupToggle type="button" aria-expanded={open} onClick={() => toggleGroup(item.value)}>
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
            <span>{item.value}</span>
            <span>
              {formatNumber(item.count)} finding{item.count === 1 ? '' : 's'}
            </span>
          </GroupToggle>
        </td>
      )
    }
    const row = rowOf(item)
    if (!row)
      return (
        <td style={{ gridColumn: '2 / -1' }}>
          <Muted>Loading…</Muted>
        </td>
      )
    return (
      <>
        <td>
          <input
            type="checkbox"
            aria-label={`Select ${row.title} on ${row.asset}`}
            checked={selection.has(row.id)}
            onChange={() => toggle(row)}
          />
        </td>
        <td>
          <SeverityBadge severity={row.severity} />
        </td>
        <td className="wrap" title={row.title}>
          <Link to={findingHref(row.id)}>{row.title}</Link>
        </td>
        <td className="wrap asset" title={row.asset}>
          <Muted>{row.asset}</Muted>
        </td>
        <td>
          <StatusBadge status={row.status} regression={row.regression} />
        </td>
        <td className="wrap">
          <SlaLabel row={row} />
        </td>
        <td>
          <LocalTime at={row.lastSeenAt} format="date" />
        </td>
        <td>
          <Exploitation row={row} />
        </td>
      </>
    )
  }

  const total = summary.total
  const groupsCapped = group && summary.groups.length > 0 && summary.groups.reduce((sum, g) => sum + g.count, 0) < total
  return (
    <>
      <Count role="status">
        {updating ? (
          'Updating the list…'
        ) : (
          <>
            {formatNumber(total)} finding{total === 1 ? '' : 's'}
            {selection.size > 0 && `, ${formatNumber(selection.size)} selected`}
            {!group && total > REACHABLE_ROWS && (
              <>
                {' '}
                (the first {formatNumber(REACHABLE_ROWS)} in this order are listed: narrow the filters or change the order to reach the
                others)
              </>
            )}
            {groupsCapped && <> (the {formatNumber(summary.groups.length)} largest groups are listed: narrow the filters to see others)</>}
          </>
        )}
      </Count>
      <Scroller ref={scroller} tabIndex={-1} aria-busy={updating}>
        <Table aria-rowcount={items.length + 1}>
          <caption>
            <VisuallyHidden>{caption}</VisuallyHidden>
          </caption>
          <thead>
            <tr aria-rowindex={1}>
              <th>
                <input type="checkbox" aria-label="Select every finding loaded" checked={allSelected} onChange={toggleAll} />
              </th>
              {FINDING_SORT_COLUMNS.map((id) => (
                <th key={id} aria-sort={ariaSort(id)}>
                  <SortButton type="button" onClick={() => setSort(id)}>
                    {sortLabels[id]}
                    <span aria-hidden="true">{id === sortColumn ? (descending ? '↓' : '↑') : ''}</span>
                  </SortButton>
                </th>
              ))}
            </tr>
          </thead>
          <tbody style={{ height: virtualizer.getTotalSize() }}>
            {inView.map((virtual) => {
              const item = items[virtual.index]!
              const row = item.kind === 'row' ? rowOf(item) : undefined
              return (
                <tr
                  key={item.kind === 'group' ? `group:${item.value}` : `${item.group ?? ''}#${item.index}`}
                  aria-rowindex={virtual.index + 2}
                  data-selected={row ? selection.has(row.id) : undefined}
                  data-group={item.kind === 'group' || undefined}
                  style={{ transform: `translateY(${virtual.start}px)` }}
                >
                  {cellsOf(item)}
                </tr>
              )
            })}
          </tbody>
        </Table>
        {items.length === 0 && !updating && <Empty>No findings match these filters.</Empty>}
      </Scroller>
    </>
  )
}
