// Bars along a list of categories (top technologies, checks per cloud service, compliance per
// framework) as plain HTML: a row per category with its name, its bar (one segment per series,
// stacked or one above the other) scaled to the largest row, and its figures in words. The server
// draws it whole and it needs no script; Recharts cannot draw such a chart on the server (its
// category axis exists only once the browser has run it).
import styled from 'styled-components'
import { colors } from '~/ui/theme'
import { formatNumber } from '../format'
import { Legend, toneClass, type Row, type Series } from './legend'

const List = styled.ul`
  display: grid;
  grid-template-columns: minmax(80px, max-content) minmax(0, 1fr) max-content;
  align-items: center;
  gap: 6px 10px;
  list-style: none;
  margin: 0;
  padding: 0;
  font-size: 12px;

  li {
    display: contents;
  }
  .name {
    max-width: 180px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    color: ${colors.textMuted};
  }
  .track {
    display: flex;
    flex-direction: column;
    gap: 2px;
    min-height: 18px;
    justify-content: center;
  }
  .bar {
    display: flex;
    height: 14px;
  }
  .bar span {
    height: 100%;
    min-width: 0;
  }
  .bar span:last-child {
    border-radius: 0 3px 3px 0;
  }
  .figure {
    color: ${colors.text};
    font-variant-numeric: tabular-nums;
    text-align: right;
  }
`

const value = (row: Row, key: string) => {
  const v = row[key]
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0
}

export function BarList({
  data,
  category,
  series,
  stacked = false,
  percent = false,
}: {
  data: readonly Row[]
  category: string
  series: readonly Series[]
  /** One bar per row with a segment per series; else a bar per series. */
  stacked?: boolean
  /** Figures out of 100: the bars run on a 0 to 100 scale. */
  percent?: boolean
}) {
  const total = (row: Row) => series.reduce((sum, s) => sum + value(row, s.key), 0)
  const largest = percent
    ? 100
    : Math.max(1, ...data.map((row) => (stacked ? total(row) : Math.max(...series.map((s) => value(row, s.key))))))
  const width = (v: number) => `${Math.min(100, (v / largest) * 100)}%`
  const figure = (v: number) => (percent ? `${formatNumber(v)}%` : formatNumber(v))
  const segment = (row: Row, s: Series) => <span key={s.key} className={toneClass(s.tone)} style={{ width: width(value(row, s.key)) }} />
  return (
    <>
      <Legend series={series} />
      <List className="bar-list" aria-hidden="true">
        {data.map((row, i) => (
          <li key={`${String(row[category])}-${i}`}>
            <span className="name" title={String(row[category] ?? '')}>
              {row[category]}
            </span>
            <span className="track">
              {stacked ? (
                <span className="bar">{series.map((s) => segment(row, s))}</span>
              ) : (
                series.map((s) => (
                  <span key={s.key} className="bar">
                    {segment(row, s)}
                  </span>
                ))
              )}
            </span>
            <span className="figure">{series.map((s) => figure(value(row, s.key))).join(' / ')}</span>
          </li>
        ))}
      </List>
    </>
  )
}
