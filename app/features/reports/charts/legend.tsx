// What every chart shares: its rows, its series (name and colour) and the legend that names them.
import styled from 'styled-components'
import type { Severity } from '#domain/template-vocabulary.ts'
import { seriesClass } from './palette'

/** A chart's data: a row per category, a figure per series key. */
export type Row = Record<string, string | number | null>

export interface Series {
  key: string
  label: string
  /** A severity's colour, or the n-th series colour. */
  tone: Severity | number
}

/** The class that gives a series its colour (chart-style.ts). */
export const toneClass = (tone: Severity | number) => (typeof tone === 'number' ? seriesClass(tone) : `series-${tone}`)

const LegendList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 14px;
  list-style: none;
  margin: 0 0 8px;
  padding: 0;
  font-size: 12px;
  color: var(--color-text-muted);

  li {
    display: inline-flex;
    align-items: center;
    gap: 6px;
  }
  span {
    width: 10px;
    height: 10px;
    border-radius: 2px;
  }
`

/** The series' names and colours (the table view repeats them in words). */
export function Legend({ series }: { series: readonly Series[] }) {
  if (series.length < 2) return null
  return (
    <LegendList aria-hidden="true">
      {series.map((s) => (
        <li key={s.key}>
          <span className={`legend-${s.tone}`} />
          {s.label}
        </li>
      ))}
    </LegendList>
  )
}
