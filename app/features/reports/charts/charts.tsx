// The report charts, drawn by Recharts with fixed coordinates (no measuring), so the server's SVG
// and the browser's agree. Axis labels are plain <text> (Recharts' own would measure words in the
// browser only), every tick is placed (interval 0) and the category axis writes, level or turned,
// those labels that do not run into another (category-ticks.ts); animations are off and ids come
// from useId.
import { useId } from 'react'
import { formatCompactNumber } from '#domain/numbers.ts'
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'
import { categoryTicks, labelled, LEVEL_AXIS_HEIGHT, TICK_CHARACTERS, type CategoryTicks } from './category-ticks'
import { Legend, toneClass, type Row, type Series } from './legend'

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

interface TickProps {
  x?: number
  y?: number
  payload?: { value: unknown }
  orientation?: string
  textAnchor?: 'start' | 'middle' | 'end'
  index?: number
}

const tick = (max: number) =>
  function Tick({ x = 0, y = 0, payload, orientation, textAnchor }: TickProps) {
    const vertical = orientation === 'left' || orientation === 'right'
    const value = payload?.value
    const text = typeof value === 'number' ? formatCompactNumber(value) : String(value ?? '')
    return (
      <text className="chart-tick" x={x} y={y} dy={vertical ? 4 : 14} textAnchor={textAnchor ?? (vertical ? 'end' : 'middle')}>
        {clip(text, max)}
      </text>
    )
  }

const shortTick = tick(TICK_CHARACTERS)

/** The category axis's labels as `layout` says: level or turned, and only those it writes. */
const categoryTick = (layout: CategoryTicks, count: number) =>
  function CategoryTick({ x = 0, y = 0, payload, index = 0 }: TickProps) {
    if (!labelled(layout, index, count)) return <g />
    const text = clip(String(payload?.value ?? ''), TICK_CHARACTERS)
    if (layout.angle === 0)
      return (
        <text className="chart-tick" x={x} y={y} dy={14} textAnchor="middle">
          {text}
        </text>
      )
    return (
      <text className="chart-tick" x={x} y={y} dy={12} textAnchor="end" transform={`rotate(${-layout.angle}, ${x}, ${y + 8})`}>
        {text}
      </text>
    )
  }

const axisProps = { interval: 0 as const, tickLine: false }

export const CHART_WIDTH = 560
export const CHART_HEIGHT = 260
const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 }
const VALUE_AXIS_WIDTH = 44
/** The width the categories share. */
const PLOT_WIDTH = CHART_WIDTH - MARGIN.left - MARGIN.right - VALUE_AXIS_WIDTH

/** The category axis of `data`, and the chart's height with it (a taller axis does not squeeze the plot). */
function categoryAxis(data: readonly Row[], category: string) {
  const layout = categoryTicks(
    data.map((row) => String(row[category] ?? '')),
    PLOT_WIDTH,
  )
  return {
    height: CHART_HEIGHT + layout.height - LEVEL_AXIS_HEIGHT,
    axis: { height: layout.height, tick: categoryTick(layout, data.length) },
  }
}

interface BarsProps {
  data: readonly Row[]
  category: string
  series: readonly Series[]
  stacked?: boolean
}

interface LinesProps {
  data: readonly Row[]
  category: string
  series: readonly Series[]
  percent?: boolean
}

/** Bars per category, one bar per series or stacked, with their legend. */
export function BarsChart(props: BarsProps) {
  return (
    <>
      <Legend series={props.series} />
      <BarsDrawing {...props} />
    </>
  )
}

/** Lines over time (or any ordered category), one per series, with their legend. */
export function LinesChart(props: LinesProps) {
  return (
    <>
      <Legend series={props.series} />
      <LinesDrawing {...props} />
    </>
  )
}

/** The bars alone: what the server keeps as markup (chart-markup.tsx). */
export function BarsDrawing({ data, category, series, stacked = false }: BarsProps) {
  const id = useId().replace(/:/g, '')
  const { height, axis } = categoryAxis(data, category)
  return (
    <BarChart id={`chart-${id}`} width={CHART_WIDTH} height={height} data={data as Row[]} margin={MARGIN} barCategoryGap="20%">
      <CartesianGrid vertical={false} />
      <XAxis dataKey={category} {...axis} {...axisProps} />
      <YAxis allowDecimals={false} width={VALUE_AXIS_WIDTH} tick={shortTick} {...axisProps} />
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
    </BarChart>
  )
}

/** The lines alone (as BarsDrawing). */
export function LinesDrawing({ data, category, series, percent = false }: LinesProps) {
  const id = useId().replace(/:/g, '')
  const { height, axis } = categoryAxis(data, category)
  return (
    <LineChart id={`chart-${id}`} width={CHART_WIDTH} height={height} data={data as Row[]} margin={MARGIN}>
      <CartesianGrid vertical={false} />
      <XAxis dataKey={category} {...axis} {...axisProps} />
      <YAxis allowDecimals={false} width={VALUE_AXIS_WIDTH} tick={shortTick} domain={percent ? [0, 100] : undefined} {...axisProps} />
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
  )
}
