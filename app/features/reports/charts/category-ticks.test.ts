import { describe, expect, it } from 'vitest'
import { categoryTicks, labelled, LEVEL_AXIS_HEIGHT, TICK_ANGLE } from './category-ticks'

const months = (n: number) => Array.from({ length: n }, (_, i) => `Month ${String(i + 1).padStart(2, '0')}, 2026`)

describe('categoryTicks', () => {
  it('keeps short labels level, each written', () => {
    const layout = categoryTicks(['Jan 26', 'Feb 26', 'Mar 26'], 500)
    expect(layout).toEqual({ angle: 0, every: 1, height: LEVEL_AXIS_HEIGHT })
  })

  it('turns twelve dates of a year of monthly scans, each still written, and makes the axis taller', () => {
    const layout = categoryTicks(months(12), 500)
    expect(layout.angle).toBe(TICK_ANGLE)
    expect(layout.every).toBe(1)
    expect(layout.height).toBeGreaterThan(LEVEL_AXIS_HEIGHT)
  })

  it('writes every second or third label when even turned ones would touch, the latest always', () => {
    const layout = categoryTicks(months(60), 500)
    expect(layout.every).toBeGreaterThan(1)
    expect(labelled(layout, 59, 60)).toBe(true)
    expect(labelled(layout, 58, 60)).toBe(false)
    // Turned labels `every` categories apart are at least a line apart.
    expect((500 / 60) * layout.every * Math.sin((TICK_ANGLE * Math.PI) / 180)).toBeGreaterThanOrEqual(15)
  })

  it('gives the same layout for the same labels (the server and the browser draw alike)', () => {
    expect(categoryTicks(months(12), 500)).toEqual(categoryTicks(months(12), 500))
  })
})
