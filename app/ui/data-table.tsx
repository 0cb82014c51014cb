// A table of records with sortable columns and pages (TanStack Table). The page filters the
// records itself and hands over what to show; the table says when there is nothing.
import { useState } from 'react'
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table'
import styled from 'styled-components'
import { Button } from './button'

const Wrap = styled.div`
  overflow-x: auto;
`

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;

  th,
  td {
    text-align: left;
    padding: 8px 10px;
    border-bottom: 1px solid var(--color-border);
    vertical-align: top;
  }
  th {
    font-weight: 600;
    white-space: nowrap;
  }
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
}: {
  label: string
  data: T[]
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column values are of many types
  columns: ColumnDef<T, any>[]
  empty: string
  rowId: (row: T) => string
  pageSize?: number
  initialSort?: SortingState
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSort)
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (row) => rowId(row),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageSize } },
    autoResetPageIndex: true,
  })
  const pages = table.getPageCount()
  return (
    <>
      <Wrap>
        <Table aria-label={label}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted()
                  const title = flexRender(header.column.columnDef.header, header.getContext())
                  return (
                    <th key={header.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
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
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-row-id={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
            {data.length === 0 && (
              <tr>
                <td colSpan={columns.length}>{empty}</td>
              </tr>
            )}
          </tbody>
        </Table>
      </Wrap>
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
