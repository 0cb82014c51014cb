// The server's drawing of a chart, kept per isolate by its figures. Recharts' SVG was most of what a
// report page cost the server (two charts: about half its CPU time, for 36 KB of markup), and the
// same figures always give the same SVG: every reader of a company's report, and every reload,
// shows the same charts. Only the server's build holds this module (lazy-charts.tsx).
import { createElement, useId, type ComponentProps, type ComponentType } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { BarsDrawing, LinesDrawing } from './charts'
import { Legend } from './legend'

export type ChartKind = 'bars' | 'lines'
interface Drawings {
  bars: ComponentProps<typeof BarsDrawing>
  lines: ComponentProps<typeof LinesDrawing>
}
export type DrawingProps<K extends ChartKind> = Drawings[K]

/** Enough for the charts of many companies' pages; a drawing is 10 to 25 KB. */
export const KEPT_DRAWINGS = 200
const kept = new Map<string, string>()

/**
 * The chart's SVG, drawn once per figures and id prefix (the chart's place on its page, which
 * keeps the ids of its clip paths apart from another chart's). The least recently used goes first.
 */
export function chartMarkup<K extends ChartKind>(kind: K, props: DrawingProps<K>, idPrefix: string): string {
  const key = JSON.stringify([kind, idPrefix, props])
  let markup = kept.get(key)
  if (markup === undefined) {
    const drawing = (kind === 'bars' ? BarsDrawing : LinesDrawing) as ComponentType<DrawingProps<K>>
    markup = renderToStaticMarkup(createElement(drawing, props), { identifierPrefix: idPrefix })
    if (kept.size >= KEPT_DRAWINGS) kept.delete(kept.keys().next().value!)
  } else {
    kept.delete(key)
  }
  kept.set(key, markup)
  return markup
}

/**
 * The chart as the server sends it: its legend, and its SVG as markup. The browser never hydrates
 * the markup: when the chart's code is needed it draws the chart anew in its place.
 */
export default function ServerChart<K extends ChartKind>({ kind, props }: { kind: K; props: DrawingProps<K> }) {
  const idPrefix = useId()
  return (
    <>
      <Legend series={props.series} />
      {/* `display: contents`: the drawing's own box (.recharts-wrapper) is laid out as if in place. */}
      <div style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: chartMarkup(kind, props, idPrefix) }} />
    </>
  )
}
