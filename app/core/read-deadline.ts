// One-shot reads with an end. Firestore's `getDocs` and `getDoc` wait for the listen stream: while
// the database is out of reach the SDK can take minutes to give up, and the SDK restarts that stream
// for every new ID token (a read caught in such a restart has been seen never to answer). An export
// would spin for ever. A read here fails as soon as the page knows it is offline, or at its
// deadline, so the page says so and the person can try again.
import { whenOffline } from './connection'

/** As long as a callable is given (CALL_TIMEOUT_MS, 70 s): long enough for a large library on a slow line. */
export const READ_DEADLINE_MS = 70_000

/** A one-shot read that could not be answered: offline, or no answer before its deadline. */
export class ReadUnansweredError extends Error {
  override readonly name = 'ReadUnansweredError'
}

export const readMessages = {
  offline: 'The database cannot be reached: try again once you are back online.',
  noAnswer: 'The database did not answer in time: try again.',
} as const

/** What `read` answers; a ReadUnansweredError once the page is offline or `ms` passed without an answer. */
export function withinDeadline<T>(read: Promise<T>, ms = READ_DEADLINE_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false
    const stops: (() => void)[] = []
    const settle = (finish: () => void) => {
      if (done) return
      done = true
      stops.forEach((stop) => stop())
      finish()
    }
    const unanswered = (message: string) => () => settle(() => reject(new ReadUnansweredError(message)))
    const timer = setTimeout(unanswered(readMessages.noAnswer), ms)
    stops.push(() => clearTimeout(timer))
    // Offline already: it fails at once (and has stopped watching by itself).
    stops.push(whenOffline(unanswered(readMessages.offline)))
    read.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    )
  })
}
