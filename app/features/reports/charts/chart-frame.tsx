import { useId, useState, type ReactNode } from 'react'
import styled from 'styled-components'
import { formatNumber } from '#domain/numbers.ts'
import { surface } from '~/ui/surface'
import { chartStyle } from './chart-style'

export interface ChartTable {
  columns: readonly string[]
  rows: readonly (readonly (string | number)[])[]
}

const Figure = styled.figure`
  ${surface}
  margin: 0;
  padding: 16px 20px 20px;
  min-width: 0;

  ${chartStyle}
`

const Head = styled.div`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  gap: 12px;
  margin-bottom: 8px;

  h3 {
    font-size: 15px;
    font-weight: 650;
    margin: 0;
  }
  p {
    margin: 2px 0 0;
    font-size: 13px;
    color: var(--color-text-muted);
  }
`

const Toggle = styled.button`
  flex: none;
  border: 0;
  background: none;
  padding: 4px 0;
  font: inherit;
  font-size: 13px;
  font-weight: 600;
  color: var(--color-primary);
  cursor: pointer;

  &:hover {
    text-decoration: underline;
  }
`

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 13px;
  font-variant-numeric: tabular-nums;

  caption {
    text-align: left;
    color: var(--color-text-muted);
    padding-bottom: 4px;
  }
  th,
  td {
    text-align: left;
    padding: 6px 8px;
    border-bottom: 1px solid var(--color-border);
  }
  td:not(:first-child),
  th:not(:first-child) {
    text-align: right;
  }
`

const Empty = styled.p`
  margin: 0;
  padding: 24px 0;
  color: var(--color-text-muted);
`

const formatCell = (value: string | number) => (typeof value === 'number' ? formatNumber(value) : value)

/** A chart's figures as a table: what "Show as table" shows, and what screen readers read. */
export function FigureTable({ title, table }: { title: string; table: ChartTable }) {
  return (
    <Table>
      <caption>{title}</caption>
      <thead>
        <tr>
          {table.columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, i) => (
          <tr key={i}>
            {row.map((cell, j) =>
              j === 0 ? (
                <th key={j} scope="row">
                  {formatCell(cell)}
                </th>
              ) : (
                <td key={j}>{formatCell(cell)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

/**
 * A chart with its title and its figures as a table: "Show as table" swaps the drawing for the
 * table. The drawing is an image named by the title; the table is the accessible view.
 */
export function ChartFrame({
  title,
  summary,
  table,
  children,
}: {
  title: string
  summary?: string
  table: ChartTable
  children: ReactNode
}) {
  const [asTable, setAsTable] = useState(false)
  const headingId = useId()
  const empty = table.rows.length === 0
  return (
    <Figure aria-labelledby={headingId}>
      <Head>
        <div>
          <h3 id={headingId}>{title}</h3>
          {summary && <p>{summary}</p>}
        </div>
        {!empty && (
          <Toggle type="button" aria-pressed={asTable} onClick={() => setAsTable((on) => !on)}>
            {asTable ? 'Show as chart' : 'Show as table'}
          </Toggle>
        )}
      </Head>
      {empty ? (
        <Empty>No figures yet.</Empty>
      ) : asTable ? (
        <FigureTable title={title} table={table} />
      ) : (
        <div role="img" aria-label={`${title} (chart; use "Show as table" for the figures)`}>
          {children}
        </div>
      )}
    </Figure>
  )
}
