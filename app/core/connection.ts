// Whether the browser reaches the database: the network as the browser sees it, Firestore as its
// SDK sees it (a listener served from the cache only is a database out of reach) and whether the
// database's host answers a probe at all (the SDK can take minutes to notice a server that stopped
// answering). Kept apart from the Firebase SDK: what feeds it is imported lazily (connection-live.ts).
import { useSyncExternalStore } from 'react'

export type Connection = 'online' | 'offline'

/** Who says whether the database is reached: the SDK's snapshots, or the host probe. */
export type ReachSource = 'snapshots' | 'probe'

const reached: Record<ReachSource, boolean> = { snapshots: true, probe: true }
const listeners = new Set<() => void>()
const publish = () => listeners.forEach((listener) => listener())

/** Told by the database listener (from its snapshots' metadata) or the host probe. */
export function reportDatabaseReach(source: ReachSource, reachedNow: boolean): void {
  if (reached[source] === reachedNow) return
  reached[source] = reachedNow
  publish()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

const currentConnection = (): Connection => (navigator.onLine && reached.snapshots && reached.probe ? 'online' : 'offline')

/** Calls `onOffline` as soon as the connection is offline (at once if it is now); returns a stop. */
export function whenOffline(onOffline: () => void): () => void {
  const check = () => {
    if (currentConnection() === 'online') return
    stop()
    onOffline()
  }
  const stop = subscribe(check)
  check()
  return stop
}

/** The connection now, re-rendering on every change; online while rendered on the server. */
export const useConnection = (): Connection => useSyncExternalStore(subscribe, currentConnection, () => 'online')
