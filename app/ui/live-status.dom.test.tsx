// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LiveStatus } from './live-status'

afterEach(cleanup)

const live = (status: 'loading' | 'ready' | 'failed', retry = vi.fn()) => ({ status, retry })

describe('LiveStatus', () => {
  it('says what loads, then that it could not be loaded, with a retry; nothing once ready', async () => {
    const view = render(<LiveStatus live={live('loading')} what="the desk" />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading the desk…')
    const retry = vi.fn()
    view.rerender(<LiveStatus live={live('failed', retry)} what="the desk" />)
    expect(screen.getByRole('alert')).toHaveTextContent('The desk could not be loaded. Check your connection and retry.')
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(retry).toHaveBeenCalledOnce()
    view.rerender(<LiveStatus live={live('ready')} what="the desk" />)
    expect(view.container).toBeEmptyDOMElement()
  })

  it('says a check is under way, then that it could not be checked, never that the thing is not there', () => {
    const view = render(<LiveStatus live={live('loading')} what="the link" action="check" />)
    expect(screen.getByRole('status')).toHaveTextContent('Checking the link…')
    view.rerender(<LiveStatus live={live('failed')} what="the link" action="check" />)
    expect(screen.getByRole('alert')).toHaveTextContent('The link could not be checked just now: it may well be fine. Retry in a moment.')
    expect(view.container).not.toHaveTextContent(/not found|does not exist|none/i)
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument()
  })
})
