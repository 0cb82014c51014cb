// A table of records with sortable columns and pages (TanStack Table), and, when given a filter
// label, a text filter over every column. Pages with filters of their own filter the records
// themselves and hand over what to show; the table says when there is nothing.
import { useState, type ReactNode } from 'react'
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table'
import styled from 'styled-components'
import { Button } from './button'
import { fieldControl } from './text-field'

/** The look of a table of records: rows ruled, headings muted. */
export const RecordTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;

  th,
  td {
    padding: 8px 10px;
    border-top: 1px solid var(--color-border);
    text-align: left;
    vertical-align: top;
  }
  thead th {
    border-top: none;
    color: var(--color-text-muted);
    font-size: 13px;
    font-weight: 600;
    white-space: nowrap;
  }
`

/**
 * A table wider than its column scrolls in its own box, not the page. Positioned, so that holds
 * for what is placed absolutely in it too (visually hidden headers).
 */
export const TableScroll = styled.div`
  overflow-x: auto;
  position: relative;
`

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px 16px;
  margin-bottom: 12px;
`

const Search = styled.input`
  ${fieldControl}
  min-height: 38px;
  padding: 0 12px;
  min-width: min(320px, 100%);
`

const SortButton = styled.button`
  all: unset;
  cursor: pointer;
  &:focus-visible {
    outline: 2px solid var(--color-primary);
  }
`

const Pager = styled.div`
  display: flex;
  align-items: center;
  justify-content: flex-end;
  gap: 12px;
  padding-top: 12px;
  font-size: 14px;
  color: var(--color-text-muted);
`

const ARROW = { asc: ' ↑', desc: ' ↓' } as const

export function DataTable<T>({
  label,
  data,
  columns,
  empty,
  rowId,
  pageSize = 20,
  initialSort = [],
  filterLabel,
  actions,
}: {
  label: string
  data: T[]
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column values are of many types
  columns: ColumnDef<T, any>[]
  empty: ReactNode
  rowId: (row: T) => string
  /** Rows per page; null: every row given, on one page (the caller pages, e.g. from a server). */
  pageSize?: number | null
  initialSort?: SortingState
  /** The text filter's label; no filter without one. */
  filterLabel?: string
  /** Buttons beside the filter (a "New …" action, say). */
  actions?: ReactNode
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSort)
  const [filter, setFilter] = useState('')
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    getRowId: (row) => rowId(row),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(pageSize === null ? {} : { getPaginationRowModel: getPaginationRowModel(), initialState: { pagination: { pageSize } } }),
    autoResetPageIndex: true,
  })
  const rows = table.getRowModel().rows
  const pages = table.getPageCount()
  return (
    <>
      {(filterLabel || actions) && (
        <Toolbar>
          {filterLabel ? (
            <Search
              type="search"
              aria-label={filterLabel}
              placeholder={filterLabel}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          ) : (
            <span />
          )}
          {actions}
        </Toolbar>
      )}
      <TableScroll>
        <RecordTable aria-label={label}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted()
                  const title = flexRender(header.column.columnDef.header, header.getContext())
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <SortButton type="button" onClick={header.column.getToggleSortingHandler()}>
                          {title}
                          {sorted ? ARROW[sorted] : ''}
                        </SortButton>
                      ) : (
                        title
                      )}
                    </th>
                  )
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-row-id={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length}>{data.length === 0 ? empty : `Nothing matches “${filter}”.`}</td>
              </tr>
            )}
          </tbody>
        </RecordTable>
      </TableScroll>
      {pages > 1 && (
        <Pager>
          <span>
            Page {table.getState().pagination.pageIndex + 1} of {pages}
          </span>
          <Button type="button" $variant="secondary" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
            Previous
          </Button>
          <Button type="button" $variant="secondary" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
            Next
          </Button>
        </Pager>
      )}
    </>
  )
}
