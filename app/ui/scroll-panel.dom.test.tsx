// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ScrollPanel } from './scroll-panel'
import { timings } from './theme'

beforeEach(() => void vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const panel = () => {
  render(<ScrollPanel>Long content</ScrollPanel>)
  return screen.getByText('Long content')
}

describe('a scroll panel', () => {
  it('shows its bar while the pointer is over it, and hides it the theme’s delay after it leaves', () => {
    const box = panel()
    expect(box).not.toHaveAttribute('data-bars')
    fireEvent.pointerEnter(box)
    expect(box).toHaveAttribute('data-bars')
    act(() => void vi.advanceTimersByTime(timings.scrollHideDelay * 3))
    expect(box).toHaveAttribute('data-bars')
    fireEvent.pointerLeave(box)
    act(() => void vi.advanceTimersByTime(timings.scrollHideDelay - 1))
    expect(box).toHaveAttribute('data-bars')
    act(() => void vi.advanceTimersByTime(1))
    expect(box).not.toHaveAttribute('data-bars')
  })

  it('shows it while scrolled by wheel or keyboard from outside, hiding it the delay after the last scroll', () => {
    const box = panel()
    fireEvent.scroll(box)
    act(() => void vi.advanceTimersByTime(timings.scrollHideDelay / 2))
    fireEvent.scroll(box)
    act(() => void vi.advanceTimersByTime(timings.scrollHideDelay - 1))
    expect(box).toHaveAttribute('data-bars')
    act(() => void vi.advanceTimersByTime(1))
    expect(box).not.toHaveAttribute('data-bars')
  })
})
