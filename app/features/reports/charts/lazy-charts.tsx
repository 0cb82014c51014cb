// The charts' drawing code (Recharts) is large and slow to run on a phone, so it stays out of the
// first load: the server sends each chart's SVG, whole, and the browser draws a server-rendered
// chart itself only when it needs the code: the reader reaches for the chart (pointer, touch or
// focus: its tooltips) or its figures change (a live update). A chart first drawn in the browser
// (after a navigation) loads the code at once.
import { Suspense, use, useEffect, useRef, useState, type ComponentProps, type ComponentType } from 'react'
import styled from 'styled-components'
import { samePlainData } from '~/core/same-plain-data'
import { useHydrated } from '~/ui/use-hydrated'
import type { BarsChart as Bars, LinesChart as Lines } from './charts'
import type { ChartKind, DrawingProps } from './chart-markup'
import { lazyPart, loadWhenOnline } from '~/ui/lazy-part'

type ChartsModule = typeof import('./charts')

const loadCharts = () => import('./charts')

// The server's drawings, kept by their figures (chart-markup.tsx): only the server's build has them.
const ServerChart = import.meta.env.SSR ? lazyPart(() => import('./chart-markup')) : undefined

/** What tells that the reader reaches for a chart. */
const REACHING = ['pointerenter', 'touchstart', 'focusin'] as const

const Box = styled.div`
  min-width: 0;
`

const never = new Promise<never>(() => {})

/** Keeps the boundary it sits in as the server sent it: it never finishes hydrating. */
function ServerMarkup(): never {
  return use(never)
}

function deferredChart<K extends ChartKind>(kind: K, pick: (charts: ChartsModule) => ComponentType<DrawingProps<K>>) {
  const Eager = lazyPart(() => loadCharts().then((charts) => ({ default: pick(charts) })))

  return function DeferredChart(props: DrawingProps<K>) {
    const box = useRef<HTMLDivElement>(null)
    const hydrating = !useHydrated()
    const onServer = typeof window === 'undefined'
    // In the browser, when this chart's markup came from the server: the markup stays, never
    // hydrated, until the code is needed; then the chart is drawn anew in its place, in one commit.
    const [fromServer] = useState(() => hydrating && !onServer)
    const [first] = useState(props)
    const [Drawn, setDrawn] = useState<ComponentType<DrawingProps<K>>>()
    const [takeOver] = useState(() => {
      let started = false
      return () => {
        if (started) return
        started = true
        // A failed import goes to the lazy part, which tries again online or reaches the error boundary.
        loadWhenOnline(loadCharts).then(
          (charts) => setDrawn(() => pick(charts)),
          () => setDrawn(() => Eager),
        )
      }
    })
    // The very element the boundary was hydrated with, so that no update reaches it.
    const [serverBoundary] = useState(() => (
      <Suspense fallback={null}>
        <ServerMarkup />
      </Suspense>
    ))

    useEffect(() => {
      const element = box.current
      if (!fromServer || !element) return
      for (const type of REACHING) element.addEventListener(type, takeOver, { passive: true })
      return () => {
        for (const type of REACHING) element.removeEventListener(type, takeOver)
      }
    }, [fromServer, takeOver])
    // New figures can only be drawn by the code.
    useEffect(() => {
      if (fromServer && !samePlainData(props, first)) takeOver()
    })

    const Chart = Drawn ?? Eager
    return (
      <Box ref={box}>
        {fromServer && !Drawn ? (
          serverBoundary
        ) : onServer && ServerChart ? (
          <Suspense fallback={null}>
            <ServerChart kind={kind} props={props as DrawingProps<ChartKind>} />
          </Suspense>
        ) : (
          // Keyed apart from the server's boundary: React replaces that one instead of hydrating it.
          <Suspense key="drawn" fallback={null}>
            <Chart {...props} />
          </Suspense>
        )}
      </Box>
    )
  }
}

export const BarsChart: ComponentType<ComponentProps<typeof Bars>> = deferredChart('bars', (charts) => charts.BarsChart)
export const LinesChart: ComponentType<ComponentProps<typeof Lines>> = deferredChart('lines', (charts) => charts.LinesChart)
