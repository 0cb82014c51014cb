// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LiveStatus } from '~/ui/live-status'
import { useLazySubscription } from './lazy-subscription'
import { useLiveData, type Watch } from './live-data'

// The browser's idle time, as the test says when it comes.
const idle = vi.hoisted(() => ({ queue: [] as (() => void)[] }))
vi.mock('./after-idle', () => ({
  afterIdle: (work: () => void) => {
    idle.queue.push(work)
    return () => idle.queue.splice(idle.queue.indexOf(work) >>> 0, 1)
  },
}))
const browserIdle = () => act(() => idle.queue.splice(0).forEach((work) => work()))

afterEach(() => {
  cleanup()
  idle.queue.length = 0
})

/** A listener the test drives: what it was started with, and what it may send. */
function fakeListener<T>() {
  const started: string[] = []
  const stopped: string[] = []
  let next: (value: T) => void = () => {}
  let fail: (error: Error) => void = () => {}
  const watch =
    (key: string): Watch<T> =>
    (onNext, onFail) => {
      started.push(key)
      next = onNext
      fail = onFail
      return () => stopped.push(key)
    }
  return {
    watch,
    started,
    stopped,
    send: (value: T) => act(() => next(value)),
    fail: (message: string) => act(() => fail(new Error(message))),
  }
}

/** A lazily imported module, resolved when the test says so. */
function lazyModule<M>(module: M) {
  let resolve: () => void = () => {}
  const loaded = new Promise<M>((done) => (resolve = () => done(module)))
  return {
    load: () => loaded,
    /** The browser is idle (listeners start) and the module arrives. */
    arrive: async () => {
      await browserIdle()
      await act(async () => resolve())
    },
  }
}

function Names({
  load,
  watchKey,
  initial,
}: {
  load: () => Promise<(key: string) => Watch<string[]>>
  watchKey: string
  initial?: string[]
}) {
  const names = useLiveData(() => load().then((watch) => watch(watchKey)), [load, watchKey], initial)
  return names.status === 'ready' ? (
    <ul aria-label="Names">
      {names.data.map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  ) : (
    <LiveStatus live={names} what="the names" />
  )
}

describe('useLiveData', () => {
  it('is loading until the listener module arrived and sent, then ready with each value it sends', async () => {
    const listener = fakeListener<string[]>()
    const module = lazyModule(listener.watch)
    render(<Names load={module.load} watchKey="acme" />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading the names…')

    await module.arrive()
    expect(listener.started).toEqual(['acme'])
    expect(screen.getByRole('status')).toBeInTheDocument()

    listener.send(['Avery'])
    expect(screen.getByRole('list', { name: 'Names' })).toHaveTextContent('Avery')
    listener.send(['Avery', 'Blake'])
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Avery', 'Blake'])
  })

  it('starts ready with the first value the edge read, and the listener brings changes', async () => {
    const listener = fakeListener<string[]>()
    const module = lazyModule(listener.watch)
    render(<Names load={module.load} watchKey="acme" initial={['Avery']} />)
    expect(screen.getByRole('listitem')).toHaveTextContent('Avery')

    await module.arrive()
    listener.send(['Casey'])
    expect(screen.getByRole('listitem')).toHaveTextContent('Casey')
  })

  it('does not render again when the listener brings what the edge already rendered with', async () => {
    const listener = fakeListener<{ names: string[]; at: Date }>()
    const module = lazyModule(listener.watch)
    let renders = 0
    function Counted() {
      renders++
      const live = useLiveData(() => module.load().then((watch) => watch('acme')), [], { names: ['Avery'], at: new Date(5) })
      return <p>{live.data?.names.join(', ')}</p>
    }
    render(<Counted />)
    await module.arrive()
    const before = renders
    listener.send({ names: ['Avery'], at: new Date(5) })
    expect(renders).toBe(before)
    listener.send({ names: ['Avery', 'Blake'], at: new Date(5) })
    expect(renders).toBe(before + 1)
    expect(screen.getByText('Avery, Blake')).toBeInTheDocument()
  })

  it('says the data could not be loaded when the listener fails, and Retry starts a new one', async () => {
    const listener = fakeListener<string[]>()
    const module = lazyModule(listener.watch)
    render(<Names load={module.load} watchKey="acme" />)
    await module.arrive()
    listener.fail('permission-denied')
    expect(screen.getByRole('alert')).toHaveTextContent('The names could not be loaded.')

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await browserIdle()
    expect(listener.stopped).toEqual(['acme'])
    expect(listener.started).toEqual(['acme', 'acme'])
    expect(screen.getByRole('status')).toHaveTextContent('Loading the names…')
    listener.send(['Avery'])
    expect(screen.getByRole('listitem')).toHaveTextContent('Avery')
  })

  it('fails when the listener module cannot be loaded (offline, say)', async () => {
    render(<Names load={() => Promise.reject(new Error('Failed to fetch a module'))} watchKey="acme" />)
    await browserIdle()
    expect(await screen.findByRole('alert')).toHaveTextContent('The names could not be loaded.')
  })

  it('follows new inputs with a new listener, stopping the old one and not showing its data', async () => {
    const listener = fakeListener<string[]>()
    const module = lazyModule(listener.watch)
    const view = render(<Names load={module.load} watchKey="acme" />)
    await module.arrive()
    listener.send(['Avery'])

    view.rerender(<Names load={module.load} watchKey="globex" />)
    expect(screen.getByRole('status')).toBeInTheDocument()
    await browserIdle()
    expect(listener.stopped).toEqual(['acme'])
    expect(listener.started).toEqual(['acme', 'globex'])
    listener.send(['Blake'])
    expect(screen.getByRole('listitem')).toHaveTextContent('Blake')
  })

  it('stops the listener when the page goes away', async () => {
    const listener = fakeListener<string[]>()
    const module = lazyModule(listener.watch)
    const view = render(<Names load={module.load} watchKey="acme" />)
    await module.arrive()
    view.unmount()
    expect(listener.stopped).toEqual(['acme'])
  })
})

function Subscriber({ start }: { start: () => Promise<() => void> }) {
  useLazySubscription(() => start(), [start])
  return null
}

describe('useLazySubscription', () => {
  it('starts when the browser is next idle, and not at all for a component gone by then', async () => {
    const started: string[] = []
    const view = render(<Subscriber start={() => (started.push('early'), Promise.resolve(() => {}))} />)
    render(<Subscriber start={() => (started.push('stayed'), Promise.resolve(() => {}))} />)
    expect(started).toEqual([])
    view.unmount()
    await browserIdle()
    expect(started).toEqual(['stayed'])
  })

  it('stops a subscription that arrives after the component went away', async () => {
    const stopped: string[] = []
    const module = lazyModule(() => () => void stopped.push('late'))
    const view = render(<Subscriber start={() => module.load().then((subscribe) => subscribe())} />)
    await browserIdle()
    view.unmount()
    expect(stopped).toEqual([])
    await module.arrive()
    expect(stopped).toEqual(['late'])
  })
})
