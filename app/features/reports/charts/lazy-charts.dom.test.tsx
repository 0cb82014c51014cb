// @vitest-environment happy-dom
import { act, useState } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { prerender } from 'react-dom/static'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BarsChart } from './lazy-charts'

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

/** An IntersectionObserver whose elements come on screen when the test says so. */
const observed: { callback: IntersectionObserverCallback; elements: Element[] }[] = []
class TestObserver {
  readonly callback: IntersectionObserverCallback
  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback
    observed.push({ callback, elements: [] })
  }
  observe(element: Element) {
    observed.find((o) => o.callback === this.callback)!.elements.push(element)
  }
  disconnect() {}
}
const scrollIntoView = () => {
  for (const { callback, elements } of observed)
    callback(
      elements.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry),
      {} as IntersectionObserver,
    )
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
  vi.stubGlobal('IntersectionObserver', TestObserver)
  vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', true)
}

beforeEach(() => {
  observed.length = 0
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

  it('keep their markup while off screen, even when their figures change, and take the new figures once on screen', async () => {
    const container = document.createElement('div')
    document.body.append(container)
    container.innerHTML = await serverHtml(first)
    const drawn = container.querySelector('svg')

    await act(async () => {
      root = hydrateRoot(container, <Harness first={first} />)
    })
    await act(async () => rerender(more))
    // Off screen: the server's SVG is still there, as it was, with the figures it was drawn with.
    expect(container.querySelector('svg')).toBe(drawn)
    expect(bars(container)).toBe(2)

    await act(async () => scrollIntoView())
    await vi.waitFor(() => expect(bars(container)).toBe(4))
    // (The server and the browser renderer share this one process, which React warns of; only
    // complaints about the hydration itself count here.)
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
    expect(observed).toHaveLength(0)
    container.remove()
  })
})
