import styled from 'styled-components'
import { colors } from '~/ui/theme'
import { formatNumber } from '../format'

const Grid = styled.div<{ $columns: number }>`
  display: grid;
  grid-template-columns: minmax(120px, max-content) repeat(${({ $columns }) => $columns}, minmax(44px, 1fr));
  gap: 3px;
  font-size: 12px;
  overflow-x: auto;

  .label {
    color: ${colors.textMuted};
    padding: 6px 8px 6px 0;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    max-width: 220px;
  }
  .head {
    color: ${colors.textMuted};
    text-align: center;
    padding-bottom: 2px;
  }
  .cell {
    display: grid;
    place-items: center;
    min-height: 28px;
    border-radius: 4px;
    font-variant-numeric: tabular-nums;
    color: ${colors.text};
  }
`

/**
 * A heatmap as a grid of tinted cells: the stronger the tint, the larger the value (relative to
 * the largest). Each cell also shows its number, so colour is never the only cue.
 */
export function Heatmap({
  rows,
  columns,
  values,
  tone = colors.danger,
}: {
  rows: readonly string[]
  columns: readonly string[]
  /** values[row][column] */
  values: readonly (readonly number[])[]
  tone?: string
}) {
  const max = Math.max(1, ...values.flat())
  return (
    <Grid $columns={columns.length} aria-hidden="true">
      <span />
      {columns.map((c) => (
        <span key={c} className="head">
          {c}
        </span>
      ))}
      {rows.map((row, r) => [
        <span key={`${row}-label`} className="label" title={row}>
          {row}
        </span>,
        ...columns.map((c, col) => {
          const value = values[r]?.[col] ?? 0
          const share = Math.round((value / max) * 85)
          return (
            <span
              key={`${row}-${c}`}
              className="cell"
              style={{ background: value === 0 ? colors.bg : `color-mix(in srgb, ${tone} ${Math.max(12, share)}%, transparent)` }}
            >
              {value === 0 ? '' : formatNumber(value)}
            </span>
          )
        }),
      ])}
    </Grid>
  )
}
