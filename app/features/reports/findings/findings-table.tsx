// The findings table: thousands of rows, filtered, searched, sorted and grouped in the browser by
// TanStack Table, and only the rows in view rendered (TanStack Virtual). Its state lives in the
// address bar (findings-query.ts), so a filtered view can be shared and survives a reload; only the
// selection and which groups are open stay local.
import { useMemo, useRef, useState, type ReactNode } from 'react'
import {
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  getFilteredRowModel,
  getGroupedRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type ExpandedState,
  type Row,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { LocalTime } from '~/ui/local-time'
import { SeverityBadge } from '~/ui/severity-badge'
import { colors, fonts } from '~/ui/theme'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { SlaLabel, StatusBadge } from './finding-badges'
import { matchesSearch, rowComparators, sortOf, type FindingRow } from './findings-query'
import { type FindingSortColumn, type FindingsSearch } from './findings-search-params'
import { formatNumber } from '#domain/numbers.ts'

const ROW_HEIGHT = 48

/** A column's order from the one the exports use too. */
const byColumn =
  (column: keyof typeof rowComparators) =>
  (a: Row<FindingRow>, b: Row<FindingRow>): number =>
    rowComparators[column](a.original, b.original)

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
`

const Table = styled.table`
  display: grid;
  width: 100%;
  min-width: 1040px;
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
    grid-template-columns: 48px 110px minmax(200px, 3fr) minmax(160px, 2fr) 200px 200px 120px;
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

const sortLabels: Record<FindingSortColumn, string> = {
  severity: 'Severity',
  title: 'Finding',
  asset: 'Asset',
  status: 'Status',
  sla: 'SLA',
  lastSeen: 'Last seen',
}

export interface FindingsTableProps {
  rows: FindingRow[]
  search: FindingsSearch
  onSearchChange(next: FindingsSearch): void
  /** Where a finding's page is: its id appended. */
  findingHref(id: string): string
  selection: RowSelectionState
  onSelectionChange(next: RowSelectionState): void
  caption: ReactNode
}

export function FindingsTable({ rows, search, onSearchChange, findingHref, selection, onSelectionChange, caption }: FindingsTableProps) {
  const [expanded, setExpanded] = useState<ExpandedState>({})
  const scroller = useRef<HTMLDivElement>(null)

  const columns = useMemo<ColumnDef<FindingRow>[]>(
    () => [
      {
        id: 'select',
        enableSorting: false,
        header: ({ table }) => (
          <input
            type="checkbox"
            aria-label="Select every finding shown"
            checked={table.getIsAllRowsSelected()}
            ref={(input) => {
              if (input) input.indeterminate = table.getIsSomeRowsSelected()
            }}
            onChange={table.getToggleAllRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) =>
          row.getIsGrouped() ? null : (
            <input
              type="checkbox"
              aria-label={`Select ${row.original.title} on ${row.original.asset}`}
              checked={row.getIsSelected()}
              onChange={row.getToggleSelectedHandler()}
            />
          ),
      },
      {
        id: 'severity',
        accessorKey: 'severity',
        sortingFn: byColumn('severity'),
        cell: ({ row }) => <SeverityBadge severity={row.original.severity} />,
      },
      {
        id: 'title',
        accessorKey: 'title',
        sortingFn: byColumn('title'),
        cell: ({ row }) => (
          <Link to={findingHref(row.original.id)} title={row.original.title}>
            {row.original.title}
          </Link>
        ),
      },
      {
        id: 'asset',
        accessorKey: 'asset',
        sortingFn: byColumn('asset'),
        cell: ({ row }) => <Muted title={row.original.asset}>{row.original.asset}</Muted>,
      },
      {
        id: 'status',
        accessorKey: 'status',
        sortingFn: byColumn('status'),
        cell: ({ row }) => <StatusBadge status={row.original.status} regression={row.original.regression} />,
      },
      {
        id: 'sla',
        accessorKey: 'slaDaysLeft',
        sortingFn: byColumn('sla'),
        cell: ({ row }) => <SlaLabel row={row.original} />,
      },
      {
        id: 'lastSeen',
        accessorKey: 'lastSeenAt',
        sortingFn: byColumn('lastSeen'),
        cell: ({ row }) => <LocalTime at={row.original.lastSeenAt} format="date" />,
      },
    ],
    [findingHref],
  )

  const { column: sortColumn, descending } = sortOf(search)
  // The table recomputes a row model whenever a state object is new: these stay the same objects
  // until the search changes, or every render would redo (and re-render) the whole list.
  const sorting = useMemo<SortingState>(() => [{ id: sortColumn, desc: descending }], [sortColumn, descending])
  const { severity, status, asset, tag, q, group } = search
  // What filters rows (the same rules as the exports'), as one global filter value.
  const filter = useMemo<FindingsSearch>(() => ({ severity, status, asset, tag, q }), [severity, status, asset, tag, q])
  const grouping = useMemo(() => (group ? [group] : []), [group])

  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row) => row.id,
    state: {
      sorting,
      globalFilter: filter,
      grouping,
      expanded,
      rowSelection: selection,
    },
    globalFilterFn: (row, _column, search: FindingsSearch) => matchesSearch(row.original, search),
    getColumnCanGlobalFilter: (column) => column.id === 'title',
    onExpandedChange: setExpanded,
    onRowSelectionChange: (updater) => onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
    enableRowSelection: (row) => !row.getIsGrouped(),
    enableSubRowSelection: true,
    groupedColumnMode: false,
    autoResetExpanded: false,
    // No pages: the list scrolls.
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getGroupedRowModel: getGroupedRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
  })

  const visible = table.getRowModel().rows
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The first paint (and a page without layout) shows a screenful before the size is measured.
    initialRect: { width: 1200, height: 720 },
  })

  const setSort = (column: FindingSortColumn) => {
    const next = column === sortColumn ? (descending ? column : `-${column}`) : column
    onSearchChange({ ...search, sort: next === 'severity' ? undefined : (next as FindingsSearch['sort']) })
  }

  const ariaSort = (column: FindingSortColumn) => (column === sortColumn ? (descending ? 'descending' : 'ascending') : undefined)

  const cellsOf = (row: Row<FindingRow>) => {
    if (row.getIsGrouped()) {
      const open = row.getIsExpanded()
      const value = String(row.getGroupingValue(row.groupingColumnId ?? ''))
      return (
        <td style={{ gridColumn: '1 / -1' }}>
          <GroupToggle type="button" aria-expanded={open} onClick={row.getToggleExpandedHandler()}>
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
            <span>{value}</span>
            <span>
              {row.subRows.length} finding{row.subRows.length === 1 ? '' : 's'}
            </span>
          </GroupToggle>
        </td>
      )
    }
    return row.getVisibleCells().map((cell) => <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>)
  }

  const shown = table.getFilteredRowModel().rows.length
  return (
    <>
      <Count role="status">
        {shown === rows.length
          ? `${formatNumber(rows.length)} finding${rows.length === 1 ? '' : 's'}`
          : `${formatNumber(shown)} of ${formatNumber(rows.length)} findings`}
        {Object.keys(selection).length > 0 && `, ${formatNumber(Object.keys(selection).length)} selected`}
      </Count>
      <Scroller ref={scroller} tabIndex={-1}>
        <Table aria-rowcount={visible.length + 1}>
          <caption>
            <VisuallyHidden>{caption}</VisuallyHidden>
          </caption>
          <thead>
            <tr aria-rowindex={1}>
              {table.getHeaderGroups()[0]!.headers.map((header) => {
                const id = header.column.id as FindingSortColumn | 'select'
                if (id === 'select') return <th key={id}>{flexRender(header.column.columnDef.header, header.getContext())}</th>
                return (
                  <th key={id} aria-sort={ariaSort(id)}>
                    <SortButton type="button" onClick={() => setSort(id)}>
                      {sortLabels[id]}
                      <span aria-hidden="true">{id === sortColumn ? (descending ? '↓' : '↑') : ''}</span>
                    </SortButton>
                  </th>
                )
              })}
            </tr>
          </thead>
          <tbody style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = visible[item.index]!
              return (
                <tr
                  key={row.id}
                  aria-rowindex={item.index + 2}
                  data-selected={row.getIsSelected()}
                  data-group={row.getIsGrouped() || undefined}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {cellsOf(row)}
                </tr>
              )
            })}
          </tbody>
        </Table>
        {visible.length === 0 && <Empty>No findings match these filters.</Empty>}
      </Scroller>
    </>
  )
}
