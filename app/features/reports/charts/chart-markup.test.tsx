import { renderToStaticMarkup } from 'react-dom/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ServerChart, { chartMarkup, KEPT_DRAWINGS } from './chart-markup'

// The drawing code, watched: how often it has drawn a chart.
const drawn = vi.hoisted(() => ({ count: 0 }))
vi.mock('./charts', async (original) => {
  const charts = await original<typeof import('./charts')>()
  return {
    ...charts,
    BarsDrawing: (props: Parameters<typeof charts.BarsDrawing>[0]) => {
      drawn.count++
      return charts.BarsDrawing(props)
    },
  }
})

const series = [
  { key: 'high', label: 'High', tone: 'high' as const },
  { key: 'low', label: 'Low', tone: 'low' as const },
]
const figures = (n: number) => ({
  data: [
    { scan: '1 Nov', high: n, low: 2 },
    { scan: '8 Nov', high: 4, low: 1 },
  ],
  category: 'scan',
  series,
  stacked: true,
})

const bars = (markup: string) => markup.match(/recharts-bar-rectangle"/g)?.length ?? 0

beforeEach(() => {
  drawn.count = 0
})

describe('the server drawing of a chart', () => {
  it('is the whole SVG, with its legend beside it', () => {
    const html = renderToStaticMarkup(<ServerChart kind="bars" props={figures(3)} />)
    expect(html).toContain('<svg')
    expect(bars(html)).toBe(4)
    expect(html).toContain('>High</li>')
  })

  it('is drawn once for the same figures and place', () => {
    const first = chartMarkup('bars', figures(5), 'a')
    expect(chartMarkup('bars', figures(5), 'a')).toBe(first)
    expect(drawn.count).toBe(1)
  })

  it('is drawn again for other figures, and for another place on the page, whose ids it takes', () => {
    const one = chartMarkup('bars', figures(6), 'one')
    const other = chartMarkup('bars', figures(7), 'one')
    const elsewhere = chartMarkup('bars', figures(6), 'two')
    expect(drawn.count).toBe(3)
    expect(other).not.toBe(one)
    expect(elsewhere).toMatch(/id="chart-_two/)
    expect(one).not.toMatch(/id="chart-_two/)
  })

  it('keeps at most KEPT_DRAWINGS, dropping the least recently used', () => {
    chartMarkup('bars', figures(1000), 'kept')
    for (let i = 0; i < KEPT_DRAWINGS - 1; i++) {
      chartMarkup('bars', figures(2000 + i), 'kept')
      chartMarkup('bars', figures(1000), 'kept')
    }
    chartMarkup('bars', figures(9999), 'kept')
    drawn.count = 0
    chartMarkup('bars', figures(1000), 'kept')
    expect(drawn.count).toBe(0)
    chartMarkup('bars', figures(2000), 'kept')
    expect(drawn.count).toBe(1)
  })
})
