// The analyst pages' listener recipe: a Firestore query whose documents each collection module
// reads (unreadable ones left out). Loaded with the listener modules that use it (Firestore SDK).
import { collection, onSnapshot, query, type QueryConstraint } from 'firebase/firestore'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

export const watchQuery =
  <T>(path: string, read: (id: string, data: unknown) => T | null, ...constraints: QueryConstraint[]): Watch<T[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), path), ...constraints),
      (snapshot) => next(snapshot.docs.map((d) => read(d.id, d.data())).filter((x): x is T => x !== null)),
      fail,
    )
