// The charts' drawing code (Recharts) comes after the page's first load: the server renders each
// chart's SVG, and the browser takes it over once the code has arrived.
import { lazy, Suspense, type ComponentProps } from 'react'
import type { BarsChart as Bars, LinesChart as Lines } from './charts'

const loadCharts = () => import('./charts')
const LoadedBars = lazy(() => loadCharts().then((m) => ({ default: m.BarsChart })))
const LoadedLines = lazy(() => loadCharts().then((m) => ({ default: m.LinesChart })))

export function BarsChart(props: ComponentProps<typeof Bars>) {
  return (
    <Suspense fallback={null}>
      <LoadedBars {...props} />
    </Suspense>
  )
}

export function LinesChart(props: ComponentProps<typeof Lines>) {
  return (
    <Suspense fallback={null}>
      <LoadedLines {...props} />
    </Suspense>
  )
}
