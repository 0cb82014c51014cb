// The report charts, drawn by Recharts with fixed coordinates (no measuring), so the server's SVG
// and the browser's agree. Axis labels are plain <text> (Recharts' own would measure words in the
// browser only), every tick is drawn (interval 0), animations are off and ids come from useId.
import { useId } from 'react'
import { Bar, BarChart, CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts'
import styled from 'styled-components'
import type { Severity } from '#domain/template-vocabulary.ts'
import { seriesClass } from './palette'

export interface Series {
  key: string
  label: string
  /** A severity's colour, or the n-th series colour. */
  tone: Severity | number
}

type Row = Record<string, string | number | null>

const toneClass = (tone: Severity | number) => (typeof tone === 'number' ? seriesClass(tone) : `series-${tone}`)
const legendClass = (tone: Severity | number) => (typeof tone === 'number' ? `legend-${tone}` : `legend-${tone}`)

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
function Legend({ series }: { series: readonly Series[] }) {
  if (series.length < 2) return null
  return (
    <LegendList aria-hidden="true">
      {series.map((s) => (
        <li key={s.key}>
          <span className={legendClass(s.tone)} />
          {s.label}
        </li>
      ))}
    </LegendList>
  )
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

interface TickProps {
  x?: number
  y?: number
  payload?: { value: unknown }
  orientation?: string
  textAnchor?: 'start' | 'middle' | 'end'
}

const tick = (max: number) =>
  function Tick({ x = 0, y = 0, payload, orientation, textAnchor }: TickProps) {
    const vertical = orientation === 'left' || orientation === 'right'
    const value = payload?.value
    const text = typeof value === 'number' ? new Intl.NumberFormat('en-GB', { notation: 'compact' }).format(value) : String(value ?? '')
    return (
      <text className="chart-tick" x={x} y={y} dy={vertical ? 4 : 14} textAnchor={textAnchor ?? (vertical ? 'end' : 'middle')}>
        {clip(text, max)}
      </text>
    )
  }

const shortTick = tick(12)
const longTick = tick(22)

const axisProps = { interval: 0 as const, tickLine: false }

export const CHART_WIDTH = 560
export const CHART_HEIGHT = 260

/**
 * Bars per category, one bar per series or stacked. `horizontal` lays categories down the side
 * (for long names); `reference` draws a labelled line at a category (the policy minimum, say).
 */
export function BarsChart({
  data,
  category,
  series,
  stacked = false,
  horizontal = false,
  reference,
  height,
}: {
  data: readonly Row[]
  category: string
  series: readonly Series[]
  stacked?: boolean
  horizontal?: boolean
  reference?: { at: string | number; label: string }
  height?: number
}) {
  const id = useId().replace(/:/g, '')
  const h = height ?? (horizontal ? Math.max(140, 28 * data.length + 40) : CHART_HEIGHT)
  return (
    <>
      <Legend series={series} />
      <BarChart
        id={`chart-${id}`}
        width={CHART_WIDTH}
        height={h}
        data={data as Row[]}
        layout={horizontal ? 'vertical' : 'horizontal'}
        margin={{ top: 8, right: 16, bottom: 4, left: horizontal ? 8 : 0 }}
        barCategoryGap="20%"
      >
        <CartesianGrid vertical={horizontal} horizontal={!horizontal} />
        {horizontal ? (
          <>
            <XAxis type="number" allowDecimals={false} tick={shortTick} {...axisProps} />
            <YAxis type="category" dataKey={category} width={150} tick={longTick} {...axisProps} />
          </>
        ) : (
          <>
            <XAxis dataKey={category} tick={shortTick} {...axisProps} />
            <YAxis allowDecimals={false} width={44} tick={shortTick} {...axisProps} />
          </>
        )}
        <Tooltip isAnimationActive={false} />
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            className={toneClass(s.tone)}
            stackId={stacked ? 'stack' : undefined}
            isAnimationActive={false}
          />
        ))}
        {reference && (
          <ReferenceLine
            {...(horizontal ? { y: reference.at } : { x: reference.at })}
            label={{ value: reference.label, position: 'insideTopRight', className: 'chart-tick' }}
            ifOverflow="extendDomain"
          />
        )}
      </BarChart>
    </>
  )
}

/** Lines over time (or any ordered category), one per series. */
export function LinesChart({
  data,
  category,
  series,
  percent = false,
}: {
  data: readonly Row[]
  category: string
  series: readonly Series[]
  percent?: boolean
}) {
  const id = useId().replace(/:/g, '')
  return (
    <>
      <Legend series={series} />
      <LineChart
        id={`chart-${id}`}
        width={CHART_WIDTH}
        height={CHART_HEIGHT}
        data={data as Row[]}
        margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
      >
        <CartesianGrid vertical={false} />
        <XAxis dataKey={category} tick={shortTick} {...axisProps} />
        <YAxis allowDecimals={false} width={44} tick={shortTick} domain={percent ? [0, 100] : undefined} {...axisProps} />
        <Tooltip isAnimationActive={false} />
        {series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            className={toneClass(s.tone)}
            type="monotone"
            strokeWidth={2}
            connectNulls
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </>
  )
}
