import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BarList } from './bar-list'

const widths = (html: string) => [...html.matchAll(/class="(series-[\w-]+)" style="width:([\d.]+)%"/g)].map((m) => [m[1], Number(m[2])])

describe('BarList, as the server draws it', () => {
  it('names every category with its figure, its bar scaled to the largest', () => {
    const html = renderToString(
      <BarList
        data={[
          { name: 'nginx', count: 1200 },
          { name: 'WordPress', count: 300 },
          { name: 'IIS', count: 0 },
        ]}
        category="name"
        series={[{ key: 'count', label: 'Assets', tone: 0 }]}
      />,
    )
    for (const text of ['nginx', 'WordPress', 'IIS', '1,200', '300']) expect(html).toContain(`>${text}<`)
    expect(widths(html)).toEqual([
      ['series-0', 100],
      ['series-0', 25],
      ['series-0', 0],
    ])
  })

  it('stacks the series of a row into one bar, scaled to the largest total, with a legend', () => {
    const html = renderToString(
      <BarList
        data={[
          { name: 'S3', passed: 30, failed: 10 },
          { name: 'IAM', passed: 10, failed: 10 },
        ]}
        category="name"
        series={[
          { key: 'passed', label: 'Passed', tone: 1 },
          { key: 'failed', label: 'Failed', tone: 3 },
        ]}
        stacked
      />,
    )
    expect(widths(html)).toEqual([
      ['series-1', 75],
      ['series-3', 25],
      ['series-1', 25],
      ['series-3', 25],
    ])
    expect(html).toContain('>30 / 10<')
    expect(html).toContain('Passed')
    expect(html).toContain('Failed')
  })

  it('runs percentages on a 0 to 100 scale', () => {
    const html = renderToString(
      <BarList
        data={[{ name: 'CIS', compliance: 40 }]}
        category="name"
        series={[{ key: 'compliance', label: 'Compliance (%)', tone: 1 }]}
        percent
      />,
    )
    expect(widths(html)).toEqual([['series-1', 40]])
    expect(html).toContain('>40%<')
  })
})
