// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { ChartFrame } from './chart-frame'
import { BarList } from './bar-list'

const table = {
  columns: ['Name', 'Assets'],
  rows: [
    ['nginx', 1200],
    ['WordPress', 9],
  ] as const,
}

afterEach(cleanup)

describe('ChartFrame', () => {
  it('shows the chart under its title, and its figures as a table on demand', async () => {
    render(
      <ChartFrame title="Top technologies" table={table}>
        <BarList data={[{ name: 'nginx', count: 1200 }]} category="name" series={[{ key: 'count', label: 'Assets', tone: 0 }]} />
      </ChartFrame>,
    )
    expect(screen.getByRole('figure', { name: 'Top technologies' })).toBeTruthy()
    expect(screen.getByRole('img', { name: /Top technologies/ }).textContent).toContain('nginx')
    expect(screen.queryByRole('table')).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'Show as table' }))
    expect(screen.queryByRole('img', { name: /Top technologies/ })).toBeNull()
    expect(screen.getByRole('rowheader', { name: 'nginx' })).toBeTruthy()
    expect(screen.getByRole('cell', { name: '1,200' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Show as chart' }).getAttribute('aria-pressed')).toBe('true')
  })

  it('says so when there are no figures, without a table toggle', () => {
    render(
      <ChartFrame title="Patterns" table={{ columns: ['Name', 'Passwords'], rows: [] }}>
        <svg />
      </ChartFrame>,
    )
    expect(screen.getByText('No figures yet.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Show as table' })).toBeNull()
  })
})
