// The people of a listUsers request, a page at a time from the server: the first page, the next on
// asking, and after a change the rows shown read again. The people tables, a company's page and
// the service catalogue's managers all read people this way.
import { useCallback, useEffect, useRef, useState } from 'react'
import { PEOPLE_PAGE, type ListUsersRequest, type PeopleCursor, type PersonRow } from '#domain/admin-people-calls.ts'
import { readPeople } from './people-view'

/** `mayChange`: the server's word on whether the reader may change these people, not only read them. */
type Load = {
  status: 'loading' | 'ready' | 'failed'
  /** A further page, or the pages shown read again after a change, is on its way. */
  busy: boolean
  rows: PersonRow[]
  next: PeopleCursor | null
  total: number
  unlisted: number | null
  mayChange: boolean
  error: string | null
}

const LOADING: Load = { status: 'loading', busy: false, rows: [], next: null, total: 0, unlisted: null, mayChange: false, error: null }

const failureText = (failure: unknown) => (failure instanceof Error ? failure.message : 'The list could not be read.')

/**
 * A page of people at a time, from the server, for `request` (a new one only when the filters
 * change); an answer that arrives after the filters changed again is dropped.
 */
export function usePeople(request: ListUsersRequest) {
  const [state, setState] = useState<Load>(LOADING)
  const asked = useRef(0)
  const read = useCallback(
    async (atLeast: number) => {
      const ask = ++asked.current
      setState((last) => ({ ...last, busy: last.status === 'ready' }))
      try {
        const { listPeople } = await import('./people-client')
        const answer = await readPeople(listPeople, request, atLeast)
        if (ask !== asked.current) return
        setState({
          status: 'ready',
          busy: false,
          rows: answer.people,
          next: answer.next,
          total: answer.total,
          unlisted: answer.unlisted,
          mayChange: answer.mayChange,
          error: null,
        })
      } catch (failure) {
        if (ask !== asked.current) return
        setState((last) => ({ ...last, status: last.status === 'ready' ? 'ready' : 'failed', busy: false, error: failureText(failure) }))
      }
    },
    [request],
  )
  useEffect(() => {
    setState(LOADING)
    void read(PEOPLE_PAGE.size)
  }, [read])
  const more = useCallback(async () => {
    if (!state.next || state.busy) return
    const ask = ++asked.current
    setState((last) => ({ ...last, busy: true }))
    try {
      const { listPeople } = await import('./people-client')
      const answer = await listPeople({ ...request, cursor: state.next })
      if (ask !== asked.current) return
      setState((last) => ({
        ...last,
        busy: false,
        rows: [...last.rows, ...answer.people],
        next: answer.next,
        total: answer.total,
        error: null,
      }))
    } catch (failure) {
      if (ask === asked.current) setState((last) => ({ ...last, busy: false, error: failureText(failure) }))
    }
  }, [request, state.next, state.busy])
  // After a change: the people shown, read again (a change may move, add or take away someone).
  const refresh = useCallback(() => read(state.rows.length), [read, state.rows.length])
  const retry = () => {
    setState(LOADING)
    void read(PEOPLE_PAGE.size)
  }
  return { ...state, more, refresh, retry }
}

/** A value that follows `value` once it has stayed the same for a moment: one request per pause in typing, not per key. */
export function useSettled<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
