// The one way the app follows live data: a listener module is imported lazily (it brings the
// Firebase SDK), started when the component mounts and stopped when it unmounts or its inputs
// change. `useLiveData` adds the state a page shows: loading, ready with data, or failed with a
// retry. A route loader may hand the edge's read as the first value, so the server renders with
// data and the listener only brings changes.
import { startTransition, useEffect, useRef, useState, type DependencyList } from 'react'
import { useLazySubscription } from './lazy-subscription'
import { samePlainData } from './same-plain-data'

/** A listener: calls `next` with each value, `fail` if it stops; returns the function that stops it. */
export type Watch<T> = (next: (value: T) => void, fail: (error: Error) => void) => () => void

/** A listener that sends nothing: for data the page has not asked for yet (its loading state stays). */
export const notAsked = <T>(): Promise<Watch<T>> => Promise.resolve(() => () => {})

export type LiveData<T> =
  | { status: 'loading'; data: T | undefined; error: null; retry(): void }
  | { status: 'ready'; data: T; error: null; retry(): void }
  | { status: 'failed'; data: T | undefined; error: Error; retry(): void }

type State<T> = Omit<LiveData<T>, 'retry'>

/**
 * Follows the data the lazily imported listener `load` gives. `initial`, when given, is the first
 * value (read at the edge): the state starts ready with it.
 */
export function useLiveData<T>(load: () => Promise<Watch<T>>, deps: DependencyList, initial?: T): LiveData<T> {
  const [state, setState] = useState<State<T>>(() =>
    initial === undefined ? { status: 'loading', data: undefined, error: null } : { status: 'ready', data: initial, error: null },
  )
  const [attempt, setAttempt] = useState(0)
  const started = useRef(false)
  const retrying = useRef(false)

  useEffect(
    () => {
      if (started.current) {
        // At once, though the listener starts later: a retry keeps what was shown; new inputs
        // (another template, say) do not.
        const keep = retrying.current
        setState((last) => ({ status: 'loading', data: keep ? last.data : undefined, error: null }))
      }
      started.current = true
      retrying.current = false
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, checked at its call
    [...deps, attempt],
  )
  useLazySubscription(
    async () => {
      const watch = await load()
      return watch(
        // A transition: rendering what a listener brings (a whole findings table, say) yields to
        // the browser, so the page stays responsive while it arrives.
        (data) =>
          startTransition(() =>
            setState((last) => (last.status === 'ready' && samePlainData(last.data, data) ? last : { status: 'ready', data, error: null })),
          ),
        (error) => setState((last) => ({ status: 'failed', data: last.data, error })),
      )
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, checked at its call
    [...deps, attempt],
    (error) => setState((last) => ({ status: 'failed', data: last.data, error })),
  )

  const retry = () => {
    retrying.current = true
    setAttempt((n) => n + 1)
  }
  return { ...state, retry } as LiveData<T>
}
