// The tables of the company, service and DAST key pages: TanStack Table with sorting by any column
// header, a text filter over every column and pages of 20 rows.
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
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react'
import styled from 'styled-components'
import { Button } from '~/ui/button'
import { fieldControl } from '~/ui/text-field'

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

const Scroll = styled.div`
  overflow-x: auto;
`

const Table = styled.table`
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
  thead button {
    all: unset;
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    gap: 4px;
  }
  thead button:focus-visible {
    outline: 2px solid var(--color-primary);
  }
`

const Pages = styled.div`
  display: flex;
  align-items: center;
  justify-content: flex-end;
  gap: 12px;
  margin-top: 12px;
  font-size: 14px;
  color: var(--color-text-muted);
`

const Empty = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

export function OrgTable<T>({
  label,
  data,
  columns,
  empty,
  filterLabel,
  actions,
  rowKey,
}: {
  /** The table's accessible name. */
  label: string
  data: T[]
  columns: ColumnDef<T, unknown>[]
  /** What shows when there are no rows at all. */
  empty: ReactNode
  /** The filter's label; no filter without one. */
  filterLabel?: string
  actions?: ReactNode
  rowKey: (row: T) => string
}) {
  const [sorting, setSorting] = useState<SortingState>([])
  const [filter, setFilter] = useState('')
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    getRowId: rowKey,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageSize: 20 } },
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
      {data.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <Scroll>
          <Table aria-label={label}>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted()
                    const title = flexRender(header.column.columnDef.header, header.getContext())
                    return (
                      <th
                        key={header.id}
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                        scope="col"
                      >
                        {header.column.getCanSort() ? (
                          <button type="button" onClick={header.column.getToggleSortingHandler()}>
                            {title}
                            {sorted === 'asc' && <IconArrowUp size={14} aria-hidden="true" />}
                            {sorted === 'desc' && <IconArrowDown size={14} aria-hidden="true" />}
                          </button>
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
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={columns.length}>Nothing matches “{filter}”.</td>
                </tr>
              ) : (
                rows.map((row) => (
                  <tr key={row.id}>
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </Table>
          {pages > 1 && (
            <Pages>
              <span>
                Page {table.getState().pagination.pageIndex + 1} of {pages}
              </span>
              <Button type="button" $variant="secondary" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
                Previous
              </Button>
              <Button type="button" $variant="secondary" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
                Next
              </Button>
            </Pages>
          )}
        </Scroll>
      )}
    </>
  )
}
