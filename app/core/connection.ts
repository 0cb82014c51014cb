// Whether the browser reaches the database: the network as the browser sees it, and Firestore as
// its SDK sees it (a listener served from the cache only is a database out of reach). Kept apart
// from the Firebase SDK: the listener that feeds it is imported lazily (connection-live.ts).
import { useSyncExternalStore } from 'react'

export type Connection = 'online' | 'offline'

let databaseReached = true
const listeners = new Set<() => void>()
const publish = () => listeners.forEach((listener) => listener())

/** Told by the database listener whether its last snapshot came from the server. */
export function reportDatabaseReach(reached: boolean): void {
  if (reached === databaseReached) return
  databaseReached = reached
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

const current = (): Connection => (navigator.onLine && databaseReached ? 'online' : 'offline')

/** The connection now, re-rendering on every change; online while rendered on the server. */
export const useConnection = (): Connection => useSyncExternalStore(subscribe, current, () => 'online')
