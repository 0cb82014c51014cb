// The listener recipe of pages that follow a collection: a Firestore query whose documents the
// collection's module reads (unreadable ones left out). Loaded with the listener modules that use it.
import { collection, onSnapshot, query, type QueryConstraint } from 'firebase/firestore'
import { firestore } from './firebase'
import type { Watch } from './live-data'

export const watchQuery =
  <T>(path: string, read: (id: string, data: unknown) => T | null, ...constraints: QueryConstraint[]): Watch<T[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), path), ...constraints),
      (snapshot) => next(snapshot.docs.map((d) => read(d.id, d.data())).filter((x): x is T => x !== null)),
      fail,
    )
