// Parts of a page that follow the same data (a report and its export menu, say) share one
// listener: the documents are read and turned into the product's records once, not once per part.
import type { Watch } from './live-data'

interface Entry {
  subscribers: Set<{ next: (value: unknown) => void; fail: (error: Error) => void }>
  latest: { value: unknown } | null
  stop: () => void
}

const entries = new Map<string, Entry>()

/**
 * `watch` shared by every subscriber of `key`: the first starts it, the last one leaving stops it,
 * and one that comes later gets the latest value at once. A failed listener is dropped, so the next
 * subscriber (a retry) starts a new one.
 */
export function sharedWatch<T>(key: string, watch: Watch<T>): Watch<T> {
  return (next, fail) => {
    let entry = entries.get(key)
    if (!entry) {
      const started: Entry = { subscribers: new Set(), latest: null, stop: () => {} }
      entries.set(key, started)
      started.stop = watch(
        (value) => {
          started.latest = { value }
          for (const subscriber of started.subscribers) subscriber.next(value)
        },
        (error) => {
          if (entries.get(key) === started) entries.delete(key)
          for (const subscriber of started.subscribers) subscriber.fail(error)
        },
      )
      entry = started
    }
    const subscriber = { next: next as (value: unknown) => void, fail }
    entry.subscribers.add(subscriber)
    if (entry.latest) next(entry.latest.value as T)
    const joined = entry
    return () => {
      joined.subscribers.delete(subscriber)
      if (joined.subscribers.size > 0) return
      if (entries.get(key) === joined) entries.delete(key)
      joined.stop()
    }
  }
}
