// The charts' drawing code (Recharts) is large and slow to run on a phone, so it stays out of the
// first load: the server renders each chart's SVG, whole, and the browser takes a server-rendered
// chart over only when it needs the code: the reader reaches for the chart (pointer, touch or
// focus: its tooltips) or its figures change (a live update). A chart first drawn in the browser
// (after a navigation) loads the code at once.
import { Suspense, useEffect, useMemo, useRef, useState, type ComponentProps, type ComponentType } from 'react'
import styled from 'styled-components'
import { samePlainData } from '~/core/same-plain-data'
import { useHydrated } from '~/ui/use-hydrated'
import type { BarsChart as Bars, LinesChart as Lines } from './charts'
import { lazyPart } from '~/ui/lazy-part'

type ChartsModule = typeof import('./charts')

const loadCharts = () => import('./charts')

/** What tells that the reader reaches for a chart. */
const REACHING = ['pointerenter', 'touchstart', 'focusin'] as const

const Box = styled.div`
  min-width: 0;
`

/** Tells its parent once React has hydrated (or drawn) the boundary it sits in. */
function Hydrated({ onHydrated }: { onHydrated: () => void }) {
  useEffect(onHydrated, [onHydrated])
  return null
}

function deferredChart<P extends object>(pick: (charts: ChartsModule) => ComponentType<P>) {
  const Eager = lazyPart(() => loadCharts().then((charts) => ({ default: pick(charts) })))

  return function DeferredChart(props: P) {
    const box = useRef<HTMLDivElement>(null)
    const hydrating = !useHydrated()
    // Set in the browser when this chart's markup came from the server: its code waits until it is
    // needed. The server itself draws every chart.
    const [gate] = useState(() => (hydrating && typeof window !== 'undefined' ? Promise.withResolvers<void>() : null))
    const [Chart] = useState(() =>
      gate ? lazyPart(() => gate.promise.then(loadCharts).then((charts) => ({ default: pick(charts) }))) : Eager,
    )
    // Until its boundary is hydrated, the server-rendered chart is handed the very element it was
    // rendered with: an update reaching it earlier would make React drop its markup for the empty
    // fallback (or hold back the update that carried it).
    const [first] = useState(props)
    const [live, setLive] = useState(gate === null)
    const [goLive] = useState(() => () => setLive(true))
    const shown = live ? props : first
    const boundary = useMemo(
      () => (
        <Suspense fallback={null}>
          <Chart {...shown} />
          <Hydrated onHydrated={goLive} />
        </Suspense>
      ),
      [Chart, goLive, shown],
    )

    useEffect(() => {
      const element = box.current
      if (!gate || !element) return
      const wake = () => gate.resolve()
      for (const type of REACHING) element.addEventListener(type, wake, { passive: true })
      return () => {
        for (const type of REACHING) element.removeEventListener(type, wake)
      }
    }, [gate])
    // New figures can only be drawn by the code.
    useEffect(() => {
      if (gate && !samePlainData(props, first)) gate.resolve()
    })

    return <Box ref={box}>{boundary}</Box>
  }
}

export const BarsChart: ComponentType<ComponentProps<typeof Bars>> = deferredChart((charts) => charts.BarsChart)
export const LinesChart: ComponentType<ComponentProps<typeof Lines>> = deferredChart((charts) => charts.LinesChart)
