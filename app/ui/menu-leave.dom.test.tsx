// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useMenuClosingOnLeave } from './menu-leave'
import { timings } from './theme'

function Probe() {
  const menu = useMenuClosingOnLeave()
  return (
    <>
      <button type="button" onClick={() => menu.setOpen(true)}>
        Open
      </button>
      <div data-testid="panel" {...menu.pointer}>
        {menu.open ? 'open' : 'closed'}
      </div>
    </>
  )
}

beforeEach(() => void vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const openMenu = () => {
  render(<Probe />)
  fireEvent.click(screen.getByRole('button', { name: 'Open' }))
  expect(screen.getByTestId('panel')).toHaveTextContent('open')
}

describe('a menu closing on leave', () => {
  it('closes the theme’s delay after the mouse leaves it, not before', () => {
    openMenu()
    fireEvent.pointerLeave(screen.getByTestId('panel'), { pointerType: 'mouse' })
    act(() => void vi.advanceTimersByTime(timings.menuCloseDelay - 1))
    expect(screen.getByTestId('panel')).toHaveTextContent('open')
    act(() => void vi.advanceTimersByTime(1))
    expect(screen.getByTestId('panel')).toHaveTextContent('closed')
  })

  it('stays open when the mouse slips out of the panel and back within the delay', () => {
    openMenu()
    fireEvent.pointerLeave(screen.getByTestId('panel'), { pointerType: 'mouse' })
    act(() => void vi.advanceTimersByTime(timings.menuCloseDelay / 2))
    fireEvent.pointerEnter(screen.getByTestId('panel'), { pointerType: 'mouse' })
    act(() => void vi.advanceTimersByTime(timings.menuCloseDelay * 5))
    expect(screen.getByTestId('panel')).toHaveTextContent('open')
  })

  it('ignores a finger lifting off (touch) and the pen', () => {
    openMenu()
    for (const pointerType of ['touch', 'pen']) fireEvent.pointerLeave(screen.getByTestId('panel'), { pointerType })
    act(() => void vi.advanceTimersByTime(timings.menuCloseDelay * 5))
    expect(screen.getByTestId('panel')).toHaveTextContent('open')
  })
})
