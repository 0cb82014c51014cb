// A bars or lines chart and its table view from one description: the table lists the category and
// each series, so chart and table cannot disagree.
import { BarList } from './bar-list'
import { ChartFrame } from './chart-frame'
import type { Row, Series } from './legend'
import { BarsChart, LinesChart } from './lazy-charts'

export function SeriesChart({
  title,
  summary,
  kind,
  data,
  category,
  categoryLabel,
  series,
  stacked,
  horizontal,
  percent,
}: {
  title: string
  summary?: string
  kind: 'bars' | 'lines'
  data: readonly Row[]
  category: string
  categoryLabel: string
  series: readonly Series[]
  stacked?: boolean
  horizontal?: boolean
  /** Lines: a 0 to 100 scale. */
  percent?: boolean
}) {
  const table = {
    columns: [categoryLabel, ...series.map((s) => s.label)],
    rows: data.map((row) => [row[category] ?? '', ...series.map((s) => row[s.key] ?? '')]),
  }
  return (
    <ChartFrame title={title} summary={summary} table={table}>
      {kind === 'lines' ? (
        <LinesChart data={data} category={category} series={series} percent={percent} />
      ) : horizontal ? (
        <BarList data={data} category={category} series={series} stacked={stacked} />
      ) : (
        <BarsChart data={data} category={category} series={series} stacked={stacked} />
      )}
    </ChartFrame>
  )
}
