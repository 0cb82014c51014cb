// @vitest-environment happy-dom
import { act, useState } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { prerender } from 'react-dom/static'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BarsChart } from './lazy-charts'

// The drawing code, watched: how often it has drawn a chart.
const drawn = vi.hoisted(() => ({ count: 0 }))
vi.mock('./charts', async (original) => {
  const charts = await original<typeof import('./charts')>()
  return {
    ...charts,
    BarsChart: (props: Parameters<typeof charts.BarsChart>[0]) => {
      drawn.count++
      return charts.BarsChart(props)
    },
  }
})

const series = [{ key: 'count', label: 'Findings', tone: 0 }] as const

function Page({ rows }: { rows: { name: string; count: number }[] }) {
  return <BarsChart data={rows} category="name" series={series} />
}

let rerender: (rows: { name: string; count: number }[]) => void = () => {}

function Harness({ first }: { first: { name: string; count: number }[] }) {
  const [rows, setRows] = useState(first)
  rerender = setRows
  return <Page rows={rows} />
}

async function serverHtml(rows: { name: string; count: number }[]): Promise<string> {
  // As on the server, where there is no window.
  vi.stubGlobal('window', undefined)
  try {
    const { prelude } = await prerender(<Harness first={rows} />)
    return await new Response(prelude).text()
  } finally {
    vi.unstubAllGlobals()
    stubBrowser()
  }
}

const bars = (container: Element) => container.querySelectorAll('.recharts-bar-rectangle').length

const first = [
  { name: 'High', count: 3 },
  { name: 'Low', count: 5 },
]
const more = [...first, { name: 'Medium', count: 2 }, { name: 'Info', count: 7 }]

let root: Root | undefined
const errors = vi.spyOn(console, 'error')

function stubBrowser() {
  vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', true)
}

beforeEach(() => {
  errors.mockClear()
  stubBrowser()
})

afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  vi.unstubAllGlobals()
})

describe('charts drawn by the server', () => {
  it('are in the server HTML, drawn in full', async () => {
    const container = document.createElement('div')
    container.innerHTML = await serverHtml(first)
    expect(container.querySelector('svg')).not.toBeNull()
    expect(bars(container)).toBe(2)
  })

  it('keep the markup the server drew, without running the drawing code, until the reader reaches for one', async () => {
    const container = document.createElement('div')
    document.body.append(container)
    container.innerHTML = await serverHtml(first)
    const svg = container.querySelector('svg')
    const byServer = drawn.count

    await act(async () => {
      root = hydrateRoot(container, <Harness first={first} />)
    })
    expect(drawn.count).toBe(byServer)
    expect(container.querySelector('svg')).toBe(svg)

    // A pointer over the chart (for its tooltips): the code draws the chart in the markup's place,
    // never hydrating it (the server may send a kept drawing: chart-markup.tsx).
    await act(async () => container.firstElementChild!.dispatchEvent(new Event('pointerenter')))
    await vi.waitFor(() => expect(drawn.count).toBeGreaterThan(byServer))
    expect(container.querySelector('svg')).not.toBe(svg)
    expect(container.querySelectorAll('svg')).toHaveLength(1)
    expect(bars(container)).toBe(2)
    // (The server and the browser renderer share this one process, which React warns of; only
    // complaints about the hydration itself count here.)
    expect(errors.mock.calls.map(String).filter((message) => /hydrat|did not match|server/i.test(message))).toEqual([])
    container.remove()
  })

  it('take new figures (a live update) at once', async () => {
    const container = document.createElement('div')
    document.body.append(container)
    container.innerHTML = await serverHtml(first)
    await act(async () => {
      root = hydrateRoot(container, <Harness first={first} />)
    })
    await act(async () => rerender(more))
    await vi.waitFor(() => expect(bars(container)).toBe(4))
    expect(errors.mock.calls.map(String).filter((message) => /hydrat|did not match|server/i.test(message))).toEqual([])
    container.remove()
  })

  it('are drawn at once when the page was not drawn by the server', async () => {
    const container = document.createElement('div')
    document.body.append(container)
    const { createRoot } = await import('react-dom/client')
    await act(async () => {
      root = createRoot(container)
      root.render(<Harness first={more} />)
    })
    await vi.waitFor(() => expect(bars(container)).toBe(4))
    container.remove()
  })
})
